package views

import (
	"slices"
	"strconv"
	"time"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Presenter is a table's presentation declared beside the table's
// descriptor rather than in this package (a service whose pane is a
// data.PaneDecl): its columns (each named by its Key) and row builder, the
// sort-key attributes whose order a list keeps (Order) and the attributes
// whose columns a scope fixing them hides (Hides), both attribute →
// column key, and the Stream pane's summary attributes. A table without
// one is shown by the generic presenter.
type Presenter struct {
	Table   data.TableID
	Kind    string // what a list of them is called: "widgets"
	Columns func() []vtable.Column
	// Row reads only its arguments (it may run off the UI goroutine);
	// its cells are masked and drawn inert by the list, as every row.
	Row     func(rec data.Record, now time.Time, th themes.Theme) vtable.Row
	Order   map[string]string
	Hides   map[string]string
	Summary []string
}

// RegisterPresenter registers p for its table (the service's presenter
// file calls it in init); it returns the way to take it back (a test's own
// table). The pane showing the table is the one its descriptor declares.
func RegisterPresenter(p Presenter) (unregister func()) {
	return registerPresenter(presenter{
		table: p.Table, kind: p.Kind, columns: p.Columns, row: troubleTagged(p.Row),
		order: p.Order, hides: p.Hides, summary: p.Summary,
	})
}

// troubleTagged marks "!" the rows row builds without a tag of their own
// whose item the table's trouble rule (its descriptor's) holds in trouble.
func troubleTagged(row rowFunc) rowFunc {
	return func(rec data.Record, now time.Time, th themes.Theme) vtable.Row {
		r := row(rec, now, th)
		if r.Tag == "" && troubleOf(rec, now) {
			r.Tag = "!"
		}
		return r
	}
}

// genericMaxColumns bounds the generic presenter's columns: the keys and
// the first documented attributes by name; the detail view shows all.
const genericMaxColumns = 12

// genericPresenter is how a table without a presenter of its own looks,
// from its descriptor alone: a column per key attribute, then one per
// documented attribute, each the value as text (a map or list as JSON,
// cut by the column); a number the descriptor gives as a unix time shows
// as a time. ok is false for a table without a descriptor.
func genericPresenter(t data.TableID) (presenter, bool) {
	d, ok := data.Lookup(t)
	if !ok {
		return presenter{}, false
	}
	keys := d.Schema.KeyNames()
	attrs := slices.Clone(keys)
	var rest []string
	for a := range d.Schema.Attrs {
		if !slices.Contains(keys, a) && a != data.AttemptAttr {
			rest = append(rest, a)
		}
	}
	slices.Sort(rest)
	attrs = append(attrs, rest...)
	if len(attrs) > genericMaxColumns {
		attrs = attrs[:genericMaxColumns]
	}
	epoch := data.EpochAttrs(t)
	order := map[string]string{}
	if d.Schema.SK != nil {
		order[d.Schema.SK.Name] = d.Schema.SK.Name
	}
	for _, ix := range d.Schema.Indexes {
		if ix.SK != nil && slices.Contains(attrs, ix.SK.Name) {
			order[ix.SK.Name] = ix.SK.Name
		}
	}
	return presenter{
		table: t, kind: "items", pane: declaredPane(t),
		columns: func() []vtable.Column {
			cols := make([]vtable.Column, len(attrs))
			for i, a := range attrs {
				cols[i] = vtable.Column{Key: a, Title: a, Width: 12, Fit: true, Priority: len(attrs) - i}
				if _, isTime := epoch[a]; isTime {
					cols[i].Fit, cols[i].Width, cols[i].Relative = false, 9, Relative
				}
			}
			return cols
		},
		row: troubleTagged(func(rec data.Record, now time.Time, _ themes.Theme) vtable.Row {
			it := rec.Item()
			cells := make([]vtable.Cell, len(attrs))
			for i, a := range attrs {
				cells[i] = genericCell(it, a, epoch[a], now)
			}
			return vtable.Row{Cells: cells}
		}),
		order: order,
	}, true
}

// genericCell is attribute a of it as a cell: a unix time (unit given) as
// a relative time, a number sorted as one, anything else as its text.
func genericCell(it data.Item, a string, unit data.EpochUnit, now time.Time) vtable.Cell {
	v, ok := it[a]
	if !ok {
		return vtable.Cell{}
	}
	text := export.Text(v)
	if data.TypeName(v) != "N" {
		return vtable.Cell{Text: text}
	}
	if unit != 0 {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			t := time.Unix(n, 0)
			if unit == data.EpochMillis {
				t = time.UnixMilli(n)
			}
			return timeCell(t, now)
		}
	}
	c := vtable.Cell{Text: text}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return c.SortNum(f)
	}
	return c.SortLast()
}

package views

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// The generic presenter: how the items of a table no pane models look.
// Nothing is known of such a table but what DescribeTable says (its keys,
// its indexes' keys, its TTL attribute) and the items read so far, so the
// columns are exactly those: the key attributes first, in the order that
// identifies an item, then the other attributes in the order they were
// first seen. A column is never removed while the list lives (a row
// without the attribute shows "-"), so the screen does not jump as pages
// arrive; the detail view shows every attribute whatever the columns.

// maxGenericColumns bounds the columns a generic list grows to: beyond it
// a terminal shows none of them usefully, and each column is a cell in
// every row kept. The detail view (enter) still shows every attribute.
const maxGenericColumns = 24

// genericCols is a generic list's columns: the attribute each shows, in
// order. It is a value: a presenter built from it never changes, so a row
// builder running on the load-all goroutine reads no shared state.
type genericCols struct {
	attrs []string
	keys  int // attrs[:keys] are key attributes (base table, then indexes)
}

// newGenericCols is the columns known before any item is read: the base
// table's keys, the indexes' keys, the TTL attribute.
func newGenericCols(s data.TableSchema) genericCols {
	var c genericCols
	add := func(name string) {
		if name != "" && !slices.Contains(c.attrs, name) {
			c.attrs = append(c.attrs, name)
		}
	}
	for _, k := range s.KeyNames() {
		add(k)
	}
	for _, ix := range s.Indexes {
		add(ix.PK.Name)
		if ix.SK != nil {
			add(ix.SK.Name)
		}
	}
	c.keys = len(c.attrs)
	add(s.TTLAttr)
	return c
}

// grow is c with the attributes of items it lacks, in the order met (an
// item's own attributes by name: a map has no order); ok false when
// nothing was added.
func (c genericCols) grow(items []data.Item) (genericCols, bool) {
	if len(c.attrs) >= maxGenericColumns {
		return c, false
	}
	var added []string
	for _, it := range items {
		var names []string
		for name := range it {
			if !slices.Contains(c.attrs, name) && !slices.Contains(added, name) {
				names = append(names, name)
			}
		}
		slices.Sort(names)
		added = append(added, names...)
		if len(c.attrs)+len(added) >= maxGenericColumns {
			break
		}
	}
	if len(added) == 0 {
		return c, false
	}
	n := min(len(added), maxGenericColumns-len(c.attrs))
	out := genericCols{attrs: append(slices.Clone(c.attrs), added[:n]...), keys: c.keys}
	return out, true
}

// columns are the table columns: key columns first and kept longest on a
// narrow terminal, each titled with the attribute's own name (attribute
// names are case-sensitive: the title is the name to type in a filter).
func (c genericCols) columns() []vtable.Column {
	cols := make([]vtable.Column, len(c.attrs))
	for i, a := range c.attrs {
		prio := 5
		if i < c.keys {
			prio = 20 - i
		}
		cols[i] = vtable.Column{Key: a, Title: a, Width: max(min(len(a), 16), 4), Fit: true, Priority: prio}
	}
	return cols
}

// row renders an item's attributes in the columns' order. Numbers sort as
// numbers; a secret by its attribute's name is masked whole, and every
// other text by shape (maskedRows, which wraps this).
func (c genericCols) row(rec data.Record, _ time.Time, _ themes.Theme) vtable.Row {
	it := rec.Item()
	cells := make([]vtable.Cell, len(c.attrs))
	for i, a := range c.attrs {
		cells[i] = itemsCell(a, it[a])
	}
	return vtable.Row{Cells: cells}
}

// itemsPresenter is the presenter of unmodeled table t with columns c.
func itemsPresenter(t data.TableID, c genericCols) presenter {
	// A read in a sort key's order keeps that order for the rows the live
	// tail inserts: each key attribute's column is its own (Key = name).
	order := make(map[string]string, c.keys)
	for _, a := range c.attrs[:c.keys] {
		order[a] = a
	}
	return presenter{
		table: t, kind: "items", pane: PaneTables,
		columns: c.columns, row: c.row, order: order,
	}
}

// itemsCell is one attribute's cell: scalars as their text, a number
// sorted as one, containers summarised ("{3}", "[2]") — the detail view
// shows them whole.
func itemsCell(name string, av types.AttributeValue) vtable.Cell {
	if av == nil {
		return vtable.Cell{Text: "-"}.SortLast()
	}
	if secret.SecretName(name) {
		if _, isNull := av.(*types.AttributeValueMemberNULL); !isNull {
			return vtable.Cell{Text: secretMask}
		}
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return vtable.Cell{Text: oneLine(v.Value)}
	case *types.AttributeValueMemberN:
		c := vtable.Cell{Text: v.Value}
		if f, err := strconv.ParseFloat(v.Value, 64); err == nil {
			return c.SortNum(f)
		}
		return c
	case *types.AttributeValueMemberBOOL:
		return vtable.Cell{Text: strconv.FormatBool(v.Value)}
	case *types.AttributeValueMemberNULL:
		return vtable.Cell{Text: "null"}.SortLast()
	case *types.AttributeValueMemberB:
		return vtable.Cell{Text: "b64:" + shortB64(v.Value)}
	case *types.AttributeValueMemberM:
		return vtable.Cell{Text: "{" + strconv.Itoa(len(v.Value)) + "}"}
	case *types.AttributeValueMemberL:
		return vtable.Cell{Text: "[" + strconv.Itoa(len(v.Value)) + "]"}
	case *types.AttributeValueMemberSS:
		return vtable.Cell{Text: oneLine(strings.Join(v.Value, ","))}
	case *types.AttributeValueMemberNS:
		return vtable.Cell{Text: strings.Join(v.Value, ",")}
	case *types.AttributeValueMemberBS:
		return vtable.Cell{Text: "<" + strconv.Itoa(len(v.Value)) + " binaries>"}
	}
	return vtable.Cell{Text: "?"}.SortLast()
}

// secretMask stands for a value masked whole in a column.
const secretMask = "••••••"

// oneLine keeps a cell to one line of bounded length: a megabyte string
// would otherwise be carried in every frame's width computation. The
// table cuts what does not fit with "…" anyway; vtable makes it inert.
func oneLine(s string) string {
	const maxCell = 256
	if len(s) > maxCell {
		cut := maxCell
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func shortB64(b []byte) string {
	if len(b) > 48 {
		return base64.StdEncoding.EncodeToString(b[:48]) + "…"
	}
	return base64.StdEncoding.EncodeToString(b)
}

package views

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/data/secret"
	"opsdeck/views/filter"
	"opsdeck/views/inert"
	"opsdeck/views/vtable"
)

// setFilter narrows the list by a filter expression (views/filter). A bad
// expression — bad syntax, or a field that is neither a column nor an
// attribute of the loaded items — is returned and the rows stay as they
// were.
func (l *list) setFilter(text string) error {
	if strings.TrimSpace(text) == "" {
		l.table.SetFilter("")
		return nil
	}
	e, err := filter.Parse(text)
	if err != nil {
		return err
	}
	if e.Substring(text) {
		// One plain word: the table's own search, which narrows the
		// current view as the operator types instead of rescanning.
		l.table.SetFilter(text)
		return nil
	}
	fields := make(map[string]fieldFunc, len(e.Fields()))
	for _, name := range e.Fields() {
		f, err := l.field(name)
		if err != nil {
			return err
		}
		fields[name] = f
	}
	l.table.SetPredicate(text, func(r *vtable.Row, hay string) bool {
		return e.Match(filterRow{row: r, hay: hay, fields: fields})
	})
	return nil
}

// fieldFunc reads one field of a row for the filter.
type fieldFunc func(r *vtable.Row) (string, bool)

// filterRow is a table row as the filter reads it.
type filterRow struct {
	row    *vtable.Row
	hay    string
	fields map[string]fieldFunc
}

func (f filterRow) Hay() string { return f.hay }
func (f filterRow) Field(name string) (string, bool) {
	if get, ok := f.fields[name]; ok {
		return get(f.row)
	}
	return "", false
}

// field resolves a filter's field name: a column, by key or title
// (case-insensitive), else a top-level attribute of the items (exact name).
// Attributes are read masked: a filter cannot probe a secret's value.
func (l *list) field(name string) (fieldFunc, error) {
	cols := l.table.Columns()
	for i, c := range cols {
		if strings.EqualFold(c.Key, name) || strings.EqualFold(c.Title, name) {
			return func(r *vtable.Row) (string, bool) {
				if i >= len(r.Cells) {
					return "", false
				}
				return r.Cells[i].Text, true
			}, nil
		}
	}
	if !l.hasAttr(name) {
		keys := make([]string, 0, len(cols))
		for _, c := range cols {
			keys = append(keys, c.Key)
		}
		msg := "no such column or attribute here"
		cands := slices.Clone(keys) // columns first: they win a tie
		if s, ok := data.Schema(l.scope.Table); ok {
			cands = append(cands, slices.Sorted(maps.Keys(s.Attrs))...)
		}
		if s := filter.Suggest(name, cands); s != "" {
			msg += " — did you mean " + s + "?"
		}
		return nil, &filter.Error{Term: name, Msg: fmt.Sprintf("%s (columns: %s)", msg, strings.Join(keys, ", "))}
	}
	return func(r *vtable.Row) (string, bool) {
		// Looked up at each call: resetItems replaces the caches.
		cache := l.attrCache(name)
		if a, ok := cache[r.ID]; ok {
			return a.text, a.ok
		}
		var a attrText
		if it, ok := l.getItem(r.ID); ok {
			if av, ok := it[name]; ok {
				av, _ = secret.Value(secret.Default, []string{name}, av)
				a = attrText{text: export.Text(av), ok: true}
			}
		}
		cache[r.ID] = a
		return a.text, a.ok
	}, nil
}

// attrText is one attribute of one row as the filter reads it. The kept
// items are compressed, so reading an attribute of every row means
// decoding every block: the values are kept, per attribute, until the row's
// item changes (putItem, putPage, dropItem forget them), so each further
// keystroke in the filter line costs a look-up, not a decode.
type attrText struct {
	text string
	ok   bool
}

// attrCache is the cache of one attribute's values.
func (l *list) attrCache(name string) map[string]attrText {
	if l.attrs == nil {
		l.attrs = map[string]map[string]attrText{}
	}
	c := l.attrs[name]
	if c == nil {
		c = map[string]attrText{}
		l.attrs[name] = c
	}
	return c
}

// forgetAttrs drops the cached attribute values of a row whose item
// changed.
func (l *list) forgetAttrs(id string) {
	for _, c := range l.attrs {
		delete(c, id)
	}
}

// hasAttr reports whether some loaded item has the attribute, or whether
// nothing is loaded yet (then nothing can be said against the name).
func (l *list) hasAttr(name string) bool {
	if len(l.items) == 0 {
		return true
	}
	if s, ok := data.Schema(l.scope.Table); ok {
		if _, documented := s.Attrs[name]; documented || slices.Contains(s.KeyNames(), name) {
			return true
		}
	}
	found := false
	l.eachItem(func(it data.Item) bool {
		_, found = it[name]
		return !found
	})
	return found
}

// sortBy orders the rows by a column, named by key or title; "" returns to
// the natural order (the query's).
func (l *list) sortBy(column string, desc bool) error {
	if column == "" {
		l.table.SortBy(-1, false)
		return nil
	}
	i := l.table.FindColumn(column)
	if i < 0 {
		var keys []string
		for _, c := range l.table.Columns() {
			if !c.Hidden {
				keys = append(keys, c.Key)
			}
		}
		return fmt.Errorf("no column %q here (columns: %s)", inert.String(column), strings.Join(keys, ", "))
	}
	if l.table.Columns()[i].Hidden {
		return fmt.Errorf("column %q is hidden: this scope fixes its value", inert.String(column))
	}
	l.table.SortBy(i, desc)
	return nil
}

// shownColumns are the titles of the columns on screen, left to right.
func (l *list) shownColumns() []string {
	cols := l.table.Columns()
	var out []string
	for _, i := range l.table.ShownColumns() {
		out = append(out, cols[i].Title)
	}
	return out
}

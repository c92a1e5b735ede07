package vtable

// Predicate is a filter richer than a substring (the filter grammar's
// field and regex terms). It gets the row and the text the substring
// filter searches: every cell sanitised and lower-cased, each followed by
// a NUL byte. It must not keep the row.
type Predicate func(r *Row, hay string) bool

// SetPredicate filters by pred (nil: no filter); text is the expression as
// typed, what Filter returns. The view is rebuilt (O(N)); the cursor stays
// on its row if it still passes, else goes to the top.
func (m *Model) SetPredicate(text string, pred Predicate) {
	m.init()
	if pred == nil {
		m.SetFilter("")
		return
	}
	sel := m.SelectedID()
	m.filter, m.pred = text, pred
	m.rebuild("")
	if !m.Select(sel) {
		m.cursor, m.offset = 0, 0
	}
}

package views

import "opsdeck/views/vtable"

// cellTexts shares the cell strings that repeat from row to row — status
// words, regions, project ids, "3m ago" — so 100k rows hold one copy of
// each instead of 100k. A column that turns out to hold mostly distinct
// values (ids) stops being shared once it has internMax of them: its map
// would cost more than it saves.
type cellTexts struct {
	cols   []map[string]string
	closed []bool
}

const (
	internMax    = 512
	internMaxLen = 48 // longer texts are rarely repeated
)

// share replaces each cell text of row by the shared copy.
func (t *cellTexts) share(row *vtable.Row) {
	for len(t.cols) < len(row.Cells) {
		t.cols = append(t.cols, map[string]string{})
		t.closed = append(t.closed, false)
	}
	for i := range row.Cells {
		text := row.Cells[i].Text
		if t.closed[i] || text == "" || len(text) > internMaxLen {
			continue
		}
		if s, ok := t.cols[i][text]; ok {
			row.Cells[i].Text = s
			continue
		}
		if len(t.cols[i]) >= internMax {
			t.closed[i], t.cols[i] = true, nil
			continue
		}
		t.cols[i][text] = text
	}
}

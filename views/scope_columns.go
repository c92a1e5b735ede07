package views

import "slices"

// fixColumns hides the columns (by Key) whose value the current scope
// fixes — PROJECT under "Sessions · project p-1", USER under "Runs · user
// u-1" — and shows every other one. The title already names the value, so
// a column repeating it on every row only takes width from the ids, which
// then get cut at 80 columns. Call it after setScope (which shows every
// column again); scopes whose rows vary in that value keep the column.
// The presenter says which columns (present.go, list.shape).
func (l *list) fixColumns(keys ...string) {
	cols, cur := l.pr.columns(), l.table.Columns()
	changed := len(cur) != len(cols)
	for i := range cols {
		hide := slices.Contains(keys, cols[i].Key)
		if i < len(cur) && cur[i].Hidden != hide {
			changed = true
		}
		cols[i].Hidden = hide
	}
	if changed {
		l.table.SetColumns(cols)
	}
}

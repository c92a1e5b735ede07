package views

import (
	"opsdeck/data"
	"opsdeck/themes"
)

// SetTheme restyles every list of the pane, including a scan's.
func (b *base) SetTheme(th themes.Theme) {
	for _, l := range b.lists {
		l.restyle(th)
	}
	if b.scan != nil {
		b.scan.restyle(th)
	}
}

// restyle re-renders the held rows with th: cell colours (status words,
// errors) are chosen when a row is rendered, so a new table palette alone
// would leave them in the old theme. It costs one pass over the rows; the
// switch happens once, at start, usually before the first page arrives.
// Rows whose item has no usable key cannot be found again by id and keep
// their colours until the next load.
func (l *list) restyle(th themes.Theme) {
	l.table.SetTheme(th)
	if l.detail != nil {
		l.detail.SetTheme(th)
	}
	if l.table.Len() == 0 {
		return
	}
	now := l.ctx.now()
	l.eachItem(func(it data.Item) bool {
		rec := data.Decode(l.scope.Table, it)
		if rec == nil {
			return true
		}
		l.table.Refresh(l.render(rec, now, th, rowID(l.scope.Table, it, -1)))
		return true
	})
}

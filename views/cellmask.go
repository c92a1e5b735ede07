package views

import (
	"time"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// maskedRows wraps a row builder so that every cell text passes through the
// one masker before it is shown. Columns hold what tenants wrote — ids,
// names, reasons, causes — and any of them can carry a URL with a token or a
// credential; the detail view (s) is where one item's secrets are revealed,
// never the list. Sort keys are kept: a masked cell still sorts by its
// time or number.
func maskedRows(f rowFunc) rowFunc {
	return func(rec data.Record, now time.Time, th themes.Theme) vtable.Row {
		row := f(rec, now, th)
		for i := range row.Cells {
			if t, ok := secret.Text(row.Cells[i].Text); ok {
				row.Cells[i].Text = t
			}
		}
		return row
	}
}

package views

import (
	"fmt"
	"time"
)

// Relative renders t against now the way an on-call engineer reads it:
// "3m ago", "in 12m", "just now". A zero time is "-". Precision drops as the
// distance grows (seconds under a minute, then minutes, hours, days) because
// "2d 3h 4m" is noise in a table cell.
func Relative(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := t.Sub(now)
	future := d > 0
	if !future {
		d = -d
	}
	if d < 5*time.Second {
		return "just now"
	}
	s := shortDuration(d)
	if future {
		return "in " + s
	}
	return s + " ago"
}

func shortDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		h := int(d / time.Hour)
		if m := int((d % time.Hour) / time.Minute); h < 10 && m > 0 {
			return fmt.Sprintf("%dh%02dm", h, m)
		}
		return fmt.Sprintf("%dh", h)
	case d < 365*24*time.Hour:
		return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
	}
	return fmt.Sprintf("%dy", int(d/(365*24*time.Hour)))
}

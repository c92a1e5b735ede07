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

// RelativeNext is the first moment after now at which Relative(t, ·)
// reads differently — or t itself passes, which styling may follow (an
// expiry) — so a console with nothing else to do wakes only then. The
// zero time: never (t is zero).
func RelativeNext(t, now time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	d := t.Sub(now)
	if d > 0 {
		if d < 5*time.Second {
			return t // it passes; "just now" lasts until t+5s, asked then
		}
		// "in k units" turns into the label below it when d goes under
		// k·unit; the boundaries of every unit are whole multiples of the
		// units below, so this is also where the unit changes.
		u := relativeUnit(d)
		return t.Add(-d.Truncate(u))
	}
	a := -d
	if a < 5*time.Second {
		return t.Add(5 * time.Second)
	}
	u := relativeUnit(a)
	return t.Add(a.Truncate(u) + u)
}

// relativeUnit is the step of Relative's label at distance d.
func relativeUnit(d time.Duration) time.Duration {
	switch {
	case d < time.Minute:
		return time.Second
	case d < 10*time.Hour:
		return time.Minute // "3h05m": minutes up to ten hours
	case d < 48*time.Hour:
		return time.Hour
	case d < 365*24*time.Hour:
		return 24 * time.Hour
	}
	return 365 * 24 * time.Hour
}

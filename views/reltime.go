package views

import (
	"strconv"
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

// shortDuration is d in its largest unit ("45s", "12m", "3h05m", "2d",
// "1y"). strconv, not fmt: a load-all labels two times a row, 200k labels.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		h := int(d / time.Hour)
		if m := int((d % time.Hour) / time.Minute); h < 10 && m > 0 {
			pad := ""
			if m < 10 {
				pad = "0"
			}
			return strconv.Itoa(h) + "h" + pad + strconv.Itoa(m) + "m"
		}
		return strconv.Itoa(h) + "h"
	case d < 365*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return strconv.Itoa(int(d/(365*24*time.Hour))) + "y"
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

// RelativeWake is when a console showing Relative(t, ·) should next wake
// for it. Moments that matter to the second stay exact: t passing (an
// expiry), every change of a label counted in seconds, and a label
// entering the seconds range. A label counted in minutes or coarser
// changes at a second of its own; a screen of them would wake the
// console at a different second each time, redrawing most seconds of
// every minute. Those wakes are put off to the next whole minute of the
// wall clock, so all of them are drawn in one frame a minute — the label
// is then late by under a minute, finer than the minute it counts in.
func RelativeWake(t, now time.Time) time.Time {
	at := RelativeNext(t, now)
	if at.IsZero() || at.Equal(t) {
		return at
	}
	d := t.Sub(at)
	if d < 0 {
		d = -d
	}
	if d <= time.Minute {
		return at // a seconds label, or the change into seconds
	}
	if m := at.Truncate(time.Minute); !m.Equal(at) {
		return m.Add(time.Minute)
	}
	return at
}

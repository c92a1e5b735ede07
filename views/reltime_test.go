package views

import (
	"testing"
	"time"

	"opsdeck/data"
)

func TestRelative(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		d    time.Duration
		want string
	}{
		{0, "just now"},
		{-4 * time.Second, "just now"},
		{-42 * time.Second, "42s ago"},
		{-3 * time.Minute, "3m ago"},
		{12 * time.Minute, "in 12m"},
		{-(2*time.Hour + 5*time.Minute), "2h05m ago"},
		{-(2 * time.Hour), "2h ago"},
		{-(13*time.Hour + 30*time.Minute), "13h ago"},
		{-50 * time.Hour, "2d ago"},
		{400 * 24 * time.Hour, "in 1y"},
	}
	for _, c := range cases {
		if got := Relative(now.Add(c.d), now); got != c.want {
			t.Errorf("Relative(now%+v) = %q, want %q", c.d, got, c.want)
		}
	}
	if got := Relative(time.Time{}, now); got != "-" {
		t.Errorf("zero time = %q, want -", got)
	}
}

// TestRelativeHonoursOffsets: a stored timestamp with an offset reads as
// the instant it names ("1m ago"), and one in the future reads "in …",
// never a negative age.
func TestRelativeHonoursOffsets(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for raw, want := range map[string]string{
		"2026-11-21T14:59:00+03:00":     "1m ago",
		"2026-11-21T14:58:59.750+0300":  "1m ago",
		"2026-11-21 06:59:00-05:00":     "1m ago",
		"2026-11-21T11:59:00-03:00":     "in 2h59m",
		"2026-11-21T11:59:00.000+00:00": "1m ago",
	} {
		ts, _, err := data.ParseTime(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := Relative(ts, now); got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}

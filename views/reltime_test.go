package views

import (
	"testing"
	"time"
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

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
		{-(3*time.Hour + 45*time.Minute), "3h45m ago"},
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

// TestRelativeNextIsTheNextChange: for times at every scale, before and
// after now, Relative reads the same from now until just before
// RelativeNext and differently (or the time has passed) from then on, so a
// clock armed for it neither misses a change nor wakes for nothing.
func TestRelativeNextIsTheNextChange(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 250e6, time.UTC)
	offsets := []time.Duration{
		0, 1, 4 * time.Second, 5 * time.Second, 5*time.Second + 1, 59 * time.Second, 60 * time.Second,
		61*time.Second + 300*time.Millisecond, 59*time.Minute + 59*time.Second, time.Hour, 2*time.Hour + 20*time.Second,
		9*time.Hour + 59*time.Minute + 30*time.Second, 10 * time.Hour, 10*time.Hour + 1, 47*time.Hour + 30*time.Minute,
		48 * time.Hour, 72*time.Hour + 5*time.Minute, 364 * 24 * time.Hour, 366 * 24 * time.Hour, 800 * 24 * time.Hour,
	}
	for _, off := range offsets {
		for _, tm := range []time.Time{now.Add(off), now.Add(-off)} {
			next := RelativeNext(tm, now)
			if !next.After(now) && !next.Equal(now) {
				t.Fatalf("t=now%+v: next %v is before now", tm.Sub(now), next.Sub(now))
			}
			label := Relative(tm, now)
			for _, f := range []float64{0.25, 0.5, 0.9} {
				x := now.Add(time.Duration(float64(next.Sub(now)) * f))
				if x.Before(next) && Relative(tm, x) != label {
					t.Fatalf("t=now%+v: %q turned %q at now+%v, before next (now+%v)", tm.Sub(now), label, Relative(tm, x), x.Sub(now), next.Sub(now))
				}
			}
			after := next.Add(time.Millisecond)
			if Relative(tm, after) == label && !next.Equal(tm) {
				t.Fatalf("t=now%+v: %q unchanged at next (now+%v)", tm.Sub(now), label, next.Sub(now))
			}
		}
	}
	if !RelativeNext(time.Time{}, now).IsZero() {
		t.Fatal("a zero time changes")
	}
}

// TestRelativeWakeGathersMinuteLabels: a wake is never before the label's
// change (it would draw nothing new) and never misses one: labels counted
// in seconds, the change into seconds and the time itself passing are
// exact; minute and coarser changes come on the next whole minute, at most
// a minute late.
func TestRelativeWakeGathersMinuteLabels(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 17, 250e6, time.UTC)
	for _, off := range []time.Duration{
		2 * time.Second, 30 * time.Second, 59 * time.Second, 60*time.Second + 500*time.Millisecond,
		90 * time.Second, 10*time.Minute + 3*time.Second, 2*time.Hour + 20*time.Second, 30 * time.Hour, 400 * 24 * time.Hour,
	} {
		for _, tm := range []time.Time{now.Add(off), now.Add(-off)} {
			exact, wake := RelativeNext(tm, now), RelativeWake(tm, now)
			if wake.Before(exact) || wake.Sub(exact) >= time.Minute {
				t.Fatalf("t=now%+v: wake %v, the label changes at %v", tm.Sub(now), wake.Sub(now), exact.Sub(now))
			}
			secondsMatter := exact.Equal(tm) || tm.Sub(exact).Abs() <= time.Minute
			switch {
			case secondsMatter && !wake.Equal(exact):
				t.Fatalf("t=now%+v: %q changes at now+%v, the wake is put off to now+%v", tm.Sub(now), Relative(tm, now), exact.Sub(now), wake.Sub(now))
			case !secondsMatter && !wake.Equal(wake.Truncate(time.Minute)):
				t.Fatalf("t=now%+v: %q is counted in minutes or coarser, the wake (now+%v) is not on a whole minute", tm.Sub(now), Relative(tm, now), wake.Sub(now))
			}
		}
	}
}

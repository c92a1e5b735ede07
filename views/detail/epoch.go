package detail

import (
	"math"
	"strconv"
	"time"

	"opsdeck/data"
)

// looksMillis is where a unix time in seconds stops being plausible: 10¹¹
// seconds is the year 5138, 10¹¹ milliseconds is March 1973.
const looksMillis = 1e11

// epochText is a number attribute documented as a unix time, shown with
// the time it stands for: "1795424793 · 2026-11-23 09:06 UTC · 3m ago". A
// value whose size contradicts the documented unit is not converted: the
// view says so rather than guess.
func epochText(raw string, unit data.EpochUnit, o Options) string {
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return raw
	}
	if v == 0 {
		return raw + " · not set"
	}
	big := math.Abs(v) >= looksMillis
	switch {
	case unit == data.EpochSeconds && big:
		return raw + " · documented as unix seconds, but this looks like milliseconds: not converted"
	case unit == data.EpochMillis && !big:
		return raw + " · documented as unix milliseconds, but this looks like seconds: not converted"
	}
	if unit == data.EpochMillis {
		v /= 1000
	}
	sec, frac := math.Modf(v)
	t := time.Unix(int64(sec), int64(frac*1e9))
	loc := o.Loc
	if loc == nil {
		loc = time.Local
	}
	out := raw + " · " + t.In(loc).Format("2006-01-02 15:04 MST")
	if o.Relative != nil {
		now := time.Now()
		if o.Now != nil {
			now = o.Now()
		}
		out += " · " + o.Relative(t, now)
	}
	return out
}

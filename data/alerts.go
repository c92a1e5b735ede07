package data

// Alert thresholds (the config's alerts:) and whether a number crosses one.

import (
	"strconv"
)

// Threshold is an alert on a metric: "sandboxes.available < 5" holds for
// every tally of that key whose number crosses it.
type Threshold struct {
	Metric string
	Op     string // <, <=, >, >=, ==, !=
	Value  int64
}

// Holds reports whether n crosses the threshold.
func (a Threshold) Holds(n int64) bool {
	switch a.Op {
	case "<":
		return n < a.Value
	case "<=":
		return n <= a.Value
	case ">":
		return n > a.Value
	case ">=":
		return n >= a.Value
	case "==":
		return n == a.Value
	case "!=":
		return n != a.Value
	}
	return false
}

func (a Threshold) String() string {
	return a.Metric + " " + a.Op + " " + strconv.FormatInt(a.Value, 10)
}

// Alerting is the first threshold a tally crosses (ok false: none). A
// tally whose count failed crosses none: its number is unknown, which the
// overview shows as such. A project at or over its quota is an alert
// without configuration: new sessions of it are being refused.
func (t Tally) Alerting(ths []Threshold) (Threshold, bool) {
	if t.Err != nil || t.CountedAt.IsZero() {
		return Threshold{}, false
	}
	for _, th := range ths {
		if th.Metric == t.Key && th.Holds(t.N) {
			return th, true
		}
	}
	if t.Key == MetricProjectRunning && t.HasLimit && t.N >= t.Limit {
		return Threshold{Metric: t.Key, Op: ">=", Value: t.Limit}, true
	}
	return Threshold{}, false
}

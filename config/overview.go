package config

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Watch lists what the overview follows beyond what the console has seen.
type Watch struct {
	// Users are the tenants whose inbox and graph runs the overview counts
	// (both tables partition by user, so there is no fleet-wide count).
	Users []string
}

// Overview tunes the overview pane.
type Overview struct {
	ExpiringMinutes int           // "expiring soon" window for sessions
	RecountInterval time.Duration // full re-count period
	Bell            bool          // ring the terminal bell when an alert starts
	// DeletionFailingAt: a pending deletion whose deletion_retry_count
	// reaches this counts as sandboxes.deletion_failing.
	DeletionFailingAt int
}

// Alert is one threshold from `alerts:`, e.g. "sandboxes.available < 5".
// Metric is checked against the overview's metric names by the caller
// (config imports nothing of ours), which reports Line on a bad one.
type Alert struct {
	Metric string
	Op     string // <, <=, >, >=, ==, !=
	Value  int64
	Line   int
}

func (a Alert) String() string {
	return a.Metric + " " + a.Op + " " + strconv.FormatInt(a.Value, 10)
}

// Limits of the overview settings.
var OverviewLimits = struct {
	ExpiringMinutes   [2]int64
	RecountInterval   [2]time.Duration
	WatchUsers        int
	DeletionFailingAt [2]int64
}{
	DeletionFailingAt: [2]int64{1, 1000},
	ExpiringMinutes:   [2]int64{1, 24 * 60},
	RecountInterval:   [2]time.Duration{10 * time.Second, time.Hour},
	WatchUsers:        50,
}

func (d *decoder) watch(n *yaml.Node) error {
	return d.pairs(n, "watch", func(k, v *yaml.Node) error {
		switch k.Value {
		case "users":
			d.c.Watch.Users = nil
			return d.stringList(v, "watch.users", func(item *yaml.Node) error {
				var u string
				if err := d.str(item, "watch.users entry", &u); err != nil {
					return err
				}
				if len(d.c.Watch.Users) >= OverviewLimits.WatchUsers {
					return d.errf(item, "watch.users: more than %d users; each is a few queries per re-count", OverviewLimits.WatchUsers)
				}
				d.c.Watch.Users = append(d.c.Watch.Users, u)
				return nil
			})
		}
		return d.errf(k, "watch: unknown key %q (known: users)", k.Value)
	})
}

func (d *decoder) overview(n *yaml.Node) error {
	return d.pairs(n, "overview", func(k, v *yaml.Node) error {
		switch k.Value {
		case "expiring_minutes":
			return d.intIn(v, "overview.expiring_minutes", OverviewLimits.ExpiringMinutes[0], OverviewLimits.ExpiringMinutes[1], "minutes",
				"a session's TTL is an hour by default", &d.c.Overview.ExpiringMinutes)
		case "recount_interval":
			return d.durationIn(v, "overview.recount_interval", OverviewLimits.RecountInterval[0], OverviewLimits.RecountInterval[1],
				"each re-count is a few dozen queries billed to the tables", &d.c.Overview.RecountInterval)
		case "bell":
			return d.boolean(v, "overview.bell", &d.c.Overview.Bell)
		case "deletion_failing_at":
			return d.intIn(v, "overview.deletion_failing_at", OverviewLimits.DeletionFailingAt[0], OverviewLimits.DeletionFailingAt[1], "failed attempts",
				"0 would count every pending deletion as failing", &d.c.Overview.DeletionFailingAt)
		}
		return d.errf(k, "overview: unknown key %q (known: expiring_minutes, recount_interval, bell, deletion_failing_at)", k.Value)
	})
}

var alertSyntax = regexp.MustCompile(`^\s*([a-z_]+\.[a-z_]+)\s*(<=|>=|==|!=|<|>)\s*(-?[0-9]+)\s*$`)

func (d *decoder) alerts(n *yaml.Node) error {
	d.c.Alerts = nil
	return d.stringList(n, "alerts", func(item *yaml.Node) error {
		if item.Kind != yaml.ScalarNode || isNull(item) {
			return d.errf(item, "alerts entry must be text like \"sandboxes.available < 5\", not %s", describe(item))
		}
		s := item.Value
		m := alertSyntax.FindStringSubmatch(s)
		if m == nil {
			return d.errf(item, "alerts entry %q: want <metric> <op> <whole number>, e.g. \"sandboxes.available < 5\" (ops: < <= > >= == !=)", clipText(s))
		}
		v, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil || v == math.MinInt64 {
			return d.errf(item, "alerts entry %q: %s is out of range", clipText(s), m[3])
		}
		d.c.Alerts = append(d.c.Alerts, Alert{Metric: m[1], Op: m[2], Value: v, Line: item.Line})
		return nil
	})
}

// clipText keeps a quoted value in an error message short and printable.
func clipText(s string) string {
	s = strings.Map(func(r rune) rune {
		if isControl(r) {
			return '?'
		}
		return r
	}, s)
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

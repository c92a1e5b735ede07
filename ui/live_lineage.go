package ui

import (
	"strconv"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
)

// On AWS every shard of a stream is replaced about every four hours and busy
// ones split; the reader follows each closed shard into its children and
// reports the running counts per table (stream.Lineage). The health line
// shows them, so an operator watching through a rollover sees that the tail
// followed it rather than wondering whether it went quiet.

// noteLineage keeps the latest counts of each table.
func (l *liveTail) noteLineage(ls []stream.Lineage) {
	for _, x := range ls {
		if l.lineage == nil {
			l.lineage = map[data.TableID]stream.Lineage{}
		}
		l.lineage[x.Table] = x
	}
}

// lineageSummary is the shard turnover of table t, or of every table when
// t is "": "rolled 12 split 3" (with the latest one's time and table when
// long is set: "rolled 12 split 3, last 14:05:09 events"). "" before the
// first rollover.
func (l *liveTail) lineageSummary(t data.TableID, long bool) string {
	var rolls, splits int
	var last stream.Lineage
	for id, x := range l.lineage {
		if t != "" && id != t {
			continue
		}
		rolls += x.Rollovers
		splits += x.Splits
		if x.Last.After(last.Last) {
			last = x
		}
	}
	if rolls+splits == 0 {
		return ""
	}
	s := "rolled " + strconv.Itoa(rolls)
	if splits > 0 {
		s += " split " + strconv.Itoa(splits)
	}
	if long && !last.Last.IsZero() {
		s += ", last " + last.Last.In(l.loc).Format(time.TimeOnly)
		if t == "" {
			s += " " + string(last.Table)
		}
	}
	return s
}

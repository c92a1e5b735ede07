package streamview

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/views/inert"
)

// Column order of the stream list.
const (
	colTable = iota
	colEvent
	colKey
	colTime
	colSummary
	numCols
)

// Limits that keep one record's row text small whatever the item holds.
const (
	valueClip   = 40  // bytes of one value in a summary
	keyClip     = 96  // bytes of one key value
	maxChanges  = 6   // changed attributes spelled out before "+N more"
	summaryClip = 600 // bytes of the whole summary
)

// expiredTTL is how a delete by DynamoDB's TTL process is shown: on-call
// engineers must not mistake it for a delete someone issued.
const expiredTTL = "expired (TTL)"

// SummaryFunc names, for a table, the attributes that identify what a
// record is about, in the order a summary lists them (the console passes
// its per-table presentation, views.Summary). Tables it names none for (or
// images lacking all of them) fall back to the first attributes by name.
type SummaryFunc func(data.TableID) []string

// eventLabel is the event column: the stream's event name, except for TTL
// deletes.
func eventLabel(r stream.Record) string {
	if r.TTL {
		return expiredTTL
	}
	return r.EventName
}

// tableLabel is the table column: the logical id when known, else the
// physical name the reader saw.
func tableLabel(r stream.Record) string {
	if r.Table != "" {
		return string(r.Table)
	}
	return r.TableName
}

// keyText renders the primary key values, partition key first.
func keyText(r stream.Record) string { return maskedKeyText(r, nil) }

// maskedKeyText is keyText with credentials masked: a key is data a tenant
// chose, and can carry a token like any other value.
func maskedKeyText(r stream.Record, mask MaskFunc) string {
	keys := r.Keys
	if len(keys) == 0 {
		// Some images carry the key even when Keys is empty.
		keys = data.KeyOf(r.Table, pick(r.New, r.Old))
	}
	var names []string
	if s, ok := data.Schema(r.Table); ok {
		names = s.KeyNames()
	} else {
		names = sortedKeys(keys)
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if v, ok := keys[n]; ok {
			parts = append(parts, maskedText(v, keyClip, []string{n}, mask))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " · ")
}

func pick(a, b data.Item) data.Item {
	if len(a) > 0 {
		return a
	}
	return b
}

// timeText is the approximate creation time as a wall clock reading; the
// date is left out because a live tail spans minutes, not days.
func timeText(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "-"
	}
	return t.In(loc).Format("15:04:05")
}

// createdText is a record's ApproximateCreationDateTime as far as it is
// known: DynamoDB Streams round it to the minute, so a time on a whole
// minute is given as that minute, not as an exact "12:04:00".
func createdText(t time.Time, loc *time.Location) string {
	switch {
	case t.IsZero():
		return "created at an unknown time"
	case t.Second() == 0 && t.Nanosecond() == 0:
		return "created in the minute " + t.In(loc).Format("15:04")
	}
	return "created ≈" + t.In(loc).Format("15:04:05")
}

// summaryText is the one-line account of what a record changed.
func summaryText(r stream.Record, mask MaskFunc, attrs []string) string {
	var s string
	switch {
	case r.EventName == "MODIFY" && r.Old != nil && r.New != nil:
		s = changeSummary(r.Table, r.Old, r.New, mask, attrs)
	case r.EventName == "MODIFY" && r.New != nil:
		// NEW_IMAGE streams (events) give no old image to compare with.
		s = "now " + attrsSummary(r.Table, r.New, mask, attrs)
	case r.EventName == "REMOVE" && r.Old != nil:
		s = "was " + attrsSummary(r.Table, r.Old, mask, attrs)
	case r.EventName == "REMOVE":
		s = "item deleted"
	case r.New != nil:
		s = attrsSummary(r.Table, r.New, mask, attrs)
	default:
		s = "keys only"
	}
	return clipText(s, summaryClip)
}

// attrsSummary lists a few identifying attributes as name=value.
func attrsSummary(t data.TableID, it data.Item, mask MaskFunc, attrs []string) string {
	var parts []string
	for _, n := range attrs {
		if v, ok := it[n]; ok {
			parts = append(parts, n+"="+maskedText(v, valueClip, []string{n}, mask))
		}
	}
	if len(parts) == 0 {
		keyNames := map[string]bool{}
		if s, ok := data.Schema(t); ok {
			for _, k := range s.KeyNames() {
				keyNames[k] = true
			}
		}
		for _, n := range sortedKeys(it) {
			if keyNames[n] {
				continue
			}
			parts = append(parts, n+"="+maskedText(it[n], valueClip, []string{n}, mask))
			if len(parts) == 3 {
				break
			}
		}
	}
	if len(parts) == 0 {
		return "(no attributes)"
	}
	return strings.Join(parts, " ")
}

// changeSummary spells out a MODIFY: `status: RUNNING → COMPLETED`, `+name=v`
// for an added attribute, `-name` for a removed one — the table's identifying
// attributes first (a status change is the news), bookkeeping timestamps
// last (they change on every write).
func changeSummary(t data.TableID, old, new data.Item, mask MaskFunc, attrs []string) string {
	changed := summaryOrder(attrs, ChangedAttrs(old, new))
	if len(changed) == 0 {
		return "no attribute changed"
	}
	parts := make([]string, 0, maxChanges+1)
	for i, n := range changed {
		if i == maxChanges {
			parts = append(parts, "+"+strconv.Itoa(len(changed)-maxChanges)+" more")
			break
		}
		ov, inOld := old[n]
		nv, inNew := new[n]
		switch {
		case !inOld:
			parts = append(parts, "+"+n+"="+maskedText(nv, valueClip, []string{n}, mask))
		case !inNew:
			parts = append(parts, "-"+n)
		default:
			o, w := maskedText(ov, valueClip, []string{n}, mask), maskedText(nv, valueClip, []string{n}, mask)
			if o == w && data.TypeName(ov) != data.TypeName(nv) { // S "1" vs N 1
				o += " (" + data.TypeName(ov) + ")"
				w += " (" + data.TypeName(nv) + ")"
			}
			parts = append(parts, n+": "+o+" → "+w)
		}
	}
	return strings.Join(parts, ", ")
}

// rowCells computes the sanitised text of every column once, when the record
// arrives, so drawing a frame only cuts strings to width.
func rowCells(r stream.Record, arrived time.Time, loc *time.Location, mask MaskFunc, attrs []string) [numCols]string {
	return [numCols]string{
		colTable:   inert.String(clipText(tableLabel(r), keyClip)),
		colEvent:   inert.String(clipText(eventLabel(r), keyClip)),
		colKey:     inert.String(maskedKeyText(r, mask)),
		colTime:    timeText(arrived, loc),
		colSummary: inert.String(summaryText(r, mask, attrs)),
	}
}

// summaryOrder sorts changed attribute names for a summary: the table's
// identifying attributes (attrs) in their order, then the rest by name,
// then timestamps (names ending in "At" or "_at", "timestamp",
// "last_synced").
func summaryOrder(attrs []string, names []string) []string {
	rank := func(n string) int {
		for i, x := range attrs {
			if x == n {
				return i
			}
		}
		if strings.HasSuffix(n, "At") || strings.HasSuffix(n, "_at") || n == "timestamp" || n == "last_synced" {
			return 1 << 20
		}
		return 1 << 10
	}
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

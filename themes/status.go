package themes

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// statusClass groups the status words of the five services by what an
// on-call engineer should feel when seeing them.
var statusClass = map[string]int{
	// healthy / live
	"running": classOK, "ready": classOK, "active": classOK, "available": classOK,
	"delivered": classOK, "complete": classOK, "succeeded": classOK, "success": classOK,
	// in flight: watch it
	"processing": classWarn, "creating": classWarn, "provisioning": classWarn,
	"starting": classWarn, "retrying": classWarn, "received": classWarn,
	"pending_deletion": classWarn, "allocated": classWarn, "pending": classWarn,
	"stopping": classWarn, "deleting": classWarn,
	// broken: act
	"error": classErr, "failed": classErr, "timed_out": classErr,
	"stale": classErr, "expired": classErr,
	// finished, nothing to do
	"completed": classMuted, "stopped": classMuted, "deleted": classMuted,
	"released": classMuted,
}

const (
	classNone = iota
	classOK
	classWarn
	classErr
	classMuted
)

// Status returns the style for a status word, case-insensitively. Unknown
// words get the plain row style, so a new status is readable, just uncoloured.
func (t Theme) Status(s string) lipgloss.Style {
	switch statusClass[strings.ToLower(strings.TrimSpace(s))] {
	case classOK:
		return t.OK
	case classWarn:
		return t.Warn
	case classErr:
		return t.Error
	case classMuted:
		return t.Muted
	}
	return t.Row
}

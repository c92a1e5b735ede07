package ui

import (
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/views"
)

// An open confirmation follows the live tail: a change to an item it is
// about is shown, and the plan is re-read before y is accepted again.

// Changes applies live changes (stream records) to the dialog: a change to
// a target refreshes its plan so the dialog shows what is there now. When
// what the dialog shows changed, it must be read again before a yes counts.
func (d *confirmDialog) Changes(changes []views.Change) tea.Cmd {
	var what []string
	for _, c := range changes {
		// Index by index: a target that no longer qualifies leaves the
		// list while it is walked.
		for i := 0; i < len(d.plans); i++ {
			p := d.plans[i]
			if c.Table != p.Table || !sameKey(p.Key, c.Keys) {
				continue
			}
			img := c.New
			if c.Event == "REMOVE" {
				img = nil
			}
			w, removed := d.targetChanged(i, img)
			if w != "" {
				what = append(what, w)
			}
			if removed {
				i--
			}
		}
	}
	if len(what) == 0 || d.stale != "" {
		return nil
	}
	d.changedAt, d.acked, d.refused = d.now(), false, ""
	d.reread = append(d.reread, what...)
	if len(d.reread) > 3 {
		d.reread = d.reread[len(d.reread)-3:]
	}
	if d.typed {
		// What was typed answered another question.
		d.input.SetValue("")
		d.mismatch = false
	}
	return d.tickAfter(rereadDelay)
}

// targetChanged applies a new image of plan i. It says what changed in
// what the dialog shows ("" when nothing shown did), and whether the plan
// left the dialog.
func (d *confirmDialog) targetChanged(i int, img data.Item) (what string, removed bool) {
	p := d.plans[i]
	if len(img) > 0 && sameItem(p.Seen, img) {
		return "", false // a record that repeats what was seen changes nothing
	}
	refused := p.Check(img)
	np, err := p.Refresh(img, d.now())
	reason := ""
	switch {
	case len(img) == 0:
		reason = "was deleted"
		d.noteLive(p.Target + " was deleted")
	case err != nil:
		reason = "no longer qualifies: " + reasonOf(err)
		d.noteLive(p.Target + " changed and no longer qualifies: " + reasonOf(err))
	case refused != nil:
		// The old plan would fail now; the refreshed one shows the new
		// values and the operator confirms what is really there.
		d.plans[i] = np
		d.noteLive(p.Target + " changed (" + refused.Reason + "): now showing its current values")
		d.mismatch = false
		return planDiff(p, np), false
	default:
		d.plans[i] = np
		d.noteLive(p.Target + " changed: now showing its current values")
		return planDiff(p, np), false
	}
	// Deleted or no longer applicable.
	if len(d.plans) == 1 {
		d.stale = d.live[len(d.live)-1]
		return "", false
	}
	d.plans = append(d.plans[:i:i], d.plans[i+1:]...)
	d.skipped = append(d.skipped, skippedRow{target: p.Target, reason: "changed while this dialog was open"})
	return p.Target + " " + reason + ", and left this action", true
}

// planDiff says what differs between two plans of one target in what the
// dialog shows: the values before and after, the guard. "" when nothing.
func planDiff(old, cur action.Plan) string {
	var parts []string
	for _, c := range cur.Changes {
		var was *action.Change
		for j := range old.Changes {
			if old.Changes[j].Attr == c.Attr {
				was = &old.Changes[j]
				break
			}
		}
		nb, na := maskedChange(c)
		switch {
		case was == nil:
			parts = append(parts, c.Attr+" is now written too ("+nb+" → "+na+")")
		case was.Before != c.Before:
			ob, _ := maskedChange(*was)
			parts = append(parts, c.Attr+" is now "+nb+" (was "+ob+")")
		case was.After != c.After:
			_, oa := maskedChange(*was)
			parts = append(parts, c.Attr+" would now become "+na+" (not "+oa+")")
		}
	}
	for _, c := range old.Changes {
		found := false
		for _, n := range cur.Changes {
			found = found || n.Attr == c.Attr
		}
		if !found {
			parts = append(parts, c.Attr+" is no longer written")
		}
	}
	if guardText(old) != guardText(cur) {
		parts = append(parts, "the guard changed")
	}
	if len(parts) == 0 {
		return ""
	}
	return old.Target + ": " + strings.Join(parts, "; ")
}

func guardText(p action.Plan) string {
	var b strings.Builder
	for _, c := range p.Guard {
		b.WriteString(c.Text)
		b.WriteByte(0)
	}
	return b.String()
}

func (d *confirmDialog) noteLive(s string) {
	d.live = append(d.live, s)
	if len(d.live) > 3 {
		d.live = d.live[len(d.live)-3:]
	}
}

// sameKey compares the key attributes of a plan with a stream record's.
func sameKey(planKey, keys data.Item) bool {
	if len(planKey) == 0 || len(keys) == 0 {
		return false
	}
	for name, v := range planKey {
		if !sameValue(v, keys[name]) {
			return false
		}
	}
	return true
}

func sameItem(a, b data.Item) bool { return reflect.DeepEqual(a, b) }

// sameValue compares two attribute values by type and content (the SDK's
// member types are pointers to plain structs, so a deep comparison is
// exactly that).
func sameValue(a, b any) bool { return reflect.DeepEqual(a, b) }

// changesToDialog lets an open confirmation see live changes to its
// targets (called by the root for every live-tail batch).
func (m Model) changesToDialog(changes []views.Change) tea.Cmd {
	if d, ok := m.dialog.(*confirmDialog); ok && m.mode == modeDialog {
		return d.Changes(changes)
	}
	return nil
}

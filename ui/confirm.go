package ui

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/themes"
	"opsdeck/views"
)

// confirmDialog asks before an action writes. The default answer is No:
// only the Confirm key (y) says yes; Deny (n, esc) and a bare enter say no.
// In a protected environment y is not enough: the operator types the item
// id (or, for a bulk action, the number of rows) and presses enter.
type confirmDialog struct {
	confirmSpec
	input    textinput.Model
	mismatch bool // the last enter had a phrase that did not match

	// live notes the targets that changed while the dialog was open; stale
	// is set when the (single) target no longer admits the action, and
	// disables y.
	live  []string
	stale string

	scroll int // first line of the targets section shown
}

// confirmSpec is what the dialog is built from.
type confirmSpec struct {
	req     uint64
	plans   []action.Plan
	skipped []skippedRow
	bulk    bool
	hidden  int // marked rows the filter hides (they are included)
	typed   bool
	env     string

	keys          actionBindings
	confirm, deny key.Binding
	theme         themes.Theme
	now           func() time.Time
	under         func() string // the pane behind the dialog
}

func newConfirmDialog(s confirmSpec) *confirmDialog {
	d := &confirmDialog{confirmSpec: s}
	if s.now == nil {
		d.now = time.Now
	}
	if s.typed {
		d.input = textinput.New()
		d.input.Prompt = "> "
		d.input.CharLimit = 256
		st := d.input.Styles()
		st.Cursor.Blink = false
		d.input.SetStyles(st)
	}
	return d
}

// Init focuses the phrase input of a protected environment.
func (d *confirmDialog) Init() tea.Cmd {
	if d.typed {
		return d.input.Focus()
	}
	return nil
}

// Phrase is what must be typed in a protected environment.
func (d *confirmDialog) Phrase() string { return action.ConfirmPhrase(d.plans) }

// Plans are the plans the dialog would execute now.
func (d *confirmDialog) Plans() []action.Plan { return d.plans }

// Update handles keys and live changes. It returns nil once answered; the
// answer travels in the Cmd.
func (d *confirmDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case ChangesMsg:
		d.Changes(msg.Changes)
		return d, nil
	case tea.PasteMsg:
		if d.typed {
			var cmd tea.Cmd
			d.input, cmd = d.input.Update(msg)
			d.mismatch = false
			return d, cmd
		}
		return d, nil
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return d, nil
}

func (d *confirmDialog) key(k tea.KeyPressMsg) (Dialog, tea.Cmd) {
	switch k.String() {
	case "esc", "ctrl+c":
		return nil, d.cancel()
	case "up":
		d.scroll = max(d.scroll-1, 0)
		return d, nil
	case "down":
		d.scroll++
		return d, nil
	}
	if d.typed {
		if k.String() == "enter" {
			if d.stale != "" {
				return d, nil
			}
			if action.PhraseMatches(d.input.Value(), d.Phrase()) {
				return nil, d.accept()
			}
			d.mismatch = true
			return d, nil
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(k)
		d.mismatch = false
		return d, cmd
	}
	switch {
	case key.Matches(k, d.confirm):
		if d.stale != "" {
			return d, nil // nothing left to confirm; n/esc closes
		}
		return nil, d.accept()
	case key.Matches(k, d.deny), k.String() == "enter":
		// A bare enter is the default answer, and the default is No.
		return nil, d.cancel()
	}
	return d, nil
}

func (d *confirmDialog) accept() tea.Cmd {
	c := confirmedMsg{req: d.req, plans: append([]action.Plan(nil), d.plans...)}
	return func() tea.Msg { return c }
}

func (d *confirmDialog) cancel() tea.Cmd {
	c := cancelledMsg{req: d.req, title: plansTitle(d.plans), n: len(d.plans)}
	return func() tea.Msg { return c }
}

// Changes applies live changes (stream records) to the dialog: a change to
// a target refreshes its plan so the dialog shows what is there now.
func (d *confirmDialog) Changes(changes []views.Change) {
	for _, c := range changes {
		for i := range d.plans {
			p := d.plans[i]
			if c.Table != p.Table || !sameKey(p.Key, c.Keys) {
				continue
			}
			img := c.New
			if c.Event == "REMOVE" {
				img = nil
			}
			d.targetChanged(i, img)
		}
	}
}

// TargetChanged tells the dialog that its (first) target now holds
// newImage (nil: deleted). For a single action that is the target.
func (d *confirmDialog) TargetChanged(newImage data.Item) {
	if len(d.plans) > 0 {
		d.targetChanged(0, newImage)
	}
}

func (d *confirmDialog) targetChanged(i int, img data.Item) {
	p := d.plans[i]
	if len(img) > 0 && sameItem(p.Seen, img) {
		return // a record that repeats what was seen changes nothing
	}
	ok, _, why := p.Check(img)
	np, err := p.Refresh(img, d.now())
	switch {
	case len(img) == 0:
		d.noteLive(i, p.Target+" was deleted")
	case err != nil:
		d.noteLive(i, p.Target+" changed and no longer qualifies: "+reasonOf(err))
	case !ok:
		// The old plan would fail now; the refreshed one shows the new
		// values and the operator confirms what is really there.
		d.plans[i] = np
		d.noteLive(i, p.Target+" changed ("+strings.TrimPrefix(why, "not "+doneWord(p.Kind)+": ")+"): now showing its current values")
		d.mismatch = false
		return
	default:
		d.plans[i] = np
		d.noteLive(i, p.Target+" changed: now showing its current values")
		return
	}
	// Deleted or no longer applicable.
	if len(d.plans) == 1 {
		d.stale = d.live[len(d.live)-1]
		return
	}
	d.plans = append(d.plans[:i:i], d.plans[i+1:]...)
	d.skipped = append(d.skipped, skippedRow{target: p.Target, reason: "changed while this dialog was open"})
}

func (d *confirmDialog) noteLive(_ int, s string) {
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

// countLabel is "1 session" / "5 sandboxes".
func countLabel(n int, t data.TableID) string {
	unit := strings.TrimSuffix(string(t), "s")
	if t == data.TableSandboxes {
		unit = "sandbox"
	}
	if n == 1 {
		return "1 " + unit
	}
	if strings.HasSuffix(unit, "x") {
		return strconv.Itoa(n) + " " + unit + "es"
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// Hints is the footer line while the dialog is open.
func (d *confirmDialog) Hints() string {
	no := d.deny.Help().Key + " cancel (default) · enter = No"
	switch {
	case d.stale != "":
		return d.deny.Help().Key + " close · ↑/↓ scroll"
	case d.typed:
		return "type " + d.Phrase() + " then enter to confirm · esc cancel · ↑/↓ scroll"
	}
	return d.confirm.Help().Key + " confirm · " + no + " · ↑/↓ scroll"
}

package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/lineedit"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// confirmDialog asks before an action writes. The default answer is No:
// only the Confirm key (y) says yes; Deny (n, esc) and a bare enter say no.
// In a protected environment y is not enough: the operator types the item
// id (or, for a bulk action, the number of rows) and presses enter.
//
// A confirmation is only worth what the operator read, so the dialog
// refuses a yes it cannot stand behind:
//   - when the question cannot be seen (a terminal too small for it);
//   - when a live change re-pinned it to values the operator has not read:
//     it says what changed, the confirm key does nothing for rereadDelay,
//     and then needs a fresh press to acknowledge before the next one
//     confirms (typed phrases are cleared and typed again);
//   - from a held key (a key repeat).
type confirmDialog struct {
	confirmSpec
	input    lineedit.Model
	mismatch bool // the last enter had a phrase that did not match

	// live notes the targets that changed while the dialog was open; stale
	// is set when the (single) target no longer admits the action, and
	// disables y.
	live  []string
	stale string

	// reread says what changed since the operator last read the dialog
	// (newest last); changedAt is when. acked: the operator acknowledged
	// it with a fresh key press after the pause.
	reread    []string
	changedAt time.Time
	acked     bool
	// refused says why the last answer did nothing; the next key clears it.
	refused string
	// perm: whether DynamoDB would allow the write (confirm_perm.go).
	perm permState

	scroll int
	// w, h are the size the dialog is drawn at (the root sets them before
	// every message), so that a key knows whether the question shows.
	w, h int
}

// rereadDelay is how long the confirm key does nothing after the dialog
// changed: long enough that a y already on its way does not count, short
// enough not to stand in the way of someone who read the change.
const rereadDelay = 2 * time.Second

// minDialogInner is the narrowest text width a question is read at.
const minDialogInner = 16

// dialogTickMsg redraws an open dialog when its pause ends.
type dialogTickMsg struct{}

// confirmSpec is what the dialog is built from.
type confirmSpec struct {
	req     uint64
	plans   []action.Plan
	skipped []skippedRow
	bulk    bool
	hidden  int // marked rows the filter hides (they are included)
	typed   bool
	env     string

	confirm, deny key.Binding
	dialogKeys
	theme themes.Theme
	now   func() time.Time
	after func(time.Duration, tea.Msg) tea.Cmd // the root's timers (views.Context.After)
	under func() string                        // the pane behind the dialog
}

// dialogKeys are a dialog's own keys beside its answers (keymap's prompt
// keys): submit answers a typed phrase (a bare one means No), dismiss
// cancels, up/down scroll.
type dialogKeys struct {
	submit, dismiss, up, down key.Binding
}

// keyName is the first key of b as the help shows it ("esc" of esc/ctrl+c).
func keyName(b key.Binding) string {
	k, _, _ := strings.Cut(b.Help().Key, "/")
	return k
}

func dialogKeysOf(km keymap.Map) dialogKeys {
	return dialogKeys{submit: km.Submit, dismiss: km.Dismiss, up: km.LineUp, down: km.LineDown}
}

func newConfirmDialog(s confirmSpec) *confirmDialog {
	d := &confirmDialog{confirmSpec: s}
	if s.now == nil {
		d.now = time.Now
	}
	if s.after == nil {
		d.after = (*views.Context)(nil).After // tea.Tick
	}
	if s.typed {
		d.input = lineedit.New(256)
	}
	return d
}

// Init focuses the phrase input of a protected environment.
func (d *confirmDialog) Init() tea.Cmd {
	if d.typed {
		d.input.Focus()
	}
	return nil
}

// SetSize is the area the dialog is drawn in.
func (d *confirmDialog) SetSize(w, h int) { d.w, d.h = w, h }

// Phrase is what must be typed in a protected environment.
func (d *confirmDialog) Phrase() string { return action.ConfirmPhrase(d.plans) }

// Plans are the plans the dialog would execute now.
func (d *confirmDialog) Plans() []action.Plan { return d.plans }

// Update handles keys and live changes. It returns nil once answered; the
// answer travels in the Cmd.
func (d *confirmDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		// A bracketed paste of an id with invisible characters goes in
		// whole: it cannot be typed.
		if d.typed && d.input.Update(msg) {
			d.mismatch, d.refused = false, ""
		}
		return d, nil
	case tea.KeyPressMsg:
		return d.key(msg)
	case permProbedMsg:
		d.probed(msg)
	}
	return d, nil
}

func (d *confirmDialog) key(k tea.KeyPressMsg) (Dialog, tea.Cmd) {
	d.refused = ""
	switch {
	case key.Matches(k, d.dismiss):
		return nil, d.cancel()
	case key.Matches(k, d.up):
		d.scroll = max(d.scroll-1, 0)
		return d, nil
	case key.Matches(k, d.down):
		d.scroll++
		return d, nil
	}
	if d.typed {
		if key.Matches(k, d.submit) {
			if d.stale != "" {
				return d, nil
			}
			if why := d.writeRefused(); why != "" {
				d.refused = why
				return d, nil
			}
			if why, cmd := d.refuse(k); why != "" {
				d.refused = why
				return d, cmd
			}
			if phraseMatches(d.input.Value(), d.Phrase()) {
				return nil, d.accept()
			}
			d.mismatch = true
			return d, nil
		}
		if d.input.Update(k) {
			d.mismatch = false
		}
		return d, nil
	}
	switch {
	case key.Matches(k, d.confirm):
		if d.stale != "" {
			return d, nil // nothing left to confirm; n/esc closes
		}
		if why := d.writeRefused(); why != "" {
			// Known to be refused: sending it would only add a failure
			// (and an audit line) to what the dialog already says.
			d.refused = why
			return d, nil
		}
		if why, cmd := d.refuse(k); why != "" {
			d.refused = why
			return d, cmd
		}
		if d.mustReread() {
			// The pause is over and this is a fresh press: it says the
			// operator read the change. The next press confirms.
			d.acked = true
			return d, nil
		}
		return nil, d.accept()
	case key.Matches(k, d.deny), key.Matches(k, d.submit):
		// A bare enter is the default answer, and the default is No.
		return nil, d.cancel()
	}
	return d, nil
}

// refuse says why an answer (y, or enter on a typed phrase) cannot count
// now, with a Cmd that redraws when that may change; "" when it can.
func (d *confirmDialog) refuse(k tea.KeyPressMsg) (string, tea.Cmd) {
	if !d.fits(d.w, d.h) {
		return "the question cannot be seen: enlarge the terminal to answer", nil
	}
	if k.IsRepeat {
		return "a held key does not answer: release it and press " + d.answerKey() + " again", nil
	}
	if d.mustReread() {
		if left := d.rereadLeft(); left > 0 {
			return fmt.Sprintf("the dialog just changed: read it again (%s answers in %.1fs)", d.answerKey(), left.Seconds()), d.tickAfter(left)
		}
	}
	return "", nil
}

func (d *confirmDialog) answerKey() string {
	if d.typed {
		return d.submit.Help().Key
	}
	return d.confirm.Help().Key
}

// mustReread: a change the operator has not acknowledged yet.
func (d *confirmDialog) mustReread() bool { return !d.changedAt.IsZero() && !d.acked }

// rereadLeft is how long the answer stays disabled after the last change.
func (d *confirmDialog) rereadLeft() time.Duration {
	return max(d.changedAt.Add(rereadDelay).Sub(d.now()), 0)
}

func (d *confirmDialog) tickAfter(left time.Duration) tea.Cmd {
	return d.after(left+50*time.Millisecond, dialogTickMsg{})
}

// phraseMatches accepts the phrase as stored or as the dialog displays it
// (escaped): an id with invisible or control characters can be typed the
// way it is shown, or pasted as it is.
func phraseMatches(typed, phrase string) bool {
	return action.PhraseMatches(typed, phrase) || action.PhraseMatches(typed, inert.String(phrase))
}

func (d *confirmDialog) accept() tea.Cmd {
	c := confirmedMsg{req: d.req, plans: append([]action.Plan(nil), d.plans...)}
	return func() tea.Msg { return c }
}

func (d *confirmDialog) cancel() tea.Cmd {
	c := cancelledMsg{req: d.req, title: plansTitle(d.plans), n: len(d.plans)}
	return func() tea.Msg { return c }
}

// countLabel is "1 session" / "5 sandboxes".
func countLabel(n int, t data.TableID) string {
	unit := strings.TrimSuffix(string(t), "s")
	if d, ok := data.Lookup(t); ok && d.Noun != "" {
		unit = d.Noun
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
	enter, esc := keyName(d.submit), keyName(d.dismiss)
	scroll := keyName(d.up) + "/" + keyName(d.down) + " scroll"
	no := d.deny.Help().Key + " cancel (default) · " + enter + " = No"
	switch {
	case !d.fits(d.w, d.h):
		return "enlarge the terminal: too small to show this question, so it cannot be answered · " + esc + " cancels"
	case d.stale != "":
		return d.deny.Help().Key + " close · " + scroll
	case d.perm.denied != "":
		return d.deny.Help().Key + " close — the write would be refused · " + scroll
	case d.typed:
		return "type " + d.Phrase() + " then " + enter + " to confirm · " + esc + " cancel · " + scroll
	case d.mustReread() && d.rereadLeft() > 0:
		return "the dialog changed: read it again · " + no
	case d.mustReread():
		return d.confirm.Help().Key + " acknowledge the change (then " + d.confirm.Help().Key + " again confirms) · " + no
	}
	return d.confirm.Help().Key + " confirm · " + no + " · " + scroll
}

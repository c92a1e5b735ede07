package ui

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
)

// testClock is a clock the test moves by hand: the dialog's pause after a
// change is checked without sleeping.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock { return &testClock{t: fixedNow} }
func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}
func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func openDialog(t *testing.T, m Model) *confirmDialog {
	t.Helper()
	d, ok := m.dialog.(*confirmDialog)
	if !ok || m.Mode() != "dialog" {
		t.Fatalf("no confirmation open (mode %s, flash %q):\n%s", m.Mode(), m.Flash(), stripANSI(m.Render()))
	}
	return d
}

func change(t *testing.T, m Model, ch views.Change) Model {
	t.Helper()
	nm, cmd := m.Update(changesMsg([]views.Change{ch}))
	m, _ = settle(t, nm.(Model), cmd)
	return m
}

// TestBulkDialogSurvivesARowLeaving: three marked rows, the dialog open, a
// live change removes the first: the dialog drops it (it used to index
// past the shrunk list and panic), says so, and confirms the rest only
// after it was read again.
func TestBulkDialogSurvivesARowLeaving(t *testing.T) {
	w := newActWorld(t)
	for _, id := range []string{"sb-1", "sb-2", "sb-3"} {
		w.sandbox(id, time.Hour)
	}
	clock := newTestClock()
	o := w.options()
	o.Now = clock.Now
	m := start(t, o, 120, 40)
	m, _ = press(t, m, "5")
	for _, id := range []string{"sb-1", "sb-2", "sb-3"} {
		m = selectRow(t, m, id)
		m, _ = press(t, m, "space")
	}
	m, _ = press(t, m, "D")
	d := openDialog(t, m)
	if len(d.Plans()) != 3 {
		t.Fatalf("%d plans", len(d.Plans()))
	}
	first := d.Plans()[0]
	m = change(t, m, views.Change{Table: data.TableSandboxes, Event: "REMOVE", Keys: first.Key})
	d = openDialog(t, m)
	out := stripANSI(m.Render())
	if len(d.Plans()) != 2 || !strings.Contains(out, "Apply to 2 sandboxes?") || !strings.Contains(out, first.Target+" was deleted, and left this action") {
		t.Fatalf("the dialog should drop the deleted row and say so (%d plans):\n%s", len(d.Plans()), out)
	}
	m, _ = press(t, m, "y")
	if openDialog(t, m); len(w.auditEntries()) != 0 {
		t.Fatal("y right after the change wrote")
	}
	clock.Advance(rereadDelay + time.Second)
	m, _ = press(t, m, "y") // acknowledges
	if openDialog(t, m); len(w.auditEntries()) != 0 {
		t.Fatal("the acknowledging y wrote")
	}
	m, _ = press(t, m, "y")
	if es := w.auditEntries(); len(es) != 2 {
		t.Fatalf("%d rows written, want the 2 left", len(es))
	}
	if got := strAttr(w.get(data.TableSandboxes, first.Key), "status"); got != "allocated" {
		t.Errorf("the row that left the dialog was written: %s", got)
	}
}

// TestAChangedDialogMustBeReadAgain: a live change re-pins the dialog to
// new values; it says what changed, y does nothing for a moment, then a
// fresh y acknowledges and only the next one confirms.
func TestAChangedDialogMustBeReadAgain(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_moved", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	clock := newTestClock()
	o := w.options()
	o.Now = clock.Now
	m := start(t, o, 120, 40)
	m = selectRow(t, m, "sess_moved")
	m, _ = press(t, m, "x")
	now := w.set(data.TableSessions, sessKey("sess_moved"), data.Item{"internalStatus": sv("ACTIVE"), "updatedAt": sv("2026-11-21T11:30:00Z")})
	m = change(t, m, views.Change{Table: data.TableSessions, Event: "MODIFY", Keys: sessKey("sess_moved"), New: now})
	out := stripANSI(m.Render())
	for _, want := range []string{"changed while this dialog was open", "internalStatus is now ACTIVE", "(was", "Read it again", "ACTIVE → STOPPED"} {
		if !strings.Contains(out, want) {
			t.Fatalf("dialog lacks %q:\n%s", want, out)
		}
	}
	clock.Advance(500 * time.Millisecond)
	m, _ = press(t, m, "y")
	openDialog(t, m)
	if out := stripANSI(m.Render()); !strings.Contains(out, "the dialog just changed: read it again") {
		t.Fatalf("a y half a second after the change should be refused, and say why:\n%s", out)
	}
	// A held key never answers, even after the pause.
	clock.Advance(rereadDelay)
	nm, cmd := m.Update(tea.KeyPressMsg{Code: 'y', Text: "y", IsRepeat: true})
	m, _ = settle(t, nm.(Model), cmd)
	openDialog(t, m)
	m, _ = press(t, m, "y")
	if openDialog(t, m); !strings.Contains(stripANSI(m.Render()), "change acknowledged") || len(w.auditEntries()) != 0 {
		t.Fatalf("the first fresh y after the pause acknowledges, and writes nothing:\n%s", stripANSI(m.Render()))
	}
	m, _ = press(t, m, "y")
	if m.Flash() != releasedFlash("sess_moved") {
		t.Fatalf("flash %q after acknowledging and confirming", m.Flash())
	}
}

// TestTypedPhraseIsClearedByAChange: in a protected environment the phrase
// typed before a change does not confirm what changed.
func TestTypedPhraseIsClearedByAChange(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_typed", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	clock := newTestClock()
	o := w.options()
	o.Now, o.Env = clock.Now, "prod"
	m := start(t, o, 120, 40)
	m = selectRow(t, m, "sess_typed")
	m, _ = press(t, m, "x")
	m = typeText(t, m, "sess_typed")
	now := w.set(data.TableSessions, sessKey("sess_typed"), data.Item{"internalStatus": sv("ACTIVE")})
	m = change(t, m, views.Change{Table: data.TableSessions, Event: "MODIFY", Keys: sessKey("sess_typed"), New: now})
	m, _ = press(t, m, "enter")
	if openDialog(t, m); len(w.auditEntries()) != 0 {
		t.Fatal("the phrase typed before the change confirmed")
	}
	clock.Advance(rereadDelay + time.Second)
	m = typeText(t, m, "sess_typed")
	m, _ = press(t, m, "enter")
	if m.Flash() != releasedFlash("sess_typed") {
		t.Fatalf("flash %q after typing the phrase again", m.Flash())
	}
}

// TestTinyTerminalCannotConfirm: at 20×5 the question cannot be seen, so
// the dialog says to enlarge the terminal and y does nothing; back at a
// usable size it works.
func TestTinyTerminalCannotConfirm(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_tiny", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 80, 24)
	m = selectRow(t, m, "sess_tiny")
	m, _ = press(t, m, "x")
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 20, Height: 5})
	m = nm.(Model)
	out := stripANSI(m.Render())
	if lines := strings.Split(out, "\n"); len(lines) != 5 || cellWidth(lines[2]) != 20 {
		t.Fatalf("frame is not 20×5:\n%s", out)
	}
	if !strings.Contains(strings.ToLower(out), "enlarge") {
		t.Fatalf("at 20×5 the dialog should say to enlarge the terminal:\n%s", out)
	}
	m, _ = press(t, m, "y")
	if openDialog(t, m); len(w.auditEntries()) != 0 {
		t.Fatal("y confirmed a question that could not be seen")
	}
	nm, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = press(t, nm.(Model), "y")
	if m.Flash() != releasedFlash("sess_tiny") {
		t.Fatalf("flash %q at 80×24", m.Flash())
	}
}

// TestTinyTerminalCannotStartAScan: the scan's cost dialog is the same
// class: its y bills the whole table.
func TestTinyTerminalCannotStartAScan(t *testing.T) {
	w := seeded(t)
	gate := &scanGate{pass: -1}
	m := start(t, w.withClient(t, gate), 80, 24)
	m, _ = press(t, m, "S")
	if !strings.Contains(screen(m, w.prefix), "Scan sessions?") {
		t.Fatalf("no scan dialog:\n%s", screen(m, w.prefix))
	}
	nm, _ := m.Update(tea.WindowSizeMsg{Width: 20, Height: 5})
	m, _ = press(t, nm.(Model), "y")
	out := screen(m, w.prefix)
	if n := len(gate.scanCalls()); n != 0 || !strings.Contains(strings.ToLower(out), "enlarge") {
		t.Fatalf("%d Scan requests at 20×5:\n%s", n, out)
	}
	m, _ = press(t, m, "esc")
	if m.Mode() != "normal" {
		t.Fatal("esc did not close the scan dialog")
	}
}

// TestProtectedIDWithInvisibleCharacters: in prod, an id with a zero-width
// space and a bidi override can be pasted whole, or typed the way the
// dialog shows it (escaped).
func TestProtectedIDWithInvisibleCharacters(t *testing.T) {
	for _, how := range []string{"paste", "type-escaped"} {
		t.Run(how, func(t *testing.T) {
			w := newActWorld(t)
			id := "sess_\u200bzero\u202e" + how
			w.session(id, "RUNNING", "READY", fixedNow.Add(-time.Hour))
			o := w.options()
			o.Env = "prod"
			m := start(t, o, 120, 40)
			m, _ = press(t, m, "x")
			openDialog(t, m)
			if how == "paste" {
				nm, cmd := m.Update(tea.PasteMsg{Content: id})
				m, _ = settle(t, nm.(Model), cmd)
			} else {
				m = typeText(t, m, `sess_\u200bzero\u202e`+how)
			}
			assertInert(t, how, m.Render())
			m, _ = press(t, m, "enter")
			if m.Flash() != releasedFlash(`sess_\u200bzero\u202e`+how) {
				t.Fatalf("flash %q (mode %s):\n%s", m.Flash(), m.Mode(), stripANSI(m.Render()))
			}
		})
	}
}

// panicDialog panics on any key, or when drawn.
type panicDialog struct{ inView bool }

func (d *panicDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		var plans []int
		_ = plans[3] // index out of range, like the bug it stands for
	}
	return d, nil
}

func (d *panicDialog) View(int, int) string {
	if d.inView {
		panic("drawing failed")
	}
	return "a dialog"
}

// TestPanicInADialogNeverEndsTheConsole: a panic while a dialog handles a
// key, or while it is drawn, closes it without answering, says so, logs
// the stack to the debug log only, and the console keeps working.
func TestPanicInADialogNeverEndsTheConsole(t *testing.T) {
	for _, inView := range []bool{false, true} {
		w := seeded(t)
		var log bytes.Buffer
		o := w.options()
		o.DebugLog = &log
		m := start(t, o, 80, 24)
		nm, _ := m.Update(OpenDialogMsg{Dialog: &panicDialog{inView: inView}})
		m = nm.(Model)
		frame := m.Render()
		if inView && !strings.Contains(frame, "could not draw this screen") {
			t.Fatalf("a frame that cannot be drawn should say so:\n%s", frame)
		}
		m, _ = press(t, m, "y")
		if m.Mode() != "normal" || !strings.Contains(m.Flash(), "internal error") || !strings.Contains(m.Flash(), "closed") {
			t.Fatalf("inView %v: mode %s, flash %q", inView, m.Mode(), m.Flash())
		}
		if !strings.Contains(log.String(), "panic while") || !strings.Contains(log.String(), "goroutine") {
			t.Fatalf("inView %v: the stack is not in the debug log:\n%s", inView, log.String())
		}
		if strings.Contains(m.Render(), "goroutine") {
			t.Fatal("the stack reached the screen")
		}
		m, _ = press(t, m, "2")
		if m.Active() != views.PaneRuns {
			t.Fatal("the console stopped answering keys")
		}
	}
}

// TestPanicInACommandNeverEndsTheConsole: commands run on other
// goroutines; a panic in one (inside a batch, too) becomes an error line.
func TestPanicInACommandNeverEndsTheConsole(t *testing.T) {
	w := seeded(t)
	var log bytes.Buffer
	o := w.options()
	o.DebugLog = &log
	m := start(t, o, 80, 24)
	boom := m.guard.guardCmd(tea.Batch(func() tea.Msg { return nil }, func() tea.Msg { panic("decode failed") }))
	m, _ = settle(t, m, boom)
	if !strings.Contains(m.Flash(), "internal error in a background request: decode failed") {
		t.Fatalf("flash %q", m.Flash())
	}
	if !strings.Contains(log.String(), "panic in a background command") {
		t.Fatalf("debug log:\n%s", log.String())
	}
}

// A target id that carries a token is masked in the confirmation (single
// and bulk), the bulk summary and the status bar, like any value.
func TestTargetIDWithATokenIsMaskedInDialogs(t *testing.T) {
	w := newActWorld(t)
	tok := "tok_Q7xV9kP2mW4rT8bN3cY6"
	w.session("wss://h.example/cdp?token="+tok, "RUNNING", "READY", fixedNow.Add(-time.Hour))
	w.session("sess_plain_target", "RUNNING", "READY", fixedNow.Add(-2*time.Hour))
	m := start(t, w.options(), 120, 50)
	m, _ = press(t, m, "g", "x")
	if out := stripANSI(m.Render()); m.Mode() != "dialog" || strings.Contains(out, tok) || !strings.Contains(out, "cdp?token=••••••") {
		t.Fatalf("single confirmation:\n%s", out)
	}
	m, _ = press(t, m, "n", "g", "space", "j", "space", "x")
	if out := stripANSI(m.Render()); m.Mode() != "dialog" || strings.Contains(out, tok) || !strings.Contains(out, "cdp?token=••••••") {
		t.Fatalf("bulk confirmation:\n%s", out)
	}
	m, _ = press(t, m, "y")
	if out := stripANSI(m.Render()); !strings.Contains(out, "2 rows: 2 succeeded") || strings.Contains(out, tok) || strings.Contains(m.Flash(), tok) {
		t.Fatalf("bulk summary:\n%s\nflash %q", out, m.Flash())
	}
}

// A pane's note quotes the row it is about (a row removed by TTL): the
// status bar masks a token in it like any value.
func TestStatusNoteMasksTheRowID(t *testing.T) {
	w := newActWorld(t)
	tok := "tok_Q7xV9kP2mW4rT8bN3cY6"
	it := w.session("wss://h.example/cdp?token="+tok, "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)
	nm, cmd := m.Update(changesMsg([]views.Change{{Table: data.TableSessions, Event: "REMOVE",
		Keys: data.KeyOf(data.TableSessions, it), Old: it, TTL: true}}))
	m, _ = settle(t, nm.(Model), cmd)
	out := stripANSI(m.Render())
	if !strings.Contains(out, "expired (TTL)") || strings.Contains(out, tok) {
		t.Fatalf("status bar:\n%s", out)
	}
}

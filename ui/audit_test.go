package ui

import (
	"os"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"

	"opsdeck/data/action"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

func TestParseAuditCommand(t *testing.T) {
	for _, tc := range []struct {
		line, arg, err string
	}{
		{"audit", "", ""},
		{"AUDIT 20", "20", ""},
		{"audit 1 2", "", "too many arguments"},
		{"audit status=x", "", "takes no options"},
	} {
		c, err := ParseCommand(tc.line)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || c.Verb != VerbAudit || c.Arg != tc.arg {
			t.Errorf("%q: %+v, %v", tc.line, c, err)
		}
	}
	if got := Complete("au", nil); len(got) != 1 || got[0] != "audit" {
		t.Errorf("completion of au: %v", got)
	}
}

func TestAuditOverlayShowsEntriesNewestFirst(t *testing.T) {
	w := newActWorld(t)
	w.session("sess_aud1", "RUNNING", "READY", fixedNow.Add(-2*time.Hour))
	w.session("sess_aud2", "RUNNING", "READY", fixedNow.Add(-time.Hour))
	m := start(t, w.options(), 120, 40)

	m, _ = runLine(t, m, "audit")
	if out := stripANSI(m.Render()); m.Mode() != "dialog" || !strings.Contains(out, "No action has been attempted yet") {
		t.Fatalf("empty audit log:\n%s", out)
	}
	m, _ = press(t, m, "esc")

	m = selectRow(t, m, "sess_aud1")
	m, _ = press(t, m, "x", "y")
	m = selectRow(t, m, "sess_aud2")
	m, _ = press(t, m, "x", "y")
	m, _ = runLine(t, m, "audit")
	out := stripANSI(m.Render())
	i1, i2 := strings.Index(out, "release-session dev/sess_aud1"), strings.Index(out, "release-session dev/sess_aud2")
	if i1 < 0 || i2 < 0 || i2 > i1 {
		t.Fatalf("want both entries, newest first:\n%s", out)
	}
	if !strings.Contains(out, "by alice@box") || !strings.Contains(out, w.audit) {
		t.Errorf("entry lacks operator or the path:\n%s", out)
	}
	m, _ = press(t, m, "esc")
	m, _ = runLine(t, m, "audit 1")
	out = stripANSI(m.Render())
	if strings.Contains(out, "dev/sess_aud1") || !strings.Contains(out, "dev/sess_aud2") {
		t.Errorf(":audit 1 should show only the last entry:\n%s", out)
	}
	m, _ = press(t, m, "esc")
	m, _ = runLine(t, m, "audit many")
	if m.Mode() != "normal" || !strings.Contains(m.Flash(), "not a number") {
		t.Errorf(":audit many: mode %s flash %q", m.Mode(), m.Flash())
	}
}

// A hostile line in the log (control sequences) is shown inert and flagged,
// never hidden and never interpreted.
func TestAuditOverlayShowsBadLinesInert(t *testing.T) {
	w := newActWorld(t)
	if err := os.WriteFile(w.audit, []byte("not json \x1b[2J\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := start(t, w.options(), 100, 30)
	m, _ = runLine(t, m, "audit")
	raw := m.Render()
	if strings.Contains(raw, "\x1b[2J") {
		t.Fatal("escape sequence from the log reached the terminal")
	}
	if !strings.Contains(stripANSI(raw), `not json \x1b[2J`) {
		t.Errorf("bad line not shown:\n%s", stripANSI(raw))
	}
}

// A write recognised after a lost response is drawn as done, an unknown
// outcome as a warning: neither in the colour of a failure.
func TestAuditOverlayColoursOutcomesByWhatHappened(t *testing.T) {
	th := themes.Dark()
	for _, tc := range []struct {
		result string
		style  lipgloss.Style
		label  string
	}{
		{"ok", th.OK, "ok"},
		{"ok: response lost, the retry found this attempt's write on the item", th.OK, "ok"},
		{"unknown: Release session s: outcome unknown", th.Warn, "unknown"},
		{"guard failed: status is still RUNNING", th.Warn, "guard failed"},
		{"error: throttled", th.Error, "error"},
	} {
		e := action.AuditEntry{Time: fixedNow, Result: tc.result, Action: action.ReleaseSession, Env: "dev", Target: "s", Operator: "alice"}
		head := auditLines(e, 100, th)[0]
		if !strings.Contains(head, tc.style.Render(inert.Pad(tc.label, 12))) {
			t.Errorf("%q drawn as %q", tc.result, head)
		}
	}
}

package ui

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/ui/uitest"
)

// listWorld: four sessions of this test's project, one with a credential
// attribute, seen through the Sessions pane.
func listWorld(t *testing.T) (*actWorld, Model) {
	t.Helper()
	w := newActWorld(t)
	w.session("sess_a", "RUNNING", "READY", fixedNow.Add(-1*time.Hour))
	w.session("sess_b", "ERROR", "FAILED", fixedNow.Add(-2*time.Hour))
	w.session("sess_c", "RUNNING", "STARTING", fixedNow.Add(-3*time.Hour))
	secretive := w.session("sess_d", "COMPLETED", "STOPPED", fixedNow.Add(-4*time.Hour))
	secretive["signingKey"] = sv("sk_live_TOPSECRET")
	w.put(data.TableSessions, secretive)
	m := start(t, w.options(), 120, 40)
	if st := m.slotOf(m.Active()).Status(); st.Rows != 4 {
		t.Fatalf("sessions loaded %d rows, want 4 (err %q)", st.Rows, st.Err)
	}
	return w, m
}

// shownIDs are the session ids of the rows the filter shows, in order.
func shownIDs(t *testing.T, m Model) []string {
	t.Helper()
	set, err := m.slotOf(m.Active()).export.ExportRows()
	if err != nil {
		if strings.Contains(err.Error(), "no rows") {
			return nil
		}
		t.Fatal(err)
	}
	var out []string
	for _, r := range set.Records(0, set.Len()) {
		out = append(out, attr(r.Item, "sessionId"))
	}
	return out
}

func filterTo(t *testing.T, m Model, expr string) Model {
	t.Helper()
	m, _ = press(t, m, "/")
	m = typeText(t, m, expr)
	return m
}

func TestFilterGrammarInTheSessionsPane(t *testing.T) {
	_, m := listWorld(t)
	cases := []struct{ expr, want string }{
		{"status=running", "sess_a sess_c"},
		{"STATUS!=running", "sess_b sess_d"}, // a column by title
		{"!sess_a", "sess_b sess_c sess_d"},
		{"~^sess_[ab]$", "sess_a sess_b"},
		{"internalStatus=READY", "sess_a"},                   // an attribute that is no column
		{"internalStatus~^(ready|failed)$ !ERROR", "sess_a"}, // terms combine
		{"signingKey=sk_live_TOPSECRET", ""},                 // a secret cannot be probed
		{"running", "sess_a sess_c"},
	}
	for _, c := range cases {
		m = filterTo(t, m, c.expr)
		if m.filterErr != "" {
			t.Fatalf("/%s: error %q", c.expr, m.filterErr)
		}
		m, _ = press(t, m, "enter")
		if got := strings.Join(shownIDs(t, m), " "); got != c.want {
			t.Errorf("/%s shows [%s], want [%s]", c.expr, got, c.want)
		}
		if m.Mode() != "normal" {
			t.Fatalf("/%s: enter left mode %s", c.expr, m.Mode())
		}
		m, _ = press(t, m, "esc") // clears the filter
	}
}

func TestBadFilterIsShownAndChangesNothing(t *testing.T) {
	_, m := listWorld(t)
	m = filterTo(t, m, "status=running")
	m, _ = press(t, m, "enter")
	for _, bad := range []struct{ expr, want string }{
		{"~[a", "bad regular expression: missing closing ]"},
		{"stauts=RUNNING", "no such column or attribute here — did you mean status?"},
		{"status=", `status="" matches an empty`},
	} {
		// Pasted in one piece onto the good filter: every step of typing
		// it would be a filter of its own.
		m, _ = press(t, m, "/")
		nm, cmd := m.Update(tea.PasteMsg{Content: " " + bad.expr})
		m, _ = settle(t, nm.(Model), cmd)
		foot := stripANSI(footerLine(m))
		if !strings.Contains(foot, "✗") || !strings.Contains(foot, bad.want) {
			t.Errorf("/%s: footer %q, want the error %q", bad.expr, foot, bad.want)
		}
		if got := strings.Join(shownIDs(t, m), " "); got != "sess_a sess_c" {
			t.Errorf("/%s changed the rows to [%s]; the last good filter should hold", bad.expr, got)
		}
		m, _ = press(t, m, "enter")
		if m.Mode() != "filter" {
			t.Errorf("/%s: enter on a bad expression closed the prompt (mode %s)", bad.expr, m.Mode())
		}
		m, _ = press(t, m, "esc")
		if m.slotOf(m.Active()).filter.Filter() != "" || len(shownIDs(t, m)) != 4 {
			t.Fatalf("esc did not clear the filter")
		}
		m = filterTo(t, m, "status=running")
		m, _ = press(t, m, "enter")
	}
}

func TestSpaceMarksAndMovesDown(t *testing.T) {
	_, m := listWorld(t)
	m, _ = press(t, m, "g")
	p := m.slotOf(m.Active())
	first, _ := p.sel.Selected()
	m, _ = press(t, m, "space")
	second, _ := p.sel.Selected()
	if attr(second, "sessionId") == attr(first, "sessionId") {
		t.Fatal("space did not move the cursor down")
	}
	m, _ = press(t, m, "space")
	marked, _ := p.marks.Marked()
	if len(marked) != 2 || attr(marked[0], "sessionId") != attr(first, "sessionId") || attr(marked[1], "sessionId") != attr(second, "sessionId") {
		t.Fatalf("marked %d rows, want the first two", len(marked))
	}
}

func TestSortCommandAndColumnKeys(t *testing.T) {
	_, m := listWorld(t)
	natural := strings.Join(shownIDs(t, m), " ") // newest first: the index's order
	if natural != "sess_a sess_b sess_c sess_d" {
		t.Fatalf("natural order %s", natural)
	}
	title := func(m Model) string { return strings.Split(stripANSI(m.Render()), "\n")[1] }

	m, _ = runLine(t, m, "sort status desc")
	// RUNNING > ERROR > COMPLETED, descending; equal ones keep their order.
	if got := strings.Join(shownIDs(t, m), " "); got != "sess_a sess_c sess_b sess_d" {
		t.Errorf(":sort status desc gives %s", got)
	}
	if !strings.Contains(title(m), "sort STATUS ↓") {
		t.Errorf("title does not say the sort: %q", title(m))
	}
	m, _ = runLine(t, m, "sort")
	if got := strings.Join(shownIDs(t, m), " "); got != natural {
		t.Errorf(":sort alone gives %s, want the natural order %s", got, natural)
	}
	if strings.Contains(title(m), "sort ") {
		t.Errorf("title still names a sort: %q", title(m))
	}
	m, _ = runLine(t, m, "sort nosuch")
	if !strings.Contains(m.Flash(), `no column "nosuch"`) {
		t.Errorf(":sort nosuch: flash %q", m.Flash())
	}
	m, _ = runLine(t, m, "sort status sideways")
	if !strings.Contains(m.Flash(), "unknown word") || !strings.Contains(m.Flash(), "usage: :sort") {
		t.Errorf(":sort status sideways: flash %q", m.Flash())
	}

	// # then the column's number: SESSION is 1, STATUS 2.
	m, _ = press(t, m, "#")
	if foot := stripANSI(footerLine(m)); !strings.Contains(foot, "sort by: 1 SESSION 2 STATUS") || !strings.Contains(foot, "0 natural order") {
		t.Errorf("# does not list the columns: %q", foot)
	}
	m, _ = press(t, m, "1")
	if m.Active() != "sessions" {
		t.Fatalf("the digit after # switched panes to %s", m.Active())
	}
	if got := strings.Join(shownIDs(t, m), " "); got != "sess_a sess_b sess_c sess_d" || !strings.Contains(title(m), "sort SESSION ↑") {
		t.Errorf("#1: %s, title %q", got, title(m))
	}
	m, _ = press(t, m, "#", "1") // again: reversed
	if got := strings.Join(shownIDs(t, m), " "); got != "sess_d sess_c sess_b sess_a" || !strings.Contains(title(m), "sort SESSION ↓") {
		t.Errorf("#1 again: %s, title %q", got, title(m))
	}
	m, _ = press(t, m, "#", "0")
	if got := strings.Join(shownIDs(t, m), " "); got != natural {
		t.Errorf("#0: %s, want %s", got, natural)
	}
	m, _ = press(t, m, "#", "9")
	if !strings.Contains(m.Flash(), "no column 9") {
		t.Errorf("#9: flash %q", m.Flash())
	}
	// Completion offers the columns.
	m, _ = press(t, m, ":")
	m = typeText(t, m, "sort sta")
	m, _ = press(t, m, "tab")
	if got := m.input.Value(); got != "sort status" {
		t.Errorf("completion gave %q", got)
	}
}

func TestExportWritesTheFilteredRows(t *testing.T) {
	_, m := listWorld(t)
	dir := t.TempDir()
	m = filterTo(t, m, "status=running")
	m, _ = press(t, m, "enter")

	csvPath := filepath.Join(dir, "running.csv")
	m, _ = runLine(t, m, "export "+csvPath)
	if !strings.Contains(m.Flash(), "exported 2 rows to "+csvPath) || !strings.Contains(m.Flash(), "secrets masked") {
		t.Fatalf("flash %q", m.Flash())
	}
	if foot := stripANSI(footerLine(m)); !strings.Contains(foot, csvPath) {
		t.Errorf("the path is not shown whole: footer %q", foot)
	}
	fi, err := os.Stat(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	f, _ := os.Open(csvPath)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[0][0] != "SESSION" || recs[1][0] != "sess_a" || recs[2][0] != "sess_c" {
		t.Fatalf("csv %q", recs)
	}
	if recs[1][1] != "RUNNING" {
		t.Errorf("status cell %q", recs[1][1])
	}
	// Times are written as times, not "1h ago".
	joined := strings.Join(recs[1], ",")
	if strings.Contains(joined, "ago") || !strings.Contains(joined, fixedNow.Add(-time.Hour).UTC().Format(time.RFC3339)) {
		t.Errorf("created time not absolute: %q", recs[1])
	}

	// The same name again: refused, the file kept; overwrite replaces.
	before, _ := os.ReadFile(csvPath)
	m, _ = runLine(t, m, "export "+csvPath+" jsonl")
	if !strings.Contains(m.Flash(), "exists: not replaced") || !strings.Contains(m.Flash(), "overwrite") {
		t.Errorf("second export: flash %q", m.Flash())
	}
	if after, _ := os.ReadFile(csvPath); string(after) != string(before) {
		t.Error("the existing file was changed")
	}
	m, _ = runLine(t, m, "export "+csvPath+" jsonl overwrite")
	if !strings.Contains(m.Flash(), "exported 2 rows") {
		t.Fatalf("overwrite: flash %q", m.Flash())
	}
	lines, _ := os.ReadFile(csvPath)
	var first map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(string(lines), "\n", 2)[0]), &first); err != nil || first["sessionId"] != "sess_a" {
		t.Errorf("jsonl overwrite: %v %v", err, first)
	}
}

func TestExportMarkedRowsDDBRoundTrip(t *testing.T) {
	w, m := listWorld(t)
	dir := t.TempDir()
	// Mark sess_b and sess_d (the one with a credential) and reveal it.
	m = selectRow(t, m, "sess_b")
	m, _ = press(t, m, "space")
	m = selectRow(t, m, "sess_d")
	m, _ = press(t, m, "space")

	path := filepath.Join(dir, "marked.ddb")
	m, _ = runLine(t, m, "export "+path+" reveal")
	if !strings.Contains(m.Flash(), "exported 2 marked rows") || !strings.Contains(m.Flash(), "secrets INCLUDED") {
		t.Fatalf("flash %q", m.Flash())
	}
	f, _ := os.Open(path)
	got, err := export.ReadDDB(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("read back %d items", len(got))
	}
	for i, id := range []string{"sess_b", "sess_d"} {
		want := w.get(data.TableSessions, sessKey(id))
		if len(got[i]) != len(want) {
			t.Errorf("%s: %d attributes read back, %d stored", id, len(got[i]), len(want))
		}
		for k, v := range want {
			if !data.EqualValues(got[i][k], v) {
				t.Errorf("%s.%s: read back %#v, stored %#v", id, k, got[i][k], v)
			}
		}
	}

	// Without reveal the credential is masked.
	masked := filepath.Join(dir, "masked.jsonl")
	m, _ = runLine(t, m, "export "+masked)
	b, _ := os.ReadFile(masked)
	if strings.Contains(string(b), "TOPSECRET") || !strings.Contains(string(b), "••••••") {
		t.Errorf("masked export: %s", b)
	}
	m, _ = runLine(t, m, "export "+filepath.Join(dir, "x.csv")+" reveal")
	if !strings.Contains(m.Flash(), "reveal applies to jsonl and ddb") {
		t.Errorf("csv reveal: flash %q", m.Flash())
	}
}

// TestExportReportsProgressAndCancels drives the steps one at a time: a
// step's message carries the progress the status bar shows, and ctrl+c
// between steps leaves no file.
func TestExportReportsProgressAndCancels(t *testing.T) {
	_, m := listWorld(t)
	defer func(n int) { exportChunk = n }(exportChunk)
	exportChunk = 1
	dir := t.TempDir()

	step := func(m Model, cmd tea.Cmd) (Model, tea.Cmd, bool) {
		msgs, _ := uitest.Messages(cmd)
		for _, msg := range msgs {
			if s, ok := msg.(exportStepMsg); ok {
				nm, next := m.Update(s)
				return nm.(Model), next, true
			}
		}
		return m, nil, false
	}
	run := func(m Model, path string) (Model, tea.Cmd) {
		m, _ = press(t, m, ":")
		m = typeText(t, m, "export "+path)
		nm, cmd := m.Update(keyMsg("enter"))
		return nm.(Model), cmd
	}

	done := filepath.Join(dir, "all.jsonl")
	m, cmd := run(m, done)
	var seen []string
	for {
		var ok bool
		m, cmd, ok = step(m, cmd)
		if !ok {
			break
		}
		seen = append(seen, m.Flash())
	}
	if len(seen) != 4 || !strings.Contains(seen[0], "25%") || !strings.Contains(seen[2], "75%") || !strings.Contains(seen[3], "exported 4 rows") {
		t.Fatalf("progress messages %q", seen)
	}
	if _, err := os.Stat(done); err != nil {
		t.Fatal(err)
	}

	cancelled := filepath.Join(dir, "cancelled.jsonl")
	m, cmd = run(m, cancelled)
	m, cmd, _ = step(m, cmd)
	nm, _ := m.Update(keyMsg("ctrl+c"))
	m = nm.(Model)
	for {
		var ok bool
		m, cmd, ok = step(m, cmd)
		if !ok {
			break
		}
	}
	if !strings.Contains(m.Flash(), "export cancelled: no file written") {
		t.Errorf("after ctrl+c: flash %q", m.Flash())
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "all.jsonl" {
			t.Errorf("left in the directory: %s", e.Name())
		}
	}
}

package streamview

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
)

func TestAppendShowsNewestAtBottomAndFollows(t *testing.T) {
	m := newModel(0)
	for i := 0; i < 100; i++ {
		m.Append([]stream.Record{insert(fmt.Sprintf("s-%03d", i), "RUNNING", i)})
	}
	got := rows(t, m)
	if len(got) != 38 { // 40 lines - info - header
		t.Fatalf("%d rows drawn, want 38", len(got))
	}
	last := got[len(got)-1]
	if !strings.Contains(last, "s-099") || !strings.HasPrefix(last, "›") {
		t.Fatalf("last row %q: want the newest record, selected", last)
	}
	if !strings.Contains(got[0], "s-062") {
		t.Fatalf("first row %q, want s-062 (window on the newest 38)", got[0])
	}
	// ARRIVED: the 100th Append on the test clock (a second each from 12:01:30).
	for _, col := range []string{"sessions", "INSERT", "12:03:10", "status=RUNNING projectId=proj-1"} {
		if !strings.Contains(last, col) {
			t.Errorf("last row %q lacks %q", last, col)
		}
	}
	if r, _ := m.Selected(); keyText(r) != "s-099" {
		t.Fatalf("selected %q, want s-099", keyText(r))
	}
}

func TestCursorUpStopsFollowingAndStaysOnItsRecord(t *testing.T) {
	m := newModel(0)
	for i := 0; i < 10; i++ {
		m.Append([]stream.Record{insert(fmt.Sprintf("s-%d", i), "RUNNING", i)})
	}
	press(m, "k", "k")
	if r, _ := m.Selected(); keyText(r) != "s-7" {
		t.Fatalf("after k k selected %s, want s-7", keyText(r))
	}
	m.Append([]stream.Record{insert("s-10", "RUNNING", 10), insert("s-11", "RUNNING", 11)})
	if r, _ := m.Selected(); keyText(r) != "s-7" {
		t.Fatalf("new records moved the cursor to %s", keyText(r))
	}
	if !strings.Contains(infoLine(m), "4 newer below") {
		t.Fatalf("info %q should count the newer records below", infoLine(m))
	}
	press(m, "G")
	m.Append([]stream.Record{insert("s-12", "RUNNING", 12)})
	if r, _ := m.Selected(); keyText(r) != "s-12" {
		t.Fatalf("after G the cursor should follow, got %s", keyText(r))
	}
	press(m, "g")
	if r, _ := m.Selected(); keyText(r) != "s-0" {
		t.Fatalf("g selected %s, want s-0", keyText(r))
	}
	// Walking down to the last row turns following back on.
	for i := 0; i < 12; i++ {
		press(m, "j")
	}
	m.Append([]stream.Record{insert("s-13", "RUNNING", 13)})
	if r, _ := m.Selected(); keyText(r) != "s-13" {
		t.Fatalf("j to the bottom should follow again, got %s", keyText(r))
	}
}

func TestFilterNarrowsAndEscClears(t *testing.T) {
	m := newModel(0)
	m.Append([]stream.Record{
		insert("alpha", "RUNNING", 1),
		insert("beta", "FAILED", 2),
		insert("gamma", "RUNNING", 3),
	})
	press(m, "/")
	if !m.Capturing() {
		t.Fatal("/ should open the filter prompt")
	}
	typeText(m, "Failed") // case-insensitive, over the summary column
	got := rows(t, m)
	if len(got) != 1 || !strings.Contains(got[0], "beta") {
		t.Fatalf("filter rows %q, want only beta", got)
	}
	if !strings.Contains(m.View(), "/Failed") {
		t.Fatal("the prompt should show what was typed")
	}
	// j and G while typing are text, not navigation.
	press(m, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	typeText(m, "zjG")
	if len(rows(t, m)) != 0 || m.Filter() != "zjG" || !strings.Contains(m.View(), "no record matches") {
		t.Fatalf("typing zjG should filter (got filter %q)", m.Filter())
	}
	press(m, "backspace", "backspace")
	press(m, "backspace")
	typeText(m, "gam")
	press(m, "enter")
	if m.Capturing() || len(rows(t, m)) != 1 || !strings.Contains(infoLine(m), `filter "gam": 1 match`) {
		t.Fatalf("after enter: capturing %v, rows %q, info %q", m.Capturing(), rows(t, m), infoLine(m))
	}
	// New records are filtered as they arrive.
	m.Append([]stream.Record{insert("gamma-2", "RUNNING", 4), insert("delta", "RUNNING", 5)})
	if got := rows(t, m); len(got) != 2 {
		t.Fatalf("rows %q, want gamma and gamma-2", got)
	}
	press(m, "esc")
	if m.Filter() != "" || len(rows(t, m)) != 5 {
		t.Fatalf("esc should clear the filter: %q, %d rows", m.Filter(), len(rows(t, m)))
	}
	if m.Back() {
		t.Fatal("Back with nothing to undo should report false")
	}
	// Filtering by table name and by event works over visible columns.
	m.SetFilter("insert")
	if len(rows(t, m)) != 5 {
		t.Fatal("filter over the event column")
	}
}

func TestPauseCountsNewAndResumeShowsThem(t *testing.T) {
	m := newModel(0)
	m.Append([]stream.Record{insert("before", "RUNNING", 0)})
	press(m, "space")
	if !m.Paused() {
		t.Fatal("space should pause")
	}
	for i := 0; i < 37; i++ {
		m.Append([]stream.Record{insert(fmt.Sprintf("during-%d", i), "RUNNING", i)})
	}
	if got := rows(t, m); len(got) != 1 || !strings.Contains(got[0], "before") {
		t.Fatalf("paused view changed: %q", got)
	}
	if !strings.Contains(infoLine(m), "paused · 37 new") {
		t.Fatalf("info %q, want paused · 37 new", infoLine(m))
	}
	if !strings.Contains(m.Title(), "paused") {
		t.Fatalf("title %q should say paused", m.Title())
	}
	// A filter while paused counts only what it would show.
	m.SetFilter("during-3")
	if n := m.NewWhilePaused(); n != 8 { // during-3, during-30..36
		t.Fatalf("new while paused under filter = %d, want 8", n)
	}
	m.SetFilter("")
	press(m, "space")
	got := rows(t, m)
	if m.Paused() || len(got) != 38 || !strings.Contains(got[len(got)-1], "during-36") {
		t.Fatalf("after resume: paused %v, %d rows, last %q", m.Paused(), len(got), got[len(got)-1])
	}
}

func TestBufferBoundDropsOldestAndCounts(t *testing.T) {
	m := newModel(100)
	for i := 0; i < 250; i++ {
		m.Append([]stream.Record{insert(fmt.Sprintf("s-%d", i), "RUNNING", i)})
	}
	if m.Len() != 100 || m.Dropped() != 150 {
		t.Fatalf("len %d dropped %d, want 100 and 150", m.Len(), m.Dropped())
	}
	m.NoteDropped(5)
	if !strings.Contains(infoLine(m), "100 records · 155 dropped") {
		t.Fatalf("info %q should show 100 records · 155 dropped", infoLine(m))
	}
	press(m, "g")
	if r, _ := m.Selected(); keyText(r) != "s-150" {
		t.Fatalf("oldest kept is %s, want s-150", keyText(r))
	}
	// The cursor on a record that gets dropped moves to the next kept one.
	m.Append([]stream.Record{insert("x-1", "RUNNING", 1), insert("x-2", "RUNNING", 2)})
	if r, _ := m.Selected(); keyText(r) != "s-152" {
		t.Fatalf("cursor after its record dropped: %s, want s-152", keyText(r))
	}
}

func TestSetTableNarrows(t *testing.T) {
	m := newModel(0)
	ev := stream.Record{Table: data.TableEvents, EventName: "INSERT", Keys: img("user_id", "u1", "timestamp#event_id", "t#e1"),
		New: img("user_id", "u1", "timestamp#event_id", "t#e1", "event_type", "order.created", "status", "pending"), ApproxTime: t0}
	m.Append([]stream.Record{insert("s-1", "RUNNING", 1), ev})
	m.SetTable(data.TableEvents)
	got := rows(t, m)
	if len(got) != 1 || !strings.Contains(got[0], "u1 · t#e1") || strings.Contains(got[0], "events ") {
		t.Fatalf("narrowed rows %q: want the event only, without a table column", got)
	}
	if m.Title() != "Stream · events" {
		t.Fatalf("title %q", m.Title())
	}
	m.SetTable("")
	if len(rows(t, m)) != 2 {
		t.Fatal("SetTable(\"\") should show every table")
	}
}

func TestTTLDeleteShownAsExpired(t *testing.T) {
	m := newModel(0)
	r := session("REMOVE", "s-old", img("sessionId", "s-old", "status", "RUNNING", "expiresAt", avN("1700000000")), nil, 5)
	r.TTL = true
	m.Append([]stream.Record{r, session("REMOVE", "s-del", img("sessionId", "s-del", "status", "STOPPED"), nil, 6)})
	got := rows(t, m)
	if !strings.Contains(got[0], "expired (TTL)") || !strings.Contains(got[0], "was status=RUNNING") {
		t.Fatalf("TTL row %q", got[0])
	}
	if strings.Contains(got[1], "expired") || !strings.Contains(got[1], "REMOVE") {
		t.Fatalf("plain delete row %q", got[1])
	}
}

func TestModifySummaryListsChanges(t *testing.T) {
	old := img("sessionId", "s-1", "status", "RUNNING", "updatedAt", "2026-11-21T12:00:00Z", "publicIP", "10.0.0.1")
	new := img("sessionId", "s-1", "status", "COMPLETED", "updatedAt", "2026-11-21T12:05:00Z", "keepAlive", "yes")
	got := summaryText(session("MODIFY", "s-1", old, new, 0), nil, testSummary(data.TableSessions))
	want := "status: RUNNING → COMPLETED, +keepAlive=yes, -publicIP, updatedAt: 2026-11-21T12:00:00Z → 2026-11-21T12:05:00Z"
	if got != want {
		t.Fatalf("summary\n got %q\nwant %q", got, want)
	}
	// NEW_IMAGE streams have no old image to compare with.
	ev := stream.Record{Table: data.TableEvents, EventName: "MODIFY", New: img("status", "delivered", "event_type", "a.b")}
	if got := summaryText(ev, nil, testSummary(data.TableEvents)); got != "now event_type=a.b status=delivered" {
		t.Fatalf("new-image-only summary %q", got)
	}
	// Same text, different type is still a change, and says so.
	tc := summaryText(session("MODIFY", "s", img("n", avN("1")), img("n", "1"), 0), nil, testSummary(data.TableSessions))
	if tc != "n: 1 (N) → 1 (S)" {
		t.Fatalf("type change summary %q", tc)
	}
	if s := summaryText(session("MODIFY", "s", img("a", "x"), img("a", "x"), 0), nil, testSummary(data.TableSessions)); s != "no attribute changed" {
		t.Fatalf("identical images summary %q", s)
	}
}

func TestChangedAttrs(t *testing.T) {
	tests := []struct {
		name     string
		old, new data.Item
		want     string
	}{
		{"insert: everything is new", nil, img("a", "1", "b", "2"), "[a b]"},
		{"remove: everything went", img("a", "1"), nil, "[a]"},
		{"same", img("a", "1", "m", avM("x", "1")), img("a", "1", "m", avM("x", "1")), "[]"},
		{"nested map value", img("m", avM("x", "1", "y", avM("z", "deep"))), img("m", avM("x", "1", "y", avM("z", "deeper"))), "[m]"},
		{"list order matters", img("l", avL(avS("a"), avS("b"))), img("l", avL(avS("b"), avS("a"))), "[l]"},
		{"string set order does not", img("s", ssv("a", "b")), img("s", ssv("b", "a")), "[]"},
		{"string set member", img("s", ssv("a", "b")), img("s", ssv("a", "c")), "[s]"},
		{"type change S→N", img("n", "1"), img("n", avN("1")), "[n]"},
		{"added and removed", img("a", "1"), img("b", "1"), "[a b]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(ChangedAttrs(tc.old, tc.new)); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestDiffViewMarksDifferences(t *testing.T) {
	m := newModel(0)
	old := img("sessionId", "s-1", "status", "RUNNING", "publicIP", "10.0.0.1", "region", "us-east-1",
		"userMetadata", avM("team", "red", "tags", avL(avS("a"), avS("b"))))
	new := img("sessionId", "s-1", "status", "COMPLETED", "keepAlive", "yes", "region", "us-east-1",
		"userMetadata", avM("team", "blue", "tags", avL(avS("a"), avS("b"), avS("c"))))
	m.Append([]stream.Record{session("MODIFY", "s-1", old, new, 0)})
	press(m, "enter")
	if !m.InDiff() {
		t.Fatal("enter should open the comparison")
	}
	v := m.View()
	lines := strings.Split(v, "\n")
	if !strings.Contains(lines[1], "2 changed · 1 added · 1 removed") {
		t.Fatalf("summary line %q", lines[1])
	}
	byName := map[string]string{}
	for _, l := range lines[3:] {
		f := strings.Fields(strings.ReplaceAll(l, "│", " "))
		if len(f) > 0 && len(l) > 2 {
			name := strings.TrimSpace(strings.SplitN(l[2:], "│", 2)[0])
			byName[name] = l
		}
	}
	wantMark := map[string]byte{
		"sessionId": ' ', "status": '~', "publicIP": '-', "keepAlive": '+', "region": ' ',
		"userMetadata": '~', "team": '~', "tags": '~', "[0]": ' ', "[2]": '+',
	}
	for name, mark := range wantMark {
		l, ok := byName[name]
		if !ok {
			t.Errorf("no line for %s in\n%s", name, v)
			continue
		}
		if l[0] != mark {
			t.Errorf("%s marked %q, want %q: %q", name, l[0], mark, l)
		}
	}
	if l := byName["status"]; !strings.Contains(l, "RUNNING") || !strings.Contains(l, "COMPLETED") ||
		strings.Index(l, "RUNNING") > strings.Index(l, "COMPLETED") {
		t.Errorf("status line should show old then new: %q", l)
	}
	// Nested entries are indented under their container.
	if l := byName["team"]; !strings.Contains(l, "   team") {
		t.Errorf("nested line not indented: %q", l)
	}
	press(m, "esc")
	if m.InDiff() || len(rows(t, m)) != 1 {
		t.Fatal("esc should return to the list")
	}
}

func TestDiffViewScrollsAndWrapsLongValues(t *testing.T) {
	m := newModel(0)
	m.SetSize(80, 24)
	old := img("sessionId", "s-1")
	new := img("sessionId", "s-1")
	for i := 0; i < 60; i++ {
		new[fmt.Sprintf("attr%02d", i)] = avS(strings.Repeat("v", 10))
	}
	new["long"] = avS(strings.Repeat("0123456789", 30))
	m.Append([]stream.Record{session("MODIFY", "s-1", old, new, 0)})
	press(m, "enter")
	first := strings.Split(m.View(), "\n")[3]
	press(m, "pgdown")
	if strings.Split(m.View(), "\n")[3] == first {
		t.Fatal("pgdown did not scroll")
	}
	press(m, "G")
	v := m.View()
	if !strings.Contains(v, "long") {
		t.Fatalf("G should reach the last attribute:\n%s", v)
	}
	// The 300-character value is wrapped over several lines, none cut off.
	if n := strings.Count(v, "0123456789"); n < 5 {
		t.Fatalf("long value shows %d chunks, want it wrapped over lines", n)
	}
	for _, l := range strings.Split(v, "\n") {
		if w := utf8.RuneCountInString(l); w != 80 {
			t.Fatalf("line width %d, want 80: %q", w, l)
		}
	}
	press(m, "g")
	if strings.Split(m.View(), "\n")[3] != first {
		t.Fatal("g should scroll back to the top")
	}
}

func TestDiffWithoutOldImage(t *testing.T) {
	m := newModel(0)
	ev := stream.Record{Table: data.TableEvents, EventName: "MODIFY", Keys: img("user_id", "u"),
		New: img("user_id", "u", "status", "delivered"), ApproxTime: t0}
	m.Append([]stream.Record{ev})
	press(m, "enter")
	v := m.View()
	if !strings.Contains(v, "no old image") {
		t.Fatalf("comparison should explain the missing old image:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n")[3:] {
		if l != "" && l[0] == '+' {
			t.Fatalf("with no old image nothing may be marked added: %q", l)
		}
	}
}

func ssv(vs ...string) any { return &types.AttributeValueMemberSS{Value: vs} }

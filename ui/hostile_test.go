package ui

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/uitest"
	"opsdeck/views"
	"opsdeck/views/inert"
	"opsdeck/views/terminal"
)

// sgr is the only escape sequence the console itself emits: colours and
// emphasis. Anything else in a frame came from data and was not made inert.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// assertInert fails if a styled frame could do anything to a terminal but
// print: control bytes, escape sequences other than SGR, C1 controls, bidi
// and other format characters, invalid UTF-8.
func assertInert(t *testing.T, where, frame string) {
	t.Helper()
	if !utf8.ValidString(frame) {
		t.Fatalf("%s: frame is not valid UTF-8", where)
	}
	plain := sgr.ReplaceAllString(frame, "")
	for i, r := range plain {
		bad := r < 0x20 && r != '\n' || r == 0x7f ||
			r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
			r == 0x200e || r == 0x200f || r == 0x061c || r == 0xfeff || r == 0x200b
		if bad {
			lo := max(i-30, 0)
			hi := min(i+30, len(plain))
			t.Fatalf("%s: live control %U at byte %d: %q", where, r, i, plain[lo:hi])
		}
	}
}

// secretsOf collects the secret parts of a session item: the signing key,
// the query values of connectUrl and the password of seleniumRemoteUrl.
func secretsOf(it data.Item) []string {
	var out []string
	if s := attr(it, "signingKey"); len(s) >= 8 {
		out = append(out, s)
	}
	for _, name := range []string{"connectUrl", "seleniumRemoteUrl"} {
		raw := attr(it, name)
		u, err := url.Parse(raw)
		if err != nil {
			if len(raw) >= 8 {
				out = append(out, raw)
			}
			continue
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				if len(v) >= 8 {
					out = append(out, v)
				}
			}
		}
		if u.User != nil {
			if p, ok := u.User.Password(); ok && len(p) >= 4 {
				out = append(out, ":"+p+"@")
			}
		}
	}
	return out
}

// walk is what a hostile sweep saw: every frame, every text `c` copied,
// and the raw items of the rows it visited (to replay as stream records).
type walk struct {
	frames []string
	copies []string
	items  []data.Item
}

// sweep renders every row of the shown pane, in the list and in its detail
// view, checking each frame, and copies each row with c from the list and
// from the detail view.
func sweep(t *testing.T, m Model, w world, label string, width, height int) (Model, []string) {
	t.Helper()
	m, seen := walkPane(t, m, w, label, width, height)
	return m, append(seen.frames, seen.copies...)
}

func walkPane(t *testing.T, m Model, w world, label string, width, height int) (Model, walk) {
	t.Helper()
	var seen walk
	check := func(where string) {
		raw := m.Render()
		assertInert(t, where, raw)
		out := screen(m, w.prefix)
		checkFrame(t, out, width, height)
		seen.frames = append(seen.frames, out)
	}
	copyRow := func(where string) {
		var text string
		m, text = pressCopy(t, m)
		if text == "" {
			t.Fatalf("%s: c copied nothing (flash %q)", where, m.Flash())
		}
		if !strings.Contains(m.Flash(), "copied") || strings.Contains(m.Flash(), "failed") {
			t.Fatalf("%s: flash after c: %q", where, m.Flash())
		}
		seen.copies = append(seen.copies, text)
	}
	p := m.slotOf(m.Active())
	m, _ = press(t, m, "g")
	check(label + " list")
	for i := 0; i < p.Status().Visible; i++ {
		if it, ok := p.sel.Selected(); ok {
			seen.items = append(seen.items, it)
		}
		copyRow(fmt.Sprintf("%s list row %d", label, i))
		m, _ = press(t, m, "enter")
		check(fmt.Sprintf("%s detail of row %d", label, i))
		copyRow(fmt.Sprintf("%s detail of row %d", label, i))
		m, _ = press(t, m, "G") // the end of the detail view too
		check(fmt.Sprintf("%s detail end of row %d", label, i))
		m, _ = press(t, m, "esc", "j")
		check(fmt.Sprintf("%s list at row %d", label, i+1))
	}
	return m, seen
}

// pressCopy presses c and returns what went to the clipboard.
func pressCopy(t *testing.T, m Model) (Model, string) {
	t.Helper()
	nm, cmd := m.Update(keyMsg("c"))
	m, res := uitest.Settle(t, nm.(Model), cmd)
	var copied string
	for _, msg := range res.Msgs {
		if tm, ok := msg.(terminal.Msg); ok {
			copied, _ = tm.Clipboard()
		}
	}
	return m, copied
}

// squeeze drops whitespace and the table and diff borders, so a value
// wrapped over several lines (or columns) is found as one string.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '│' {
			return -1
		}
		return r
	}, s)
}

// secretForms are the ways a planted secret could show: as text, as the
// base64 of a binary value, as the hex preview of its first bytes.
func secretForms(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		out = append(out, s)
		if len(s) >= 16 {
			out = append(out, base64.StdEncoding.EncodeToString([]byte(s))[:16])
			out = append(out, squeeze(inert.HexPreview([]byte(s), 8)))
		}
	}
	return out
}

// noSecrets fails if any form of any secret is in text.
func noSecrets(t *testing.T, where, text string, forms []string) {
	t.Helper()
	sq := squeeze(text)
	for _, f := range forms {
		if strings.Contains(sq, squeeze(f)) {
			t.Fatalf("%s shows the secret %q:\n%s", where, f, text)
		}
	}
}

func TestHostileDataIsShownInertAndSecretsMasked(t *testing.T) {
	w := seeded(t)
	h := w.rep.Hostile
	if len(w.rep.HostileSecrets) < 10 {
		t.Fatalf("the demo plants %d hostile secrets", len(w.rep.HostileSecrets))
	}
	cmds := []string{
		"sessions " + h.Project,
		"runs " + h.GraphUser,
		"inbox " + h.EventUser,
		"delegations " + h.Audience,
		"subscriptions " + h.Customer,
		"sandboxes track=" + h.Track,
		// The hostile consumer cannot be typed (a bidi override and a
		// clear-screen sequence): it is pasted, as an operator would.
		"consumers " + pasted(h.Consumer),
		"sessions " + w.rep.Defaults.SessionsProject,
		// Hostile text typed by the operator is data too.
		"runs \x1b[2J\x1b]52;c;ZXZpbA==\x07\u202eevil",
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m := start(t, w.options(), size[0], size[1])
		var all walk
		secrets := append([]string(nil), w.rep.HostileSecrets...)
		for _, c := range cmds {
			m, _ = commandWithPaste(t, m, c)
			if st := m.slotOf(m.Active()).Status(); st.Err != "" || st.Rows == 0 && strings.Contains(c, pasteMark) {
				t.Fatalf("%q: %d rows, error %q", c, st.Rows, st.Err)
			}
			if m.Active() == views.PaneSessions {
				secrets = append(secrets, sessionSecrets(t, m)...)
			}
			var seen walk
			m, seen = walkPane(t, m, w, fmt.Sprintf("%dx%d %q", size[0], size[1], c), size[0], size[1])
			all.frames = append(all.frames, seen.frames...)
			all.copies = append(all.copies, seen.copies...)
			all.items = append(all.items, seen.items...)
		}
		// The same rows as stream records: the Stream pane's summaries and
		// the comparison of each (old and new image).
		m, streamed := walkStream(t, m, w, all.items, size[0], size[1])
		all.frames = append(all.frames, streamed.frames...)
		all.copies = append(all.copies, streamed.copies...)

		forms := secretForms(secrets)
		for _, f := range all.frames {
			noSecrets(t, "a frame", f, forms)
		}
		for _, c := range all.copies {
			noSecrets(t, "a copy (c)", c, forms)
		}
		checkHostileClassesShown(t, all)
	}
}

// pasteMark brackets the part of a command line that commandWithPaste
// sends as a bracketed paste rather than as key presses.
const pasteMark = "\x00paste\x00"

func pasted(s string) string { return pasteMark + s + pasteMark }

// commandWithPaste runs ":line" + enter, typing the line except the parts
// marked with pasted(), which arrive as one paste.
func commandWithPaste(t *testing.T, m Model, line string) (Model, bool) {
	t.Helper()
	m, _ = press(t, m, ":")
	for i, part := range strings.Split(line, pasteMark) {
		if i%2 == 0 {
			m = typeText(t, m, part)
			continue
		}
		nm, cmd := m.Update(tea.PasteMsg{Content: part})
		m, _ = settle(t, nm.(Model), cmd)
	}
	return press(t, m, "enter")
}

// walkStream replays items as MODIFY records (each with a changed status
// and a signing key turned into a list, so the comparison has changes to
// mark) and walks the Stream pane: every record's row and its comparison,
// top and end, and what c copies from each.
func walkStream(t *testing.T, m Model, w world, items []data.Item, width, height int) (Model, walk) {
	t.Helper()
	var recs []stream.Record
	for i, it := range items {
		table := tableOfItem(it)
		if table == "" {
			continue
		}
		nw := maps.Clone(it)
		nw["status"] = s("CHANGED")
		nw["signingKey"] = &types.AttributeValueMemberL{Value: []types.AttributeValue{s(w.rep.HostileSecrets[0])}}
		recs = append(recs, stream.Record{Table: table, TableName: w.tables.Name(table), EventName: "MODIFY",
			Keys: data.KeyOf(table, it), Old: it, New: nw, ApproxTime: fixedNow.Add(time.Duration(i) * time.Second)})
	}
	nm, cmd := m.Update(livefeed.BatchMsg{Records: recs})
	m, _ = settle(t, nm.(Model), cmd)
	m, _ = press(t, m, "6", "g")
	var seen walk
	check := func(where string) {
		assertInert(t, where, m.Render())
		out := screen(m, w.prefix)
		checkFrame(t, out, width, height)
		seen.frames = append(seen.frames, out)
	}
	copyRecord := func(where string) {
		var text string
		m, text = pressCopy(t, m)
		if text == "" || !strings.Contains(m.Flash(), "of JSON copied (secrets masked;") {
			t.Fatalf("%s: c copied %d bytes (flash %q)", where, len(text), m.Flash())
		}
		seen.copies = append(seen.copies, text)
	}
	check("stream list")
	if n := m.slotOf(views.PaneStream).Status().Rows; n != len(recs) {
		t.Fatalf("the Stream pane holds %d records, want %d", n, len(recs))
	}
	for i := range recs {
		copyRecord(fmt.Sprintf("stream record %d", i))
		m, _ = press(t, m, "enter")
		check(fmt.Sprintf("stream comparison %d", i))
		copyRecord(fmt.Sprintf("stream comparison %d", i))
		m, _ = press(t, m, "G")
		check(fmt.Sprintf("stream comparison end %d", i))
		m, _ = press(t, m, "esc", "j")
		check(fmt.Sprintf("stream list at %d", i+1))
	}
	return m, seen
}

// tableOfItem tells which table an item was read from, by its key
// attributes.
func tableOfItem(it data.Item) data.TableID {
	for _, id := range []data.TableID{data.TableSessions, data.TableGraphRuns, data.TableEvents, data.TableDelegations,
		data.TableSubscriptions, data.TableConsumers, data.TableSandboxes} {
		sc, _ := data.Schema(id)
		if _, ok := it[sc.PK.Name]; !ok {
			continue
		}
		if sc.SK != nil {
			if _, ok := it[sc.SK.Name]; !ok {
				continue
			}
		}
		return id
	}
	return ""
}

// checkHostileClassesShown: the walk reached the rows of every class the
// demo plants (so the test above is not vacuous): each is on some frame,
// drawn inert.
func checkHostileClassesShown(t *testing.T, seen walk) {
	t.Helper()
	var all strings.Builder
	for _, f := range seen.frames {
		all.WriteString(squeeze(f))
	}
	text := all.String()
	for _, want := range []string{
		"sess_hostile_key_list", "sess_hostile_key_map", "sess_hostile_key_set", "sess_hostile_key_bin",
		`sess_\u200bhostile\u2066inv\u2028is\u00adible\u009b`, "sess_hostile_numbers", "123456789012345678901234567890",
		"sess_hostile_millis", "sess_hostile_offsets", "sess_hostile_huge", "0ffset", "futur3",
		"18446744073709551616", "99999999999999999999999999", `sbx_\u200b`, "signingKey=••••••",
		// Credentials in the columns of lists, masked in place.
		"cdp?token=••••••", "opsdeck:••••••@hooks.hostile.example", "login?token=••••••", "Bearer••••••",
		"ucan?sig=••••••", "c?access_token=••••••", `did:key:z6Mk\u202e\x1b[2J\x1b[Hspace`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no frame of the walk shows %q", want)
		}
	}
}

// sessionSecrets walks the Sessions rows and collects their secrets.
func sessionSecrets(t *testing.T, m Model) []string {
	t.Helper()
	p := m.slotOf(views.PaneSessions)
	var out []string
	m, _ = press(t, m, "g")
	for i := 0; i < p.Status().Visible; i++ {
		it, _ := p.sel.Selected()
		out = append(out, secretsOf(it)...)
		m, _ = press(t, m, "j")
	}
	m, _ = press(t, m, "g")
	return out
}

// TestRevealShowsOneItemOnly: s reveals the selected item's secrets in its
// detail view; the next item opens masked again.
func TestRevealShowsOneItemOnly(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 120, 40)
	p := m.slotOf(views.PaneSessions)
	var first, second data.Item
	st := data.NewStore(w.conn, w.tables)
	for i := 0; i < p.Status().Rows && second == nil; i++ {
		// The list holds only its columns' attributes: read the whole item.
		sel, _ := p.sel.Selected()
		it, _, err := st.GetItem(context.Background(), data.TableSessions, data.KeyOf(data.TableSessions, sel))
		if err != nil {
			t.Fatal(err)
		}
		if attr(it, "signingKey") != "" {
			if first == nil {
				first = it
			} else {
				second = it
				break
			}
		}
		m, _ = press(t, m, "j")
	}
	if second == nil {
		t.Fatal("need two sessions with a signing key")
	}
	key := attr(second, "signingKey")
	m, _ = press(t, m, "enter")
	if strings.Contains(strings.ReplaceAll(screen(m, w.prefix), "\n", ""), key[:20]) {
		t.Fatal("signing key shown before reveal")
	}
	m, _ = press(t, m, "s")
	if !strings.Contains(screen(m, w.prefix), key[:20]) {
		t.Fatalf("s did not reveal the selected item's signing key:\n%s", screen(m, w.prefix))
	}
	m, _ = press(t, m, "esc", "k", "enter")
	if strings.Contains(screen(m, w.prefix), attr(first, "signingKey")[:20]) {
		t.Fatal("another item opened with its secrets revealed")
	}
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func n(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }

// TestMessyStreamRowsNeverPanic feeds items no schema allows through the
// live-tail hook into every pane, then renders and opens them.
func TestMessyStreamRowsNeverPanic(t *testing.T) {
	w := seeded(t)
	m := start(t, w.options(), 80, 24)
	proj := w.rep.Defaults.SessionsProject
	hostile := "\x1b[2J\x1b[H\x1b]52;c;c2VjcmV0\x07\u202egnp.exe\xff\xfe"
	secret := "SECRETSIGNINGKEY0123456789"
	items := []data.Item{
		// Wrong types everywhere, but in scope (projectId and createdAt are S).
		{"sessionId": s("sess_messy_" + hostile), "projectId": s(proj), "createdAt": s("not a time " + hostile),
			"status": &types.AttributeValueMemberBOOL{Value: true}, "expiresAt": s("soon"),
			"keepAlive": s("yes"), "eventHistory": s(hostile), "userMetadata": &types.AttributeValueMemberL{},
			"retryCount": n("NaN"), "signingKey": s(secret), "connectUrl": s("wss://x/?token=" + secret)},
		// Missing nearly everything.
		{"sessionId": s("sess_bare"), "projectId": s(proj), "createdAt": s("2026-11-21T11:00:00Z")},
		// Null and empty containers, a huge value.
		{"sessionId": s("sess_nulls"), "projectId": s(proj), "createdAt": s("2026-11-21T11:00:00Z"),
			"status": &types.AttributeValueMemberNULL{Value: true}, "userMetadata": &types.AttributeValueMemberM{},
			"region": s(strings.Repeat("\u202e\x1b[31m", 20000))},
		// A base key of the wrong type (DynamoDB would refuse it, a stream
		// adapter bug might not): still a row, addressed by its typed key.
		{"sessionId": n("42"), "projectId": s(proj), "createdAt": s("2026-11-21T11:00:00Z")},
	}
	var changes []views.Change
	for _, it := range items {
		changes = append(changes, views.Change{Table: data.TableSessions, Event: "INSERT", Keys: data.KeyOf(data.TableSessions, it), New: it})
	}
	// A REMOVE with no images at all, and records for tables no pane shows.
	changes = append(changes,
		views.Change{Table: data.TableSessions, Event: "REMOVE"},
		views.Change{Table: data.TableEvents, Event: "MODIFY", New: data.Item{"user_id": &types.AttributeValueMemberBOOL{}}},
		views.Change{Table: "no-such-table", Event: "INSERT", New: items[0]},
	)
	before := m.slotOf(views.PaneSessions).Status().Rows
	nm, cmd := m.Update(changesMsg(changes))
	m, _ = settle(t, nm.(Model), cmd)
	if got := m.slotOf(views.PaneSessions).Status().Rows; got != before+4 {
		t.Fatalf("rows %d, want %d (four messy rows in scope)", got, before+4)
	}
	m, frames := sweep(t, m, w, "messy", 80, 24)
	for _, f := range frames {
		if strings.Contains(f, secret) {
			t.Fatalf("secret shown:\n%s", f)
		}
	}
	// The messy rows can be copied and marked too.
	m, _ = press(t, m, "g", "space", "c")
	if items, _ := m.slotOf(views.PaneSessions).marks.Marked(); len(items) != 1 {
		t.Fatalf("marked %d", len(items))
	}
}

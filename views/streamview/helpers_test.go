package streamview

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// t0 is the fixed time of every test record, so views are deterministic.
var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func avS(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
func avN(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
func avM(kv ...any) types.AttributeValue {
	return &types.AttributeValueMemberM{Value: img(kv...)}
}
func avL(vs ...types.AttributeValue) types.AttributeValue {
	return &types.AttributeValueMemberL{Value: vs}
}

func img(kv ...any) data.Item {
	it := data.Item{}
	for i := 0; i+1 < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case string:
			it[kv[i].(string)] = avS(v)
		case types.AttributeValue:
			it[kv[i].(string)] = v
		}
	}
	return it
}

// session builds a sessions record with both images (the seed's view type).
func session(event, id string, old, new data.Item, sec int) stream.Record {
	r := stream.Record{
		Table: data.TableSessions, TableName: "wallcrawler-sessions", EventName: event,
		Keys: img("sessionId", id), Old: old, New: new,
		ApproxTime: t0.Add(time.Duration(sec) * time.Second),
	}
	return r
}

func insert(id, status string, sec int) stream.Record {
	return session("INSERT", id, nil, img("sessionId", id, "status", status, "projectId", "proj-1"), sec)
}

// testSummary is each table's identifying attributes as the console's
// presenters give them (views.Summary, which this package cannot import).
func testSummary(t data.TableID) []string {
	return map[data.TableID][]string{
		data.TableSessions:      {"status", "projectId", "region", "expiresAt"},
		data.TableGraphRuns:     {"runId", "status", "environment"},
		data.TableEvents:        {"event_type", "status", "retry_count"},
		data.TableDelegations:   {"audience", "issuer", "expiration"},
		data.TableSubscriptions: {"customer", "provider"},
		data.TableConsumers:     {"consumer", "provider"},
		data.TableSandboxes:     {"status", "name", "allocated_to_track"},
	}[t]
}

// tick is a clock that moves on one second each time it is read: every
// Append is a later arrival.
func tick(start time.Time) func() time.Time {
	n := 0
	return func() time.Time {
		n++
		return start.Add(time.Duration(n) * time.Second)
	}
}

func newModel(buffer int) *Model {
	m := New(Options{Theme: themes.Theme{}, Keys: keymap.Default(), Buffer: buffer, Location: time.UTC, Summary: testSummary, Now: tick(t0.Add(90 * time.Second))})
	m.SetSize(120, 40)
	return m
}

// press sends one key by its name, as keymap bindings spell it.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("keyMsg: unknown key " + k)
	}
	msg := tea.KeyPressMsg{Code: r[0], Text: k}
	if r[0] >= 'A' && r[0] <= 'Z' {
		msg.Code = r[0] + ('a' - 'A')
		msg.Mod = tea.ModShift
	}
	return msg
}

// typeText types each rune of s.
func typeText(m *Model, s string) {
	for _, r := range s {
		if r == ' ' {
			press(m, "space")
			continue
		}
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// rows returns the record lines of the list view (after info and header).
func rows(t *testing.T, m *Model) []string {
	t.Helper()
	lines := strings.Split(m.View(), "\n")
	if len(lines) != m.height {
		t.Fatalf("view has %d lines, want %d", len(lines), m.height)
	}
	var out []string
	for _, l := range lines[2:] {
		// Record rows start with the cursor gutter and then a cell; the
		// empty-list message is indented by two spaces, the prompt by "/".
		if !strings.HasPrefix(l, "›") && (len(l) < 2 || l[0] != ' ' || l[1] == ' ') {
			continue
		}
		out = append(out, l)
	}
	return out
}

func infoLine(m *Model) string { return strings.SplitN(m.View(), "\n", 2)[0] }

func displayWidth(s string) int { return inert.Width(s) }

package streamview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/detail"
	"opsdeck/views/terminal"
)

// copied runs the Cmd c returned and gives back what went to the clipboard
// and the CopiedMsg.
func copied(t *testing.T, cmd tea.Cmd) (string, detail.CopiedMsg) {
	t.Helper()
	if cmd == nil {
		t.Fatal("c returned no command")
	}
	var text string
	var msg detail.CopiedMsg
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		switch v := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, v...)
		case detail.CopiedMsg:
			msg = v
		case terminal.Msg:
			text, _ = v.Clipboard()
		}
	}
	return text, msg
}

// c copies the selected record's keys and images as JSON, masked; in a
// comparison whose secrets are revealed, as stored.
func TestCopySelectedRecord(t *testing.T) {
	m := New(Options{Theme: themes.Theme{}, Keys: keymap.Default(), Location: time.UTC, Mask: testMask})
	m.SetSize(120, 40)
	old := img("sessionId", "s-1", "status", "RUNNING", "signingKey", "sk-OLD-SECRET")
	new := img("sessionId", "s-1", "status", "COMPLETED", "signingKey", "sk-NEW-SECRET",
		"connectUrl", "wss://h.example/cdp?token=tok-URL-SECRET")
	m.Append([]stream.Record{session("MODIFY", "s-1", old, new, 0), insert("s-2", "RUNNING", 1)})
	press(m, "g")

	text, msg := copied(t, m.Update(keyMsg("c")))
	if strings.Contains(text, "SECRET") || !msg.Masked || msg.Bytes != len(text) || msg.Err != nil {
		t.Fatalf("masked copy (%+v):\n%s", msg, text)
	}
	var got struct {
		Table, Event        string
		Keys                map[string]any
		OldImage, NewImage  map[string]any
		ApproximateCreation string `json:"approximateCreationTime"`
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	if got.Table != "sessions" || got.Event != "MODIFY" || got.Keys["sessionId"] != "s-1" ||
		got.OldImage["status"] != "RUNNING" || got.NewImage["status"] != "COMPLETED" ||
		got.NewImage["signingKey"] != "••••••" || got.ApproximateCreation != "2026-11-21T12:00:00Z" {
		t.Errorf("copied record:\n%s", text)
	}

	press(m, "enter")
	if text, _ := copied(t, m.Update(keyMsg("c"))); strings.Contains(text, "SECRET") {
		t.Fatalf("the comparison copied secrets before s:\n%s", text)
	}
	press(m, "s")
	text, msg = copied(t, m.Update(keyMsg("c")))
	if msg.Masked || !strings.Contains(text, "sk-OLD-SECRET") || !strings.Contains(text, "tok-URL-SECRET") {
		t.Fatalf("revealed copy (%+v):\n%s", msg, text)
	}
	press(m, "esc", "j")
	if text, _ := copied(t, m.Update(keyMsg("c"))); strings.Contains(text, "SECRET") || !strings.Contains(text, `"s-2"`) {
		t.Fatalf("the next record copied with secrets, or not at all:\n%s", text)
	}
	var inHelp bool
	for _, b := range m.Help() {
		inHelp = inHelp || b.Help().Key == "c"
	}
	if !inHelp {
		t.Error("c is not in the pane's help")
	}
}

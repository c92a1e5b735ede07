package views

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/themes"
)

// Lists and the quota show the number stored, never a clamped one.
func TestCellsShowNumbersAsStored(t *testing.T) {
	now := time.Now()
	huge := &types.AttributeValueMemberN{Value: "99999999999999999999"}
	run := data.DecodeGraphRun(data.Item{"PK": sAttr("USER#1"), "SK": sAttr("RUN#2026-11-21T12:00:00Z#r"), "runId": sAttr("r"),
		"status": sAttr("COMPLETE"), "nodeCount": huge, "edgeCount": &types.AttributeValueMemberN{Value: "2.5"}, "internetExposedCount": sAttr("lots")})
	row := runRow(run, now, themes.Dark())
	var texts []string
	for _, c := range row.Cells {
		texts = append(texts, c.Text)
	}
	line := strings.Join(texts, "|")
	if !strings.Contains(line, "|99999999999999999999|2.5|?|-|") || strings.Contains(line, "9223372036854775807") {
		t.Errorf("run row: %s", line)
	}

	p := NewSessions(orderCtx(), "p-1", "")
	p.SetSize(120, 20)
	p.quota = quotaState{req: 7, loading: true}
	p.Update(quotaMsg{pane: PaneSessions, req: 7, found: true, running: 3,
		project: data.DecodeProject(data.Item{"projectId": sAttr("p-1"), "concurrency": huge})})
	if h := p.quotaLine(120); !strings.Contains(h, "3 running / quota 99999999999999999999") || strings.Contains(h, "AT QUOTA") {
		t.Errorf("quota line: %q", h)
	}
}

// An expiry that is stored but unreadable says so; "never" is only for a
// delegation without one.
func TestUnreadableExpiryIsNotNever(t *testing.T) {
	now := time.Now()
	th := themes.Dark()
	cell := func(it data.Item) string {
		return delegationRow(data.DecodeDelegation(it), now, th).Cells[3].Text
	}
	if got := cell(data.Item{"link": sAttr("l")}); got != "never" {
		t.Errorf("no expiration: %q", got)
	}
	if got := cell(data.Item{"link": sAttr("l"), "expiration": sAttr("soon")}); got != "unreadable" {
		t.Errorf("unreadable expiration: %q", got)
	}
	if got := cell(data.Item{"link": sAttr("l"), "expiration": &types.AttributeValueMemberN{Value: "1e30"}}); got != "unreadable" {
		t.Errorf("out-of-range expiration: %q", got)
	}
	s := data.DecodeSession(data.Item{"sessionId": sAttr("s"), "status": sAttr("RUNNING"), "projectId": sAttr("p"),
		"createdAt": sAttr("2026-11-21T11:00:00Z"), "expiresAt": sAttr("tomorrow")})
	if got := sessionRow(s, now, th).Cells[5].Text; got != "unreadable" {
		t.Errorf("session EXPIRES: %q", got)
	}
	e := data.DecodeEvent(data.Item{"user_id": sAttr("u"), "timestamp#event_id": sAttr("2026-11-21T10:00:00Z#e"), "ttl": sAttr("later")})
	found := false
	for _, c := range eventRow(e, now, th).Cells {
		found = found || c.Text == "unreadable"
	}
	if !found {
		t.Errorf("inbox TTL not shown as unreadable")
	}
}

// Sandboxes: a retry count beyond int64 reads as stored; a deadline that
// cannot be known (no usable lab_duration_hours) shows "?", never a
// deadline from an assumed window, and the row is not called expired.
func TestSandboxNumbersAndUnknownDeadline(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	th := themes.Dark()
	sandbox := func(hours types.AttributeValue) data.Item {
		return data.Item{"PK": sAttr("SBX#a"), "SK": sAttr("META"), "sandbox_id": sAttr("a"), "status": sAttr("allocated"),
			"allocated_at":         &types.AttributeValueMemberN{Value: strconv.FormatInt(now.Add(-2*time.Hour).Unix(), 10)},
			"deletion_retry_count": &types.AttributeValueMemberN{Value: "9223372036854775808"},
			"lab_duration_hours":   hours}
	}
	row := sandboxRow(data.DecodeSandbox(sandbox(&types.AttributeValueMemberN{Value: "48"})), now, th)
	if got := row.Cells[7].Text; got != "9223372036854775808" {
		t.Errorf("DEL RETRY %q", got)
	}
	if row.Cells[5].Text == "?" || row.Tag == "!" {
		t.Errorf("a readable 48 h lab (window: the broker's 4 h), allocated 2 h ago: deadline %q, tag %q", row.Cells[5].Text, row.Tag)
	}
	for _, h := range []types.AttributeValue{sAttr("4h"), &types.AttributeValueMemberN{Value: "99999999999999999999"},
		&types.AttributeValueMemberN{Value: "0"}, nil} {
		it := sandbox(h)
		if h == nil {
			delete(it, "lab_duration_hours")
		}
		row := sandboxRow(data.DecodeSandbox(it), now, th)
		if row.Cells[5].Text != "?" || row.Tag == "!" || strings.Contains(row.Cells[2].Text, "expired") {
			t.Errorf("lab_duration_hours %v: deadline %q, status %q, tag %q", h, row.Cells[5].Text, row.Cells[2].Text, row.Tag)
		}
	}
}

// The quota line quotes the project item (its name): masked like cells.
func TestQuotaLineMasksTheProjectName(t *testing.T) {
	p := NewSessions(orderCtx(), "p-1", "")
	p.SetSize(160, 20)
	p.quota = quotaState{req: 7, loading: true}
	p.Update(quotaMsg{pane: PaneSessions, req: 7, found: true, running: 1,
		project: data.DecodeProject(data.Item{"projectId": sAttr("p-1"), "concurrency": &types.AttributeValueMemberN{Value: "5"},
			"name": sAttr("Acme https://dash.example/?token=tok_Q7xV9kP2mW4rT8bN")})})
	if h := p.quotaLine(160); strings.Contains(h, "tok_Q7x") || !strings.Contains(h, "token=••••••") {
		t.Errorf("quota line: %q", h)
	}
}

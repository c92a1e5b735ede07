package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo"
	"opsdeck/internal/dbtest"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// TestReplacedStreamReloadsThePane: the sessions table is deleted and
// created again with other rows (a DynamoDB Local restarted and re-seeded
// within seconds). When the reader reports the stream replaced, the
// Sessions pane drops its old rows at once — never shown as live under the
// new stream — reads the new table, and the status bar says why.
func TestReplacedStreamReloadsThePane(t *testing.T) {
	w := seeded(t)
	ctx := context.Background()
	tables := dbtest.Tables(t, "dev", "trp")
	create := func() {
		for _, id := range []data.TableID{data.TableSessions, data.TableProjects} {
			if _, err := w.conn.DB.CreateTable(ctx, demo.CreateTableInput(data.MustSchema(id), tables.Name(id), false)); err != nil {
				t.Fatal(err)
			}
		}
	}
	put := func(id string) {
		it := data.Item{"sessionId": data.S(id), "projectId": data.S("p-r"), "status": data.S("RUNNING"),
			"createdAt": data.S(fixedNow.Add(-time.Hour).UTC().Format(time.RFC3339)), "expiresAt": data.N(fixedNow.Unix() + 3600)}
		if _, err := w.conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tables.Name(data.TableSessions)), Item: it}); err != nil {
			t.Fatal(err)
		}
	}
	drop := func() {
		for _, id := range []data.TableID{data.TableSessions, data.TableProjects} {
			_, _ = w.conn.DB.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(tables.Name(id))})
		}
	}
	t.Cleanup(drop)
	create()
	for _, id := range []string{"sess_old_1", "sess_old_2", "sess_old_3"} {
		put(id)
	}
	o := w.options()
	o.Store, o.Tables = data.NewStore(w.conn, tables), tables
	o.Scopes = Scopes{ProjectID: "p-r"}
	m := start(t, o, 140, 30)
	m, _ = settle(t, m, nil)
	batch := func(h stream.Health) {
		t.Helper()
		nm, cmd := m.Update(livefeed.BatchMsg{Health: []stream.Health{h}})
		m = nm.(Model)
		m, _ = settle(t, m, cmd)
	}
	batch(stream.Health{Table: data.TableSessions, State: stream.StateLive})
	screen := stripANSI(m.Render())
	if !strings.Contains(screen, "sess_old_1") || !strings.Contains(screen, "live") {
		t.Fatalf("the old rows are not shown live, so this test proves nothing:\n%s", screen)
	}

	drop()
	create()
	put("sess_new_1")
	from := fixedNow.Add(-10 * time.Second)
	nm, cmd := m.Update(livefeed.BatchMsg{Health: []stream.Health{{Table: data.TableSessions, State: stream.StateGap, Replaced: true,
		Detail: "the stream was replaced", GapFrom: from, GapTo: fixedNow}}})
	m = nm.(Model)
	// Before the new table answers: the old rows are gone already.
	if screen := stripANSI(m.Render()); strings.Contains(screen, "sess_old_") {
		t.Fatalf("old rows still shown after the stream was replaced:\n%s", screen)
	}
	m, _ = settle(t, m, cmd)
	screen = stripANSI(m.Render())
	if strings.Contains(screen, "sess_old_") || !strings.Contains(screen, "sess_new_1") {
		t.Fatalf("the pane did not read the new table:\n%s", screen)
	}
	if !strings.Contains(screen, "stream replaced") {
		t.Fatalf("the operator is not told why:\n%s", screen)
	}
	if got := m.slotOf(views.PaneSessions).Status().Rows; got != 1 {
		t.Fatalf("%d rows after the reload, want 1", got)
	}
}

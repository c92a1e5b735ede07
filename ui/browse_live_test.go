package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo/ddblocal"
	"opsdeck/ui/session"
	"opsdeck/views"
)

// TestBrowsedTableIsLive: a table no pane models, listed with :table,
// is followed by the session's stream reader once it is on screen (the
// demand hook), and another writer's new item in the scope appears in the
// list — while one outside the scope does not.
func TestBrowsedTableIsLive(t *testing.T) {
	w := seeded(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn, err := data.ConnectLocal(ctx, ddblocal.TestEndpoint(t))
	if err != nil {
		t.Fatal(err)
	}
	name := ledgerTable(t, w.conn.DB)
	s := session.New(ctx, conn, session.Spec{Tables: w.tables, Stream: stream.Options{Tables: []data.TableID{data.TableSessions}}})
	defer func() { s.Close(); _ = s.Wait(0) }()
	s.StartTail(nil)
	o := w.options()
	o.Session = s
	d := newLiveDriver(ctx, New(o))
	d.Start(120, 40)

	d.press(t, ":")
	for _, r := range "table " + name + " acct=a-1" {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		d.Update(keyMsg(k))
	}
	d.press(t, "enter")
	id := data.UnmodeledID(name)
	d.until(t, "the ledger's rows", func() bool {
		return d.Model.Active() == views.PaneTables && d.Model.Pane(views.PaneTables).Status().Rows == 3
	})
	d.until(t, "the ledger's stream live", func() bool {
		h, ok := d.Model.live.health[id]
		return ok && h.State == stream.StateLive
	})

	put := func(acct, entry string) {
		t.Helper()
		if _, err := w.conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name), Item: ledgerItem(acct, entry, "open", 75)}); err != nil {
			t.Fatal(err)
		}
	}
	put("a-9", "e-01") // outside acct=a-1
	put("a-1", "e-09")
	d.until(t, "a-1/e-09 from the other writer", func() bool {
		return strings.Contains(d.Model.Render(), "e-09")
	})
	if st := d.Model.Pane(views.PaneTables).Status(); st.Rows != 4 || strings.Contains(d.Model.Render(), "a-9") {
		t.Errorf("after the writes: %d rows\n%s", st.Rows, strings.Join(cells(d.Model), "\n"))
	}
	if title := cells(d.Model)[1]; !strings.Contains(title, "live") {
		t.Errorf("title %q: want the live label", title)
	}
	// The Query reads in the sort key's order (entry): a row the tail
	// inserts takes its place in that order, not the bottom.
	put("a-1", "e-00")
	d.until(t, "a-1/e-00 from the other writer", func() bool {
		return strings.Contains(d.Model.Render(), "e-00")
	})
	var order []string
	for _, line := range cells(d.Model) {
		for _, e := range []string{"e-00", "e-01", "e-02", "e-03", "e-09"} {
			if strings.Contains(line, " "+e+" ") {
				order = append(order, e)
			}
		}
	}
	if strings.Join(order, ",") != "e-00,e-01,e-02,e-03,e-09" {
		t.Errorf("rows in order %v, want the sort key's\n%s", order, strings.Join(cells(d.Model), "\n"))
	}
}

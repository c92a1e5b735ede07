package ui

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/demo"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/termcells"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/session"
	"opsdeck/views"
	"opsdeck/views/vtable"
)

// A sixth service, declared the way docs/ARCHITECTURE.md says a service is
// added: its table's descriptor (what data/svc_<service>.go would
// register), an optional presenter (views/<pane>.go) and its demo seed
// (demo/seed_<service>.go) — the three calls below, which those files make
// in init. Nothing else of the console names it.

const tableWidgets data.TableID = "widgets"

const kindAccount data.IDKind = "account"

func widgetsDescriptor() data.Descriptor {
	return data.Descriptor{
		Order: 60,
		Schema: data.TableSchema{
			ID: tableWidgets, Service: "Widgetry", NameTemplate: "widgetry-{env}-widgets",
			PK: data.KeyAttr{Name: "account", Type: data.TypeS},
			SK: &data.KeyAttr{Name: "widgetId", Type: data.TypeS},
			Attrs: map[string]string{
				"account": "S", "widgetId": "S", "state": "S", "updated_at": "N", "spec": "M",
			},
			Indexes: []data.Index{{
				Name: "by-state", PK: data.KeyAttr{Name: "state", Type: data.TypeS},
				SK: &data.KeyAttr{Name: "updated_at", Type: data.TypeN}, Projection: data.Projection{Type: data.ProjectAll},
			}},
			Stream: data.StreamNewAndOld,
		},
		Epoch: map[string]data.EpochUnit{"updated_at": data.EpochSeconds},
		Trouble: func(_ data.Trouble, _ time.Time) func(data.Item) (string, bool) {
			return func(it data.Item) (string, bool) {
				if st, _ := it["state"].(*types.AttributeValueMemberS); st != nil && st.Value == "JAMMED" {
					return "jammed", true
				}
				return "", false
			}
		},
		IDs: []data.IDAttr{{Kind: kindAccount, Attr: "account"}},
		Pane: &data.PaneDecl{
			Name: "Widgets", Short: "Widg", Key: "8",
			Command: "widgets", ArgName: "account", Seen: kindAccount,
			By: func(account string) data.Scope { return data.PartitionScope(tableWidgets, "", account) },
		},
	}
}

func widgetsPresenter() views.Presenter {
	return views.Presenter{
		Table: tableWidgets, Kind: "widgets",
		Columns: func() []vtable.Column {
			return []vtable.Column{
				{Key: "widget", Title: "WIDGET", Width: 10, Fit: true, Priority: 10},
				{Key: "state", Title: "STATE", Width: 8, Priority: 9},
				{Key: "updated", Title: "UPDATED", Width: 9, Priority: 8, Relative: views.Relative},
			}
		},
		Row: func(rec data.Record, now time.Time, _ themes.Theme) vtable.Row {
			it := rec.Item()
			text := func(a string) string {
				if v, ok := it[a].(*types.AttributeValueMemberS); ok {
					return v.Value
				}
				return ""
			}
			updated := ""
			if n, ok := it["updated_at"].(*types.AttributeValueMemberN); ok {
				if sec, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
					updated = views.Relative(time.Unix(sec, 0), now)
				}
			}
			return vtable.Row{Cells: []vtable.Cell{{Text: "wg:" + text("widgetId")}, {Text: text("state")}, {Text: updated}}}
		},
		Summary: []string{"state"},
	}
}

func widgetItem(account, id, state string, at time.Time) data.Item {
	return data.Item{
		"account": &types.AttributeValueMemberS{Value: account}, "widgetId": &types.AttributeValueMemberS{Value: id},
		"state": &types.AttributeValueMemberS{Value: state}, "updated_at": &types.AttributeValueMemberN{Value: strconv.FormatInt(at.Unix(), 10)},
		"spec": &types.AttributeValueMemberM{Value: data.Item{"gear": &types.AttributeValueMemberN{Value: "42"}}},
	}
}

func seedWidgets(s *demo.Seeder) {
	now := s.Now()
	s.Add(tableWidgets, "OK", widgetItem("acct-1", "w-001", "OK", now.Add(-3*time.Minute)))
	s.Add(tableWidgets, "JAMMED", widgetItem("acct-1", "w-002", "JAMMED", now.Add(-2*time.Hour)))
	s.Add(tableWidgets, "OK", widgetItem("acct-1", "w-003", "OK", now.Add(-time.Minute)))
	s.Add(tableWidgets, "OK", widgetItem("acct-2", "w-900", "OK", now.Add(-time.Minute)))
}

// TestASixthServiceIsItsDescriptorPresenterAndSeed: a table no file of
// the console names, declared by descriptor, presenter and seed alone, is
// created in DynamoDB Local by the demo's own CreateTables and seeded by
// its Seed; the console shows its tab, lists an account's widgets with
// the command the descriptor declares (the presenter's columns, the
// descriptor's trouble rule as "!"), opens a row's detail, completes the
// account from what was read, and applies a change read from the table's
// real stream.
func TestASixthServiceIsItsDescriptorPresenterAndSeed(t *testing.T) {
	ep := ddblocal.TestEndpoint(t)
	t.Cleanup(data.Register(widgetsDescriptor()))
	t.Cleanup(views.RegisterPresenter(widgetsPresenter()))
	t.Cleanup(demo.RegisterSeed(60, seedWidgets))

	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	conn, err := data.ConnectLocal(ctx, ep)
	if err != nil {
		t.Fatal(err)
	}
	base, err := data.ResolveTables("dev", nil)
	if err != nil {
		t.Fatal(err)
	}
	tables := base.WithPrefix(uniquePrefix("sx"))
	if err := demo.CreateTables(ctx, conn, tables, demo.CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	rep, err := demo.Seed(ctx, conn, tables, demo.SeedOptions{Now: fixedNow})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts[tableWidgets] != 4 {
		t.Fatalf("the seed wrote %d widgets, want 4", rep.Counts[tableWidgets])
	}
	physical := tables.Name(tableWidgets)
	desc, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(physical)})
	if err != nil {
		t.Fatalf("CreateTables did not create %s: %v", physical, err)
	}
	if len(desc.Table.GlobalSecondaryIndexes) != 1 || desc.Table.StreamSpecification == nil {
		t.Fatalf("%s was not created from the descriptor's schema: %+v", physical, desc.Table)
	}

	// The console's session over these tables, as main opens one: its
	// store tells the seen index what it reads, and its live tail reads the
	// table's stream (the console runs as the program runs it, uitest.Live).
	sess, err := session.Open(ctx, ctx, session.Spec{
		Env: "dev", Conn: data.ConnOptions{Endpoint: ep, Region: "us-east-1"}, Tables: tables,
		Stream: stream.Options{Tables: []data.TableID{tableWidgets}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.Close)

	const width, height = 120, 24
	d := newLiveDriver(ctx, New(Options{
		Session: sess, Theme: themes.Plain(), Keys: keymap.Default(), Now: func() time.Time { return fixedNow },
	}))
	d.Start(width, height)
	sess.StartTail(nil)
	cells := func() *termcells.Screen { return termcells.Draw(d.Model.Render(), width, height) }

	// The tab, between the modeled panes and the Stream pane.
	if tabs := cells().Line(0); !strings.Contains(tabs, "8 Widgets") ||
		strings.Index(tabs, "5 Sandboxes") > strings.Index(tabs, "8 Widgets") ||
		strings.Index(tabs, "8 Widgets") > strings.Index(tabs, "6 Stream") {
		t.Fatalf("tab bar: %q", tabs)
	}
	d.press(t, "8")
	if d.Model.Active().Name() != "Widgets" {
		t.Fatalf("8 showed %s", d.Model.Active().Name())
	}
	if scr := cells().String(); !strings.Contains(scr, ":widgets <account>") {
		t.Fatalf("the empty pane does not say its command:\n%s", scr)
	}

	// The declared command lists the account's widgets, by the key Query.
	d.press(t, ":")
	for _, r := range "widgets acct-1" {
		k := string(r)
		if r == ' ' {
			k = "space"
		}
		d.press(t, k)
	}
	d.press(t, "enter")
	p := d.Model.slotOf(d.Model.Active())
	if st := p.Status(); st.Err != "" || st.Rows != 3 {
		t.Fatalf(":widgets acct-1: %d rows, error %q\n%s", st.Rows, st.Err, cells())
	}
	if got := p.Title(); got != "Widgets · account acct-1" {
		t.Errorf("title %q", got)
	}
	scr := cells()
	var header, jammed string
	for _, l := range scr.Lines() {
		if strings.Contains(l, "WIDGET") {
			header = l
		}
		if strings.Contains(l, "wg:w-002") {
			jammed = l
		}
	}
	if !strings.Contains(header, "STATE") || !strings.Contains(header, "UPDATED") {
		t.Fatalf("the presenter's columns are not shown:\n%s", scr)
	}
	if !strings.Contains(jammed, "!") || !strings.Contains(jammed, "JAMMED") || !strings.Contains(jammed, "2h ago") {
		t.Fatalf("the jammed widget's row %q lacks the trouble mark, its state or its time:\n%s", jammed, scr)
	}
	if strings.Contains(scr.String(), "w-900") {
		t.Fatalf("another account's widget is listed:\n%s", scr)
	}
	d.press(t, "g")
	var ids []string
	for range p.Status().Rows {
		it, _ := p.sel.Selected()
		ids = append(ids, attr(it, "widgetId"))
		d.press(t, "j")
	}
	if slices.Sort(ids); !slices.Equal(ids, []string{"w-001", "w-002", "w-003"}) {
		t.Fatalf("rows %q", ids)
	}

	// The account was read: completion offers it (the descriptor's ids).
	if got := sess.Seen.Values(kindAccount, "acct", 0); !slices.Contains(got, "acct-1") {
		t.Errorf("seen accounts %q", got)
	}

	// Detail of a row: every attribute, the nested map too.
	d.press(t, "g", "enter")
	if !p.marks.DetailOpen() {
		t.Fatal("enter opened no detail")
	}
	if scr := cells().String(); !strings.Contains(scr, "gear") || !strings.Contains(scr, "widgetId") {
		t.Fatalf("detail:\n%s", scr)
	}
	d.press(t, "esc")

	// A widget written now reaches the pane through the table's stream.
	d.until(t, "the widgets stream live", func() bool {
		h, ok := d.Model.live.health[tableWidgets]
		return ok && h.State == stream.StateLive
	})
	if _, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(physical), Item: widgetItem("acct-1", "w-004", "JAMMED", fixedNow),
	}); err != nil {
		t.Fatal(err)
	}
	d.until(t, "the streamed widget in the pane", func() bool { return p.Status().Rows == 4 })
	if scr := cells().String(); !strings.Contains(scr, "wg:w-004") {
		t.Fatalf("the streamed widget is not shown:\n%s", scr)
	}
}

package views

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// sortNow is the fixed clock of the sort tests.
var sortNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func sAttr(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nAttr(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// sessionAt is a session created `age` ago that expires `ttl` from now;
// a zero age or ttl leaves the attribute out (a missing value).
func sessionAt(id string, age, ttl time.Duration) data.Record {
	it := data.Item{"sessionId": sAttr(id), "status": sAttr("RUNNING"), "projectId": sAttr("p-1")}
	if age != 0 {
		it["createdAt"] = sAttr(sortNow.Add(-age).Format(time.RFC3339))
	}
	if ttl != 0 {
		it["expiresAt"] = nAttr(sortNow.Add(ttl).Unix())
	}
	return data.DecodeSession(it)
}

// loadedSessions is a Sessions pane that received recs as its first page,
// through the same onPage path a Query answer takes.
func loadedSessions(t *testing.T, recs ...data.Record) *Sessions {
	t.Helper()
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return sortNow }}
	p := NewSessions(c, "", "")
	p.SetSize(120, 30)
	if p.Init() == nil {
		t.Fatal("no first load issued")
	}
	l := p.active()
	p.Update(pageMsg{pane: PaneSessions, req: l.ld.req, fresh: true, res: fetched{recs: recs}})
	if l.table.Len() != len(recs) {
		t.Fatalf("page not applied: %d rows", l.table.Len())
	}
	return p
}

// shownIDs is the first cell of each row in view order.
func shownIDs(p *Sessions) []string {
	tb := p.active().table
	tb.Top()
	var out []string
	for i := 0; i < tb.VisibleLen(); i++ {
		r, _ := tb.Selected()
		out = append(out, r.Cells[0].Text)
		tb.MoveDown(1)
	}
	return out
}

func TestSortByTimeColumnsOrdersByTime(t *testing.T) {
	// Ages chosen so that text order differs from time order:
	// "1h ago" < "2m ago" < "30s ago" < "3d ago" < "5h ago" as text.
	p := loadedSessions(t,
		sessionAt("s-2m", 2*time.Minute, 90*time.Second),
		sessionAt("s-none", 0, 0),
		sessionAt("s-3d", 72*time.Hour, 2*time.Hour),
		sessionAt("s-30s", 30*time.Second, -3*time.Minute),
		sessionAt("s-1h", time.Hour, 10*time.Minute),
		sessionAt("s-5h", 5*time.Hour, -48*time.Hour),
	)
	tb := &p.active().table
	cases := []struct {
		col  string
		desc bool
		want []string
	}{
		{"created", false, []string{"s-3d", "s-5h", "s-1h", "s-2m", "s-30s", "s-none"}},
		{"created", true, []string{"s-30s", "s-2m", "s-1h", "s-5h", "s-3d", "s-none"}},
		{"expires", false, []string{"s-5h", "s-30s", "s-2m", "s-1h", "s-3d", "s-none"}},
		{"expires", true, []string{"s-3d", "s-1h", "s-2m", "s-30s", "s-5h", "s-none"}},
	}
	for _, c := range cases {
		if !tb.SortByKey(c.col, c.desc) {
			t.Fatalf("no column %q", c.col)
		}
		if got := shownIDs(p); !slices.Equal(got, c.want) {
			t.Errorf("sort %s desc=%v: %v, want %v", c.col, c.desc, got, c.want)
		}
	}
}

// byAge builds one item per age (0: the attribute left out) with the time
// attribute attr set `age` before sortNow, in the encoding the table
// stores ("S" ISO8601 or "N" unix seconds), and the row id in idAttr.
func byAge(base data.Item, idAttr, attr, enc string, ages ...time.Duration) []data.Item {
	out := make([]data.Item, len(ages))
	for i, age := range ages {
		it := data.Item{}
		for k, v := range base {
			it[k] = v
		}
		it[idAttr] = sAttr("id-" + age.String())
		if age != 0 {
			at := sortNow.Add(-age)
			if enc == "N" {
				it[attr] = nAttr(at.Unix())
			} else {
				it[attr] = sAttr(at.Format(time.RFC3339))
			}
		}
		out[i] = it
	}
	return out
}

// TestEveryPaneSortsTimeColumnsByTime builds rows with each pane's row
// builder and sorts them in a table by the time column: the order must
// follow the times (whose texts "1h ago" < "2m ago" < "3d ago" < "45s ago"
// sort otherwise), both ways, with the missing time last.
func TestEveryPaneSortsTimeColumnsByTime(t *testing.T) {
	ages := []time.Duration{2 * time.Minute, 0, 72 * time.Hour, 45 * time.Second, time.Hour}
	asc := []string{"id-72h0m0s", "id-1h0m0s", "id-2m0s", "id-45s", "id-0s"}
	desc := []string{"id-45s", "id-2m0s", "id-1h0m0s", "id-72h0m0s", "id-0s"}
	th := themes.Dark()
	cases := []struct {
		name   string
		table  data.TableID
		cols   []vtable.Column
		rowOf  rowFunc
		colKey string
		items  []data.Item
	}{
		{"runs created", data.TableGraphRuns, runColumns(), runRow, "created",
			byAge(data.Item{"PK": sAttr("USER#u"), "SK": sAttr("RUN#x"), "status": sAttr("COMPLETED")}, "runId", "createdAt", "S", ages...)},
		{"inbox age", data.TableEvents, eventColumns(), eventRow, "age",
			byAge(data.Item{"user_id": sAttr("u"), "status": sAttr("pending")}, "event_id", "timestamp", "S", ages...)},
		{"delegations inserted", data.TableDelegations, delegationColumns(), delegationRow, "inserted",
			byAge(data.Item{"audience": sAttr("did:a")}, "link", "insertedAt", "S", ages...)},
		{"delegations expiration", data.TableDelegations, delegationColumns(), delegationRow, "expires",
			byAge(data.Item{"audience": sAttr("did:a")}, "link", "expiration", "N", ages...)},
		{"sandboxes allocated", data.TableSandboxes, sandboxColumns(), sandboxRow, "allocated",
			byAge(data.Item{"SK": sAttr("META"), "status": sAttr("available")}, "sandbox_id", "allocated_at", "N", ages...)},
		{"api keys created", data.TableAPIKeys, apiKeyColumns(), apiKeyRow, "created",
			byAge(data.Item{"status": sAttr("ACTIVE")}, "apiKeyHash", "createdAt", "S", ages...)},
		{"contexts updated", data.TableContexts, contextColumns(), contextRow, "updated",
			byAge(data.Item{"status": sAttr("ACTIVE")}, "contextId", "updatedAt", "S", ages...)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rows := make([]vtable.Row, len(c.items))
			for i, it := range c.items {
				rec := data.Decode(c.table, it)
				rows[i] = c.rowOf(rec, sortNow, th)
				// The id cell of each builder differs; tag rows by input.
				rows[i].ID = "id-" + ages[i].String()
			}
			tb := vtable.New(c.cols, th)
			tb.SetSize(200, 20)
			tb.SetRows(rows)
			for _, dir := range []struct {
				desc bool
				want []string
			}{{false, asc}, {true, desc}} {
				if !tb.SortByKey(c.colKey, dir.desc) {
					t.Fatalf("no column %q", c.colKey)
				}
				if got := tableIDs(&tb); !slices.Equal(got, dir.want) {
					t.Errorf("desc=%v: %v, want %v", dir.desc, got, dir.want)
				}
			}
		})
	}
}

func tableIDs(tb *vtable.Model) []string {
	tb.Top()
	var out []string
	for i := 0; i < tb.VisibleLen(); i++ {
		out = append(out, tb.SelectedID())
		tb.MoveDown(1)
	}
	return out
}

// TestCountColumnsCarryNumericKeys: counts sort as numbers (the key is the
// value, not text to be parsed), and rendering is unchanged.
func TestCountColumnsCarryNumericKeys(t *testing.T) {
	th := themes.Dark()
	run := runRow(data.DecodeGraphRun(data.Item{"PK": sAttr("USER#u"), "SK": sAttr("RUN#r"),
		"nodeCount": nAttr(12), "edgeCount": nAttr(3), "internetExposedCount": nAttr(2),
		"datastoreCount": nAttr(100)}), sortNow, th)
	box := sandboxRow(data.DecodeSandbox(data.Item{"sandbox_id": sAttr("sb"), "status": sAttr("available"),
		"lab_duration_hours": &types.AttributeValueMemberN{Value: "1.5"}, "deletion_retry_count": nAttr(11)}), sortNow, th)
	for _, c := range []struct {
		cells []vtable.Cell
		col   int
		want  float64
		text  string
	}{
		{run.Cells, 6, 12, "12"}, {run.Cells, 7, 3, "3"}, {run.Cells, 8, 2, "2"}, {run.Cells, 9, 100, "100"},
		{box.Cells, 6, 1.5, "1.5"}, {box.Cells, 7, 11, "11"},
	} {
		n, ok := c.cells[c.col].SortKey()
		if !ok || n != c.want || c.cells[c.col].Text != c.text {
			t.Errorf("col %d: key %v %v text %q, want %v %q", c.col, n, ok, c.cells[c.col].Text, c.want, c.text)
		}
	}
	// The exposed-count warning style keeps the key.
	if run.Cells[8].Style == nil {
		t.Errorf("exposed count lost its warning style")
	}
}

package views

import (
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// orderPane is any list pane, loaded with recs as its first page through
// the same onPage path a Query answer takes.
type orderPane interface {
	Pane
	active() *list
}

func loadFirstPage(t *testing.T, p orderPane, recs ...data.Record) {
	t.Helper()
	p.SetSize(120, 30)
	if p.Init() == nil {
		t.Fatal("no first load issued")
	}
	l := p.active()
	p.Update(pageMsg{pane: p.ID(), req: l.ld.req, fresh: true, res: fetched{recs: recs}})
	if l.table.Len() != len(recs) {
		t.Fatalf("page not applied: %d rows", l.table.Len())
	}
}

func inserted(rec data.Record) Change {
	return Change{Table: rec.Table(), Event: "INSERT", New: rec.Item()}
}

func listIDs(l *list) []string {
	tb := l.table
	tb.Top()
	var out []string
	for i := 0; i < tb.VisibleLen(); i++ {
		r, _ := tb.Selected()
		out = append(out, r.Cells[0].Text)
		tb.MoveDown(1)
	}
	return out
}

func orderCtx() *Context {
	return &Context{Theme: themes.Dark(), Keys: keymap.Default(), Now: func() time.Time { return sortNow }}
}

// TestLiveInsertTakesQueryPlace: a row inserted by the live tail lands
// where the scope's query would have listed it, not at the bottom.
func TestLiveInsertTakesQueryPlace(t *testing.T) {
	t.Run("sessions by project, newest first", func(t *testing.T) {
		p := NewSessions(orderCtx(), "p-1", "")
		loadFirstPage(t, p, sessionAt("s-1m", time.Minute, time.Hour), sessionAt("s-1h", time.Hour, time.Hour), sessionAt("s-1d", 24*time.Hour, time.Hour))
		p.Apply([]Change{inserted(sessionAt("s-new", 10*time.Second, time.Hour)), inserted(sessionAt("s-2h", 2*time.Hour, time.Hour))})
		want := []string{"s-new", "s-1m", "s-1h", "s-2h", "s-1d"}
		if got := listIDs(p.active()); !slices.Equal(got, want) {
			t.Fatalf("rows %v, want %v", got, want)
		}
	})
	t.Run("sessions by status, soonest expiry first", func(t *testing.T) {
		p := NewSessions(orderCtx(), "", "RUNNING")
		loadFirstPage(t, p, sessionAt("x-1m", time.Hour, time.Minute), sessionAt("x-1h", time.Hour, time.Hour), sessionAt("x-1d", time.Hour, 24*time.Hour))
		p.Apply([]Change{inserted(sessionAt("x-10m", time.Minute, 10*time.Minute)), inserted(sessionAt("x-10s", time.Minute, 10*time.Second))})
		want := []string{"x-10s", "x-1m", "x-10m", "x-1h", "x-1d"}
		if got := listIDs(p.active()); !slices.Equal(got, want) {
			t.Fatalf("rows %v, want %v", got, want)
		}
	})
	t.Run("sandboxes, oldest allocation first", func(t *testing.T) {
		sbx := func(id string, allocated int64) data.Record {
			return data.Decode(data.TableSandboxes, data.Item{
				"PK": sAttr("SBX#" + id), "SK": sAttr("META"), "sandbox_id": sAttr(id), "name": sAttr(id),
				"status": sAttr("available"), "allocated_at": nAttr(allocated),
			})
		}
		base := sortNow.Unix()
		p := NewSandboxes(orderCtx(), "status", "available")
		loadFirstPage(t, p, sbx("b-300", base-300), sbx("b-200", base-200), sbx("b-100", base-100))
		p.Apply([]Change{inserted(sbx("b-250", base-250)), inserted(sbx("b-999", base-999))})
		want := []string{"b-999", "b-300", "b-250", "b-200", "b-100"}
		if got := listIDs(p.active()); !slices.Equal(got, want) {
			t.Fatalf("rows %v, want %v", got, want)
		}
	})
	t.Run("an explicit sort still wins", func(t *testing.T) {
		p := NewSessions(orderCtx(), "p-1", "")
		loadFirstPage(t, p, sessionAt("s-b", time.Minute, time.Hour), sessionAt("s-c", time.Hour, time.Hour))
		p.Update(tea.KeyPressMsg{Code: '>', Text: ">"}) // sort by the first column, ascending
		p.Apply([]Change{inserted(sessionAt("s-a", 2*time.Hour, time.Hour))})
		want := []string{"s-a", "s-b", "s-c"}
		if got := listIDs(p.active()); !slices.Equal(got, want) {
			t.Fatalf("rows %v, want %v", got, want)
		}
	})
}

package data

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestProjectedPagesReadOnlyTheirAttributes: a projected scope returns the
// same items, in the same order, with only the named attributes and the
// table's keys — through a Query on an ALL index and through a KEYS_ONLY
// index completed with BatchGetItem — so a secret no column shows never
// reaches the console; the same scope unprojected reads whole items.
func TestProjectedPagesReadOnlyTheirAttributes(t *testing.T) {
	db := newTestDB(t)
	for i, id := range []string{"s-1", "s-2", "s-3"} {
		db.put(TableSessions, sessionItem(id, "proj-p", "RUNNING", baseTime.Add(time.Duration(i)*time.Minute), 2e9+int64(i)))
	}
	attrs := []string{"status", "createdAt", "expiresAt"}
	for _, sc := range []Scope{SessionsByProject("proj-p"), SessionsByStatus("RUNNING")} {
		ctx := context.Background()
		whole, err := db.store.Page(ctx, sc, PageRequest{})
		if err != nil {
			t.Fatal(err)
		}
		part, err := db.store.Page(ctx, sc.Project(attrs...), PageRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(part.Items) != 3 || len(whole.Items) != 3 {
			t.Fatalf("%s: %d projected and %d whole items, want 3 each", sc.Operation(), len(part.Items), len(whole.Items))
		}
		for i, r := range part.Items {
			if r.ID() != whole.Items[i].ID() {
				t.Errorf("%s: item %d is %s projected, %s whole", sc.Operation(), i, r.ID(), whole.Items[i].ID())
			}
			var names []string
			for n := range r.Item() {
				names = append(names, n)
			}
			slices.Sort(names)
			want := []string{"createdAt", "expiresAt", "sessionId", "status"}
			if !slices.Equal(names, want) {
				t.Errorf("%s: projected item has %v, want %v", sc.Operation(), names, want)
			}
			if _, ok := whole.Items[i].Item()["signingKey"]; !ok {
				t.Errorf("%s: the whole item lacks signingKey", sc.Operation())
			}
		}
	}
}

// TestProjectionKeepsTheScopeComparable: Project orders and dedupes its
// names (equal projections are equal scopes) and Whole undoes it.
func TestProjectionKeepsTheScopeComparable(t *testing.T) {
	a := SessionsByProject("p").Project("status", "region", "status")
	b := SessionsByProject("p").Project("region", "status")
	if a != b {
		t.Fatalf("%q != %q", a.Only, b.Only)
	}
	if got := a.Projected(); !slices.Equal(got, []string{"region", "status"}) {
		t.Fatalf("Projected %v", got)
	}
	if a.Whole() != SessionsByProject("p") || SessionsByProject("p").Projected() != nil {
		t.Fatal("Whole does not read whole items")
	}
}

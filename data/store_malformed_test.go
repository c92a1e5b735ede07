package data

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// nested returns a map nested depth levels deep, with a leaf at the bottom.
func nested(depth int) types.AttributeValue {
	var v types.AttributeValue = str("bottom")
	for i := 0; i < depth; i++ {
		v = mapv(Item{"level": v})
	}
	return v
}

func depthOf(v types.AttributeValue) int {
	d := 0
	for {
		m, ok := v.(*types.AttributeValueMemberM)
		if !ok {
			return d
		}
		d++
		v = m.Value["level"]
	}
}

// Real tables hold rows no schema promised. These are written to DynamoDB
// Local and read back through the normal access patterns: each must come
// back whole (Raw intact), decoded as far as possible, and flagged.
func TestMalformedRowsComeBackWholeAndFlagged(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()

	huge := sessionItem("sess_huge", "proj-m", "RUNNING", baseTime, 1_800_000_001)
	blob := strings.Repeat("0123456789abcdef", 390*1024/16) // ~390 KB, under the 400 KB item limit
	huge["userMetadata"] = mapv(Item{"blob": str(blob)})

	deep := sessionItem("sess_deep", "proj-m", "RUNNING", baseTime.Add(1), 1_800_000_002)
	deep["userMetadata"] = nested(30)

	wrong := sessionItem("sess_wrong", "proj-m", "RUNNING", baseTime.Add(2), 1_800_000_003)
	wrong["retryCount"] = str("three")
	wrong["keepAlive"] = str("yes")
	wrong["eventHistory"] = mapv(Item{"not": str("a list")})
	wrong["updatedAt"] = num(baseTime.Unix())
	wrong["startedAt"] = str("not a time")
	wrong["surprise"] = &types.AttributeValueMemberNS{Value: []string{"1", "2"}}

	esc := sessionItem("sess_esc", "proj-m", "RUNNING", baseTime.Add(3), 1_800_000_004)
	esc["region"] = str("\x1b[2J\x1b[Hus-east-1\x07")
	// Strings cannot carry invalid UTF-8 over the wire (the SDK's JSON
	// encoder replaces it), but binary attributes carry any bytes.
	esc["rawBytes"] = &types.AttributeValueMemberB{Value: []byte{0xff, 0xfe, 0x1b, '[', '2', 'J', 0}}

	// No projectId: not in projectId-createdAt-index, still readable by id.
	noProject := sessionItem("sess_noproj", "x", "RUNNING", baseTime, 1_800_000_005)
	delete(noProject, "projectId")
	delete(noProject, "createdAt")

	db.put(TableSessions, huge, deep, wrong, esc, noProject)

	byProject, _, _ := pageAll(t, 2, func(r PageRequest) (Page[Session], error) {
		return db.store.SessionsByProject(ctx, "proj-m", r)
	})
	byStatus, _, _ := pageAll(t, 2, func(r PageRequest) (Page[Session], error) {
		return db.store.SessionsByStatus(ctx, "RUNNING", r) // KEYS_ONLY + BatchGet path
	})
	if len(byProject) != 4 || len(byStatus) != 5 {
		t.Fatalf("by project %d (want 4), by status %d (want 5)", len(byProject), len(byStatus))
	}
	find := func(list []Session, id string) Session {
		for _, s := range list {
			if s.SessionID == id {
				return s
			}
		}
		t.Fatalf("%s not returned", id)
		return Session{}
	}
	for _, list := range [][]Session{byProject, byStatus} {
		h := find(list, "sess_huge")
		got := h.UserMetadata["blob"].(*types.AttributeValueMemberS).Value
		if len(got) != len(blob) || got != blob {
			t.Fatalf("huge item truncated: %d bytes of %d", len(got), len(blob))
		}

		d := find(list, "sess_deep")
		if depthOf(d.Raw["userMetadata"]) != 30 {
			t.Fatalf("nested map came back %d deep", depthOf(d.Raw["userMetadata"]))
		}

		w := find(list, "sess_wrong")
		for attr, note := range map[string]string{
			"retryCount": "not a number", "keepAlive": "kept in Raw", "eventHistory": "kept in Raw",
			"updatedAt": "unix seconds", "startedAt": "unreadable time", "surprise": "not in the schema",
		} {
			if !hasProblem(w.Problems, attr, note) {
				t.Errorf("%s not flagged %q: %v", attr, note, w.Problems)
			}
		}
		if w.Raw["retryCount"].(*types.AttributeValueMemberS).Value != "three" || len(w.Raw["surprise"].(*types.AttributeValueMemberNS).Value) != 2 {
			t.Errorf("wrong-typed values not preserved in Raw")
		}
		if !w.UpdatedAt.Equal(baseTime) {
			t.Errorf("numeric updatedAt read as %v", w.UpdatedAt)
		}

		e := find(list, "sess_esc")
		if e.Region != "\x1b[2J\x1b[Hus-east-1\x07" || !hasProblem(e.Problems, "region", "control characters") {
			t.Errorf("escape sequence not kept verbatim and flagged: %q %v", e.Region, e.Problems)
		}
		if b := e.Raw["rawBytes"].(*types.AttributeValueMemberB).Value; !bytes.Equal(b, []byte{0xff, 0xfe, 0x1b, '[', '2', 'J', 0}) {
			t.Errorf("binary attribute changed: %v", b)
		}
	}

	np, found, err := db.store.Session(ctx, "sess_noproj")
	if err != nil || !found {
		t.Fatalf("Session(sess_noproj): %v %v", found, err)
	}
	if !hasProblem(np.Problems, "projectId", "absent") || !hasProblem(np.Problems, "createdAt", "absent") || np.SDKStatus != SessionRunning {
		t.Errorf("missing attributes not flagged: %v", np.Problems)
	}
}

// A sandbox whose allocated_at is a string cannot be written at all (it is
// every GSI's sort key, typed N), but one with a string lab_duration_hours
// can, and must still be usable.
func TestMalformedSandboxStillListed(t *testing.T) {
	db := newTestDB(t)
	ctx := context.Background()
	it := sandboxItem("odd", "allocated", "track-9", baseTime.Unix())
	it["lab_duration_hours"] = str("2")
	it["deletion_retry_count"] = &types.AttributeValueMemberNULL{Value: true}
	db.put(TableSandboxes, it)
	p, err := db.store.SandboxesByTrack(ctx, "track-9", PageRequest{})
	if err != nil || len(p.Items) != 1 {
		t.Fatalf("%v %v", p.Items, err)
	}
	s := p.Items[0]
	if w, ok := s.LabWindow(); !ok || w.Hours() != 2 || !hasProblem(s.Problems, "lab_duration_hours", "numeric string") {
		t.Errorf("lab_duration_hours: %v %v", w, s.Problems)
	}
	if !s.AllocationExpired(baseTime.Add(3*time.Hour)) || s.AllocationExpired(baseTime.Add(time.Hour)) {
		t.Errorf("expiry must follow the item's own 2 h window")
	}
}

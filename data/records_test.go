package data

import (
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func hasProblem(ps []Problem, attr, noteFragment string) bool {
	for _, p := range ps {
		if p.Attr == attr && strings.Contains(p.Note, noteFragment) {
			return true
		}
	}
	return false
}

func TestSDKStatusMapsLikeWallcrawler(t *testing.T) {
	cases := []struct{ status, internal, want string }{
		{"RUNNING", "CREATING", SessionRunning},
		{"RUNNING", "PROVISIONING", SessionRunning},
		{"RUNNING", "STARTING", SessionRunning},
		{"RUNNING", "READY", SessionRunning},
		{"RUNNING", "ACTIVE", SessionRunning},
		{"RUNNING", "TERMINATING", SessionRunning},
		{"CREATING", "", SessionRunning},
		{"READY", "", SessionRunning},
		{"", "READY", SessionRunning},
		// The container writes status=STOPPED and leaves internalStatus alone.
		{"STOPPED", "READY", SessionCompleted},
		{"STOPPED", "", SessionCompleted},
		{"RUNNING", "STOPPED", SessionCompleted},
		{"COMPLETED", "STOPPED", SessionCompleted},
		{"RUNNING", "FAILED", SessionError},
		{"FAILED", "", SessionError},
		{"ERROR", "READY", SessionError},
		{"TIMED_OUT", "READY", SessionTimedOut},
		{"RUNNING", "TIMED_OUT", SessionTimedOut},
		{"stopped", "", SessionCompleted}, // case is not significant
		{"WEIRD", "", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := SDKStatus(c.status, c.internal); got != c.want {
			t.Errorf("SDKStatus(%q, %q) = %q, want %q", c.status, c.internal, got, c.want)
		}
	}
}

func TestDecodeSessionContainerRowShowsCompletedAndAcceptsNumericUpdatedAt(t *testing.T) {
	it := sessionItem("sess_1", "p1", "STOPPED", baseTime, baseTime.Add(time.Hour).Unix())
	it["updatedAt"] = num(baseTime.Add(5 * time.Minute).Unix())
	s := DecodeSession(it)
	if s.Status != "STOPPED" || s.SDKStatus != SessionCompleted {
		t.Fatalf("status %q sdk %q, want STOPPED / COMPLETED", s.Status, s.SDKStatus)
	}
	if !s.UpdatedAt.Equal(baseTime.Add(5 * time.Minute)) {
		t.Errorf("UpdatedAt = %v, want %v", s.UpdatedAt, baseTime.Add(5*time.Minute))
	}
	if !hasProblem(s.Problems, "updatedAt", "unix seconds") {
		t.Errorf("numeric updatedAt not flagged: %v", s.Problems)
	}
	if !s.ExpiresAt.Equal(baseTime.Add(time.Hour)) || !s.CreatedAt.Equal(baseTime) {
		t.Errorf("times: created %v expires %v", s.CreatedAt, s.ExpiresAt)
	}
	if s.SigningKey != "jwt-secret-sess_1" || !strings.Contains(s.ConnectURL, "signingKey=") {
		t.Errorf("secrets must be kept verbatim: %q %q", s.SigningKey, s.ConnectURL)
	}
	if len(s.Problems) != 1 {
		t.Errorf("want exactly the updatedAt problem, got %v", s.Problems)
	}
	if k := s.Key(); len(k) != 1 || k["sessionId"].(*types.AttributeValueMemberS).Value != "sess_1" {
		t.Errorf("Key() = %v", k)
	}
	if s.ID() != "sess_1" || !s.Ended() {
		t.Errorf("ID %q Ended %v", s.ID(), s.Ended())
	}
}

func TestDecodeKeepsWrongTypesMissingAndUnknownAttributes(t *testing.T) {
	it := Item{
		"sessionId":   num(42),                   // N where S is documented
		"status":      mapv(Item{"x": str("y")}), // M where S is documented
		"createdAt":   str("yesterday-ish"),      // unreadable time
		"keepAlive":   str("true"),               // boolean as text
		"proxyBytes":  str("12.5"),               // numeric string, with a fraction
		"retryCount":  &types.AttributeValueMemberNULL{Value: true},
		"mystery":     &types.AttributeValueMemberBS{Value: [][]byte{{0xff}}},
		"projectIds":  listv(str("a")), // unknown on sessions
		"avgCpuUsage": boolv(true),
	}
	s := DecodeSession(it)
	if s.SessionID != "42" || !hasProblem(s.Problems, "sessionId", "number read as text") {
		t.Errorf("sessionId %q problems %v", s.SessionID, s.Problems)
	}
	if s.Status != "" || !hasProblem(s.Problems, "status", "kept in Raw") {
		t.Errorf("status %q problems %v", s.Status, s.Problems)
	}
	if !s.CreatedAt.IsZero() || !hasProblem(s.Problems, "createdAt", "unreadable time") {
		t.Errorf("createdAt %v", s.CreatedAt)
	}
	if !s.KeepAlive || !hasProblem(s.Problems, "keepAlive", "boolean string") {
		t.Errorf("keepAlive %v", s.KeepAlive)
	}
	if s.ProxyBytes.String() != "12.5" || !hasProblem(s.Problems, "proxyBytes", "not a whole number; shown as stored") {
		t.Errorf("proxyBytes %s", s.ProxyBytes)
	}
	if !hasProblem(s.Problems, "projectId", "absent") {
		t.Errorf("missing projectId not flagged: %v", s.Problems)
	}
	if !hasProblem(s.Problems, "mystery", "not in the schema") || !hasProblem(s.Problems, "projectIds", "not in the schema") {
		t.Errorf("unknown attributes not flagged: %v", s.Problems)
	}
	if !hasProblem(s.Problems, "avgCpuUsage", "kept in Raw") {
		t.Errorf("avgCpuUsage not flagged")
	}
	// Nothing is dropped: Raw is the very item, every attribute intact.
	if len(s.Raw) != len(it) {
		t.Fatalf("Raw has %d attributes, item %d", len(s.Raw), len(it))
	}
	for k, v := range it {
		if s.Raw[k] != v {
			t.Errorf("Raw[%s] changed", k)
		}
	}
}

func TestDecodeFlagsInvalidUTF8AndControlSequencesButKeepsThem(t *testing.T) {
	bad := "proj\xff\xfe"
	esc := "sbx\x1b[2J\x1b]0;pwned\x07"
	s := DecodeSession(Item{"sessionId": str("s"), "status": str("RUNNING"), "projectId": str(bad), "createdAt": str(iso(baseTime))})
	if s.ProjectID != bad || !hasProblem(s.Problems, "projectId", "invalid UTF-8") {
		t.Errorf("projectId %q problems %v", s.ProjectID, s.Problems)
	}
	sb := DecodeSandbox(func() Item { it := sandboxItem("x", "available", "", 0); it["name"] = str(esc); return it }())
	if sb.Name != esc || !hasProblem(sb.Problems, "name", "control characters") {
		t.Errorf("name %q problems %v", sb.Name, sb.Problems)
	}
}

func TestDecodeNeverPanicsOnEmptyOrNilItems(t *testing.T) {
	for _, id := range TableIDs() {
		for _, it := range []Item{nil, {}, {"x": nil}} {
			r := Decode(id, it)
			if r == nil {
				t.Fatalf("Decode(%s) = nil", id)
			}
			if r.Table() != id {
				t.Errorf("Table() = %s, want %s", r.Table(), id)
			}
			if len(it) == 0 && len(r.Issues()) == 0 {
				t.Errorf("%s: an empty item must flag its missing key", id)
			}
			_ = r.Key()
			_ = r.ID()
		}
	}
}

func TestParseTimeShapes(t *testing.T) {
	cases := []struct {
		in    string
		want  time.Time
		exact bool
	}{
		{"2026-02-22T19:12:11Z", baseTime, true},
		{"2025-11-11T10:30:45.123456Z", time.Date(2025, 11, 11, 10, 30, 45, 123456000, time.UTC), true},
		{"2025-11-11T12:30:45+02:00", time.Date(2025, 11, 11, 10, 30, 45, 0, time.UTC), true},
		{"2025-11-11T10:30:45.123456", time.Date(2025, 11, 11, 10, 30, 45, 123456000, time.UTC), false},
		{"2025-11-11 10:30:45", time.Date(2025, 11, 11, 10, 30, 45, 0, time.UTC), false},
		{"2025-11-11", time.Date(2025, 11, 11, 0, 0, 0, 0, time.UTC), false},
	}
	for _, c := range cases {
		got, exact, err := ParseTime(c.in)
		if err != nil || !got.Equal(c.want) || exact != c.exact {
			t.Errorf("ParseTime(%q) = %v, %v, %v; want %v, %v", c.in, got, exact, err, c.want, c.exact)
		}
	}
	if _, _, err := ParseTime("1759567084"); err == nil {
		t.Errorf("digits are not an ISO time")
	}
}

func TestNumericTimesSecondsMillisAndZero(t *testing.T) {
	sb := DecodeSandbox(sandboxItem("a", "allocated", "t", baseTime.UnixMilli()))
	if !sb.AllocatedAt.Equal(baseTime) || !hasProblem(sb.Problems, "allocated_at", "milliseconds") {
		t.Errorf("ms allocated_at: %v %v", sb.AllocatedAt, sb.Problems)
	}
	av := DecodeSandbox(sandboxItem("b", "available", "", 0))
	if !av.AllocatedAt.IsZero() || len(av.Problems) != 0 {
		t.Errorf("allocated_at 0 must read as not set, unflagged: %v %v", av.AllocatedAt, av.Problems)
	}
	iso := sandboxItem("c", "allocated", "t", 0)
	iso["allocated_at"] = str("2026-02-22T19:12:11Z")
	ic := DecodeSandbox(iso)
	if !ic.AllocatedAt.Equal(baseTime) || !hasProblem(ic.Problems, "allocated_at", "ISO8601 string accepted") {
		t.Errorf("ISO allocated_at: %v %v", ic.AllocatedAt, ic.Problems)
	}
}

func TestSandboxAllocationExpiredUsesItsOwnLabDuration(t *testing.T) {
	alloc := baseTime.Unix()
	two := sandboxItem("a", "allocated", "track-1", alloc)
	two["lab_duration_hours"] = num(2)
	s := DecodeSandbox(two)
	if w, ok := s.LabWindow(); !ok || w != 2*time.Hour {
		t.Fatalf("LabWindow = %v %v", w, ok)
	}
	if s.AllocationExpired(baseTime.Add(119 * time.Minute)) {
		t.Errorf("expired before its 2 h window ended")
	}
	if !s.AllocationExpired(baseTime.Add(121 * time.Minute)) {
		t.Errorf("not expired after its 2 h window (the 4 h default must not apply)")
	}
	// Never past the broker's 4-hour mark window, whatever the lab says
	// (the document's ":max_expiry": now - 4 hours).
	eight := sandboxItem("b", "allocated", "track-1", alloc)
	eight["lab_duration_hours"] = num(8)
	if e := DecodeSandbox(eight); e.AllocationExpired(baseTime.Add(3*time.Hour+59*time.Minute)) || !e.AllocationExpired(baseTime.Add(4*time.Hour+time.Minute)) {
		t.Errorf("an 8 h sandbox's window is not the broker's 4 h")
	}
	missing := sandboxItem("c", "allocated", "track-1", alloc)
	delete(missing, "lab_duration_hours")
	m := DecodeSandbox(missing)
	if _, ok := m.LabWindow(); ok || !hasProblem(m.Problems, "lab_duration_hours", "absent") {
		t.Errorf("missing duration: %v", m.Problems)
	}
	if m.AllocationExpired(baseTime.Add(100 * time.Hour)) {
		t.Errorf("a sandbox without a window was judged expired (a default window assumed)")
	}
	if DecodeSandbox(sandboxItem("d", "available", "", 0)).AllocationExpired(baseTime.Add(100 * time.Hour)) {
		t.Errorf("an available sandbox cannot be expired")
	}
	pend := DecodeSandbox(sandboxItem("e", "pending_deletion", "t", alloc))
	if pend.AllocationExpired(baseTime.Add(100 * time.Hour)) {
		t.Errorf("only allocated sandboxes expire")
	}
}

// A lab_duration_hours no window can be read from (not a number, not
// positive, beyond a year) gives no deadline, never an assumed one, and
// says so among the problems.
func TestSandboxWithoutAReadableWindowHasNoDeadline(t *testing.T) {
	alloc := baseTime.Unix()
	for _, v := range []types.AttributeValue{str("4h"), num(0), num(-2), &types.AttributeValueMemberN{Value: "99999999999999999999"}} {
		it := sandboxItem("w", "allocated", "track-1", alloc)
		it["lab_duration_hours"] = v
		s := DecodeSandbox(it)
		if due, ok := s.AllocationDeadline(); ok {
			t.Errorf("%v: deadline %v", v, due)
		}
		if s.AllocationExpired(baseTime.Add(100 * 24 * time.Hour)) {
			t.Errorf("%v: judged expired", v)
		}
		if !hasProblem(s.Problems, "lab_duration_hours", "allocation window is unknown") {
			t.Errorf("%v: problems %v", v, s.Problems)
		}
	}
}

func TestDelegationExpired(t *testing.T) {
	d := DecodeDelegation(Item{"link": str("bafy1"), "audience": str("did:web:x"), "expiration": num(baseTime.Unix())})
	if d.Expired(baseTime.Add(-time.Second)) || !d.Expired(baseTime) {
		t.Errorf("Expired around %v wrong", d.Expiration)
	}
	never := DecodeDelegation(Item{"link": str("bafy2"), "audience": str("did:web:x")})
	if never.Expired(baseTime.Add(1000 * time.Hour)) {
		t.Errorf("no expiration means never expired")
	}
}

func TestGraphRunKeysAndUserID(t *testing.T) {
	pk, sk, g1pk, g1sk := GraphRunKeys("12345", "c8a91e", baseTime)
	if pk != "USER#12345" || sk != "RUN#2026-02-22T19:12:11Z#c8a91e" || g1pk != "RUN#c8a91e" || g1sk != "USER#12345" {
		t.Fatalf("keys %q %q %q %q", pk, sk, g1pk, g1sk)
	}
	r := DecodeGraphRun(Item{"PK": str(pk), "SK": str(sk), "GSI1PK": str(g1pk), "GSI1SK": str(g1sk),
		"runId": str("c8a91e"), "status": str("COMPLETE"), "nodeCount": num(42)})
	if r.UserID() != "12345" || r.NodeCount.String() != "42" || len(r.Problems) != 0 {
		t.Errorf("UserID %q nodes %s problems %v", r.UserID(), r.NodeCount, r.Problems)
	}
	bad := DecodeGraphRun(Item{"PK": str(pk), "SK": str(sk), "runId": str("c8a91e"), "status": str("FAILED")})
	if !hasProblem(bad.Problems, "GSI1PK", "not in GSI1") {
		t.Errorf("missing GSI1 keys not flagged: %v", bad.Problems)
	}
	other := DecodeGraphRun(Item{"PK": str(pk), "SK": str(sk), "GSI1PK": str("RUN#zzz"), "GSI1SK": str(g1sk), "runId": str("c8a91e"), "status": str("FAILED")})
	if !hasProblem(other.Problems, "GSI1PK", "disagrees") {
		t.Errorf("GSI1PK mismatch not flagged: %v", other.Problems)
	}
}

func TestEventStaleStatusKeyIsFlaggedAndStatusKeyForKeepsTimestamp(t *testing.T) {
	it := eventItem("user-1", "e1", "user.created", "received", baseTime)
	e := DecodeEvent(it)
	if len(e.Problems) != 0 {
		t.Fatalf("seed-shaped event has problems: %v", e.Problems)
	}
	ts := baseTime.Format("2006-01-02T15:04:05.000000Z")
	if got := e.StatusKeyFor("delivered"); got != "delivered#"+ts {
		t.Errorf("StatusKeyFor = %q", got)
	}
	it["status"] = str("delivered") // a writer that forgot status#timestamp
	stale := DecodeEvent(it)
	if !hasProblem(stale.Problems, "status#timestamp", "stale") {
		t.Errorf("stale status#timestamp not flagged: %v", stale.Problems)
	}
	delete(it, "status#timestamp")
	if got := DecodeEvent(it).StatusKeyFor("failed"); got != "failed#"+ts {
		t.Errorf("StatusKeyFor without a key = %q", got)
	}
}

func TestAPIKeyProjectIDsFromListOrSet(t *testing.T) {
	k := DecodeAPIKey(Item{"apiKeyHash": str("h"), "projectId": str("p"), "projectIds": listv(str("a"), num(3), str("b"))})
	if strings.Join(k.ProjectIDs, ",") != "a,b" || !hasProblem(k.Problems, "projectIds[1]", "skipped") {
		t.Errorf("ProjectIDs %v problems %v", k.ProjectIDs, k.Problems)
	}
	ss := DecodeAPIKey(Item{"apiKeyHash": str("h"), "projectId": str("p"), "projectIds": &types.AttributeValueMemberSS{Value: []string{"x"}}})
	if len(ss.ProjectIDs) != 1 || ss.ID() != "h" {
		t.Errorf("SS ProjectIDs %v", ss.ProjectIDs)
	}
}

func TestProblemString(t *testing.T) {
	p := Problem{Attr: "updatedAt", Want: "ISO8601 string", Got: "N", Note: "numeric time accepted"}
	if got := p.String(); got != "updatedAt: want ISO8601 string, got N (numeric time accepted)" {
		t.Errorf("String() = %q", got)
	}
	if got := (Problem{Attr: "x", Note: "odd"}).String(); got != "x: odd" {
		t.Errorf("String() = %q", got)
	}
}

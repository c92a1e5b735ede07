package demo

import (
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// MaxEventRetries is the Zapier delivery worker's retry limit.
const MaxEventRetries = 3

// eventTTL is how long an event is kept (the seed's 30 days).
const eventTTL = 30 * 24 * time.Hour

type eventUser struct {
	ID     string
	N      int     // generated events
	PFail  float64 // share of events that end failed
	Source string  // the client's address in metadata
}

var eventUsers = []eventUser{
	{ID: "user-123", N: 42, PFail: 0.25, Source: "203.0.113.24"},
	{ID: "user-12345", N: 20, PFail: 0.05, Source: "192.168.1.1"},
	{ID: "user-4821", N: 30, PFail: 0.1, Source: "198.51.100.7"},
	{ID: "user-9066", N: 24, PFail: 0.15, Source: "100.64.12.9"},
}

var eventTypes = []string{
	"user.created", "user.updated", "order.completed", "order.refunded",
	"payment.failed", "payment.succeeded", "subscription.canceled", "invoice.paid",
}

// eventExample is the example item of the Zapier seed, verbatim. Its ttl
// (2025-01-02) lies before its own timestamp, so on a table with TTL enabled
// DynamoDB Local deletes it within a minute or so of seeding: the demo's first TTL
// expiry record.
func eventExample() Item {
	return Item{
		"user_id":            avS("user-12345"),
		"timestamp#event_id": avS("2025-11-11T10:30:45.123456Z#550e8400-e29b-41d4-a716-446655440000"),
		"event_id":           avS("550e8400-e29b-41d4-a716-446655440000"),
		"event_type":         avS("user.created"),
		"payload": avM(Item{
			"user_id":    avS("12345"),
			"email":      avS("newuser@example.com"),
			"name":       avS("John Doe"),
			"created_at": avS("2025-11-11T10:30:45Z"),
		}),
		"status":      avS("received"),
		"timestamp":   avS("2025-11-11T10:30:45.123456Z"),
		"ttl":         avNum("1735831845"),
		"retry_count": avNum("0"),
		"metadata": avM(Item{
			"source_ip":      avS("192.168.1.1"),
			"api_version":    avS("v1"),
			"correlation_id": avS("req-abc123"),
		}),
		"event_type#timestamp": avS("user.created#2025-11-11T10:30:45.123456Z"),
		"status#timestamp":     avS("received#2025-11-11T10:30:45.123456Z"),
	}
}

func seedEvents(g *gen, w *world) {
	w.add(data.TableEvents, "received", eventExample())
	w.note("the Zapier seed's example event has ttl=1735831845, before its own timestamp; with TTL enabled DynamoDB Local deletes it within a minute or so")
	for _, u := range eventUsers {
		w.report.EventUsers = append(w.report.EventUsers, u.ID)
		for i := range u.N {
			var status string
			var ts time.Time
			retries := 0
			switch {
			case i < 3:
				// The newest few are still waiting for the delivery worker.
				status, ts = "received", g.ago(g.jitter(5*time.Second, 4*time.Minute))
			case i == 3 && u.PFail > 0.1:
				status, ts, retries = "retrying", g.ago(g.jitter(5*time.Minute, 40*time.Minute)), g.between(1, MaxEventRetries)
			case g.chance(u.PFail):
				status, ts = "failed", g.ago(g.jitter(10*time.Minute, 4*24*time.Hour))
				retries = g.between(0, MaxEventRetries)
			default:
				status, ts = "delivered", g.ago(g.jitter(5*time.Minute, 4*24*time.Hour))
				if g.chance(0.15) {
					retries = g.between(1, MaxEventRetries)
				}
			}
			w.add(data.TableEvents, status, eventItem(g, u, pick(g, eventTypes), status, ts, retries))
		}
		// Every user with failures has at least one that is out of retries
		// and one that can still be retried, so the Inbox shows both.
		if u.PFail > 0.1 {
			w.add(data.TableEvents, "failed", eventItem(g, u, "payment.failed", "failed", g.ago(g.jitter(time.Hour, 30*time.Hour)), MaxEventRetries))
			w.add(data.TableEvents, "failed", eventItem(g, u, "order.completed", "failed", g.ago(g.jitter(15*time.Minute, 3*time.Hour)), 1))
		}
	}
	w.report.Defaults.InboxUser = eventUsers[0].ID
}

// eventTimestamp renders t as the service does: Python isoformat with
// microseconds and a "Z".
func eventTimestamp(g *gen, t time.Time) string {
	return t.UTC().Add(time.Duration(g.between(0, 999_999)) * time.Microsecond).Format(isoMicros)
}

// eventItem builds one event; its two composite GSI keys always agree with
// event_type and status (the timestamp part is the event's own timestamp).
func eventItem(g *gen, u eventUser, eventType, status string, t time.Time, retries int) Item {
	ts := eventTimestamp(g, t)
	id := g.uuid()
	it := Item{
		"user_id":              avS(u.ID),
		"timestamp#event_id":   avS(ts + "#" + id),
		"event_id":             avS(id),
		"event_type":           avS(eventType),
		"payload":              avM(eventPayload(g, eventType, t)),
		"status":               avS(status),
		"timestamp":            avS(ts),
		"ttl":                  avN(t.Add(eventTTL).Unix()),
		"retry_count":          avN(int64(retries)),
		"metadata":             avM(eventMetadata(g, u)),
		"event_type#timestamp": avS(eventType + "#" + ts),
		"status#timestamp":     avS(status + "#" + ts),
	}
	if retries > 0 {
		last := t.Add(time.Duration(retries) * g.jitter(30*time.Second, 5*time.Minute))
		if last.After(g.now) {
			last = g.now
		}
		it["last_retry_at"] = avS(last.UTC().Format(isoMicros))
	}
	return it
}

func eventMetadata(g *gen, u eventUser) Item {
	m := Item{
		"source_ip":      avS(u.Source),
		"api_version":    avS("v1"),
		"correlation_id": avS("req-" + g.alnum(10)),
	}
	if g.chance(0.3) {
		m["user_agent"] = avS(pick(g, []string{"zapier-platform-core/15.5.1", "python-requests/2.31.0", "node-fetch/3.3.2"}))
	}
	return m
}

var firstNames = []string{"Ana", "Bilal", "Chen", "Dara", "Emeka", "Fatima", "Goran", "Hana", "Ivo", "Jules"}
var lastNames = []string{"Okafor", "Lindqvist", "Moreau", "Tanaka", "Haddad", "Novak", "Silva", "Kowalski"}

func eventPayload(g *gen, eventType string, t time.Time) Item {
	money := func(lo, hi int) types.AttributeValue {
		return avNum(fmt.Sprintf("%d.%02d", g.between(lo, hi), g.between(0, 99)))
	}
	switch eventType {
	case "user.created", "user.updated":
		first, last := pick(g, firstNames), pick(g, lastNames)
		p := Item{
			"user_id": avS(fmt.Sprint(g.between(10000, 99999))),
			"email":   avS(fmt.Sprintf("%s.%s@example.com", lower(first), lower(last))),
			"name":    avS(first + " " + last),
		}
		if eventType == "user.created" {
			p["created_at"] = avS(t.UTC().Format(isoSeconds))
		} else {
			p["changed"] = avSL(pick(g, [][]string{{"email"}, {"name", "avatar_url"}, {"plan"}})...)
		}
		return p
	case "order.completed", "order.refunded":
		p := Item{
			"order_id": avS(fmt.Sprintf("ord_%d", g.between(100000, 999999))),
			"currency": avS(pick(g, []string{"USD", "EUR", "GBP"})),
			"total":    money(5, 900),
			"items":    avN(int64(g.between(1, 12))),
		}
		if eventType == "order.refunded" {
			p["reason"] = avS(pick(g, []string{"damaged", "not_as_described", "duplicate"}))
		}
		return p
	case "payment.failed", "payment.succeeded":
		p := Item{
			"payment_id": avS("pi_" + g.alnum(24)),
			"amount":     money(1, 500),
			"currency":   avS("USD"),
		}
		if eventType == "payment.failed" {
			p["failure_code"] = avS(pick(g, []string{"card_declined", "insufficient_funds", "expired_card", "processing_error"}))
			p["attempt"] = avN(int64(g.between(1, 4)))
		}
		return p
	case "subscription.canceled":
		return Item{
			"subscription_id": avS("sub_" + g.alnum(14)),
			"plan":            avS(pick(g, []string{"starter", "pro", "team"})),
			"at_period_end":   avBool(g.chance(0.7)),
		}
	default: // invoice.paid
		return Item{
			"invoice_id": avS("in_" + g.alnum(14)),
			"amount_due": money(9, 2000),
			"lines":      avL(avM(Item{"description": avS("Pro plan"), "quantity": avN(int64(g.between(1, 20)))})),
		}
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func init() { registerSeed(30, seedEvents) }

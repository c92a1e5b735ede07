package demo

import (
	"time"

	"opsdeck/data"
)

// The w3infra side of the demo: UCAN delegations addressed to a few services,
// and the customers (did:mailto accounts) whose spaces (did:key) are
// provisioned with a storage provider.

type audience struct {
	DID string
	N   int // delegations
}

var audiences = []audience{
	{"did:web:web3.storage", 14},
	{"did:web:up.storacha.network", 9},
	{"did:web:staging.web3.storage", 5},
}

type customer struct {
	DID    string
	Spaces int
}

var customers = []customer{
	{"did:mailto:gmail.com:alice.nakamura", 3},
	{"did:mailto:protocol.ai:ops", 2},
	{"did:mailto:fastmail.com:bob", 1},
	{"did:mailto:example.org:carol", 2},
	{"did:mailto:storacha.network:dev-team", 1},
}

const (
	providerWeb3     = "did:web:web3.storage"
	providerStoracha = "did:web:up.storacha.network"
)

// jsISO renders t as JavaScript's Date.toISOString does.
func jsISO(t time.Time) string { return t.UTC().Format(isoMillis) }

func seedW3infra(g *gen, w *world) {
	// A handful of agents issue most delegations.
	agents := make([]string, 6)
	for i := range agents {
		agents[i] = g.didKey()
	}
	for _, a := range audiences {
		w.report.Audiences = append(w.report.Audiences, a.DID)
		for i := range a.N {
			inserted := g.ago(g.jitter(time.Hour, 200*24*time.Hour))
			var exp time.Time
			switch {
			case i%4 == 3:
				// Expired: the console marks these.
				exp = g.ago(g.jitter(time.Minute, 30*24*time.Hour))
				if exp.Before(inserted) {
					inserted = exp.Add(-g.jitter(time.Hour, 48*time.Hour))
				}
			case i%7 == 5:
				// Effectively never expires (the seed's own example value is
				// of this magnitude).
				exp = time.Unix(9256939505, 0)
			default:
				exp = g.now.Add(g.jitter(time.Hour, 365*24*time.Hour)).Truncate(time.Second)
			}
			state := "active"
			if !exp.After(g.now) {
				state = "expired"
			}
			w.add(data.TableDelegations, state, delegationItem(g, a.DID, pick(g, agents), inserted, exp))
		}
	}
	w.report.Defaults.Audience = audiences[0].DID

	w.report.Providers = []string{providerWeb3, providerStoracha}
	for ci, c := range customers {
		w.report.Customers = append(w.report.Customers, c.DID)
		for si := range c.Spaces {
			space := g.didKey()
			w.report.Consumers = append(w.report.Consumers, space)
			provision(g, w, c.DID, space, providerWeb3)
			if ci == 0 && si == 0 {
				// This space is provisioned with a second provider, so
				// "providers of a consumer" has more than one answer.
				provision(g, w, c.DID, space, providerStoracha)
				w.report.Defaults.Consumer = space
			}
		}
	}
	w.report.Defaults.Customer = customers[0].DID
}

func delegationItem(g *gen, aud, issuer string, inserted, exp time.Time) Item {
	return Item{
		"link":       avS(g.cid()),
		"cause":      avS(g.cid()),
		"audience":   avS(aud),
		"issuer":     avS(issuer),
		"expiration": avN(exp.Unix()),
		"insertedAt": avS(jsISO(inserted)),
		"updatedAt":  avS(jsISO(inserted)),
	}
}

// provision writes what a provider/add invocation leaves behind: one
// subscription row (customer ↔ provider) and one consumer row (space ↔
// provider), sharing the subscription id and the invocation CID.
func provision(g *gen, w *world, customer, space, provider string) {
	at := jsISO(g.ago(g.jitter(time.Hour, 300*24*time.Hour)))
	sub, cause := g.cid(), g.cid()
	w.add(data.TableSubscriptions, "", Item{
		"subscription": avS(sub),
		"provider":     avS(provider),
		"cause":        avS(cause),
		"customer":     avS(customer),
		"insertedAt":   avS(at),
		"updatedAt":    avS(at),
	})
	w.add(data.TableConsumers, "", Item{
		"subscription": avS(sub),
		"provider":     avS(provider),
		"cause":        avS(cause),
		"consumer":     avS(space),
		"insertedAt":   avS(at),
		"updatedAt":    avS(at),
	})
}

func init() { registerSeed(40, seedW3infra) }

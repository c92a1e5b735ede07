package demo

import (
	"context"
	"time"

	"opsdeck/data"
)

// delegationNew is an agent delegating a capability to a service. Some are
// short-lived, so the console's "expired" marking can be watched happening.
func (s *Simulator) delegationNew(ctx context.Context) (StepReport, error) {
	g := s.g
	a := pick(g, audiences)
	exp := g.now.Add(g.jitter(24*time.Hour, 90*24*time.Hour))
	if g.chance(0.3) {
		exp = g.now.Add(g.jitter(2*time.Minute, 15*time.Minute))
	}
	it := delegationItem(g, a.DID, g.didKey(), g.now, exp.Truncate(time.Second))
	rep := StepReport{Table: data.TableDelegations, ID: strAttr(it, "link"), Key: Item{"link": it["link"]}, To: "active"}
	ok, err := s.putNew(ctx, data.TableDelegations, it)
	if err != nil || !ok {
		return skipped(rep, "key already taken"), err
	}
	return rep, nil
}

// spaceProvision is provider/add: a customer's new space gets a
// subscription row and a consumer row.
func (s *Simulator) spaceProvision(ctx context.Context) (StepReport, error) {
	g := s.g
	c := pick(g, customers)
	space := g.didKey()
	sub, cause, at := g.cid(), g.cid(), jsISO(g.now)
	subItem := Item{
		"subscription": avS(sub), "provider": avS(providerWeb3), "cause": avS(cause),
		"customer": avS(c.DID), "insertedAt": avS(at), "updatedAt": avS(at),
	}
	rep := StepReport{Table: data.TableSubscriptions, ID: space, Key: Item{"subscription": avS(sub), "provider": avS(providerWeb3)}, To: "provisioned"}
	if ok, err := s.putNew(ctx, data.TableSubscriptions, subItem); err != nil || !ok {
		return skipped(rep, "key already taken"), err
	}
	conItem := Item{
		"subscription": avS(sub), "provider": avS(providerWeb3), "cause": avS(cause),
		"consumer": avS(space), "insertedAt": avS(at), "updatedAt": avS(at),
	}
	if ok, err := s.putNew(ctx, data.TableConsumers, conItem); err != nil || !ok {
		return skipped(rep, "consumer key already taken"), err
	}
	return rep, nil
}

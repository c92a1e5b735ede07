package demo

import (
	"context"
	"strings"

	"opsdeck/data"
)

// pickEventUser picks a (non-hostile) user, busier users more often.
func (s *Simulator) pickEventUser() eventUser {
	total := 0
	for _, u := range eventUsers {
		total += u.N
	}
	x := s.g.intn(total)
	for _, u := range eventUsers {
		if x < u.N {
			return u
		}
		x -= u.N
	}
	return eventUsers[0]
}

// eventReceive is the API's POST: a new event in status received.
func (s *Simulator) eventReceive(ctx context.Context) (StepReport, error) {
	u := s.pickEventUser()
	it := eventItem(s.g, u, pick(s.g, eventTypes), "received", s.g.now, 0)
	rep := StepReport{Table: data.TableEvents, ID: strAttr(it, "event_id"), Key: keyOfEvent(it), To: "received"}
	ok, err := s.putNew(ctx, data.TableEvents, it)
	if err != nil || !ok {
		return skipped(rep, "key already taken"), err
	}
	return rep, nil
}

func keyOfEvent(it Item) Item {
	return Item{"user_id": it["user_id"], "timestamp#event_id": it["timestamp#event_id"]}
}

// eventsIn lists a user's events whose status#timestamp starts with
// status, oldest first, through StatusIndex as the delivery worker does.
func (s *Simulator) eventsIn(ctx context.Context, user, status string, limit int32) ([]Item, error) {
	return s.query(ctx, data.TableEvents, data.IndexEventsByStatus, "user_id = :u AND begins_with(#stk, :p)",
		map[string]string{"#stk": "status#timestamp"}, Item{":u": avS(user), ":p": avS(status + "#")}, limit, true)
}

// eventDeliver is the delivery worker: the oldest received (or retrying)
// event of some user is delivered, or fails.
func (s *Simulator) eventDeliver(ctx context.Context) (StepReport, error) {
	users := append([]eventUser(nil), eventUsers...)
	s.g.r.Shuffle(len(users), func(i, j int) { users[i], users[j] = users[j], users[i] })
	for _, status := range []string{"received", "retrying"} {
		for _, u := range users {
			items, err := s.eventsIn(ctx, u.ID, status, 10)
			if err != nil {
				return StepReport{}, err
			}
			for _, it := range items {
				if strAttr(it, "status") != status {
					continue // its index key is stale; leave it to a human
				}
				to := "delivered"
				pFail := 0.15
				if status == "retrying" {
					pFail = 0.35
				}
				if s.g.chance(pFail) {
					to = "failed"
				}
				return s.moveEvent(ctx, it, to, false)
			}
		}
	}
	return StepReport{}, errNothingToDo
}

// eventRetry is the worker picking up a failed event that has retries left.
func (s *Simulator) eventRetry(ctx context.Context) (StepReport, error) {
	users := append([]eventUser(nil), eventUsers...)
	s.g.r.Shuffle(len(users), func(i, j int) { users[i], users[j] = users[j], users[i] })
	for _, u := range users {
		items, err := s.eventsIn(ctx, u.ID, "failed", 50)
		if err != nil {
			return StepReport{}, err
		}
		var candidates []Item
		for _, it := range items {
			if n, ok := numAttr(it, "retry_count"); ok && n < MaxEventRetries && strAttr(it, "status") == "failed" {
				candidates = append(candidates, it)
			}
		}
		if len(candidates) > 0 {
			return s.moveEvent(ctx, pick(s.g, candidates), "retrying", true)
		}
	}
	return StepReport{}, errNothingToDo
}

// moveEvent sets status and status#timestamp together (the timestamp part
// stays the event's own), conditioned on status, retry_count and the index
// key we read. A retry also counts itself.
func (s *Simulator) moveEvent(ctx context.Context, seen Item, to string, retry bool) (StepReport, error) {
	key := keyOfEvent(seen)
	from := strAttr(seen, "status")
	rep := StepReport{Table: data.TableEvents, ID: strAttr(seen, "event_id"), Key: key, From: from, To: to}
	ts := strAttr(seen, "timestamp")
	if ts == "" {
		sk := strAttr(seen, "timestamp#event_id")
		if i := strings.IndexByte(sk, '#'); i > 0 {
			ts = sk[:i]
		}
	}
	if ts == "" {
		return skipped(rep, "no timestamp to rebuild status#timestamp from"), nil
	}
	names := map[string]string{"#status": "status", "#stk": "status#timestamp"}
	vals := Item{":to": avS(to), ":stk": avS(to + "#" + ts)}
	set := "SET #status = :to, #stk = :stk"
	if retry {
		set += ", retry_count = retry_count + :one, last_retry_at = :now"
		vals[":one"] = avN(1)
		vals[":now"] = avS(s.g.now.Format(isoMicros))
	}
	var cond []string
	seenCond(&cond, names, vals, "status", seen)
	seenCond(&cond, names, vals, "retry_count", seen)
	seenCond(&cond, names, vals, "status#timestamp", seen)
	ok, err := s.update(ctx, data.TableEvents, key, set, join(cond), names, vals)
	return written(rep, ok, err)
}

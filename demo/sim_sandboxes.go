package demo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"opsdeck/data"
)

// minAvailable and maxAvailable bound the pool the ENG sync keeps ready.
const (
	minAvailable = 6
	maxAvailable = 20
)

func (s *Simulator) sandboxesIn(ctx context.Context, status string, limit int32) ([]Item, error) {
	return s.query(ctx, data.TableSandboxes, data.IndexSandboxesByStatus, "#status = :s",
		map[string]string{"#status": "status"}, Item{":s": avS(status)}, limit, true)
}

// simulated reports whether the simulator may move this sandbox: not the
// hostile tenant's, and not the seed's own examples, which stay as written
// for reference.
func simulated(it Item) bool {
	return strAttr(it, "allocated_to_track") != hostile.Track && !strings.HasPrefix(strAttr(it, "sandbox_id"), "abc123")
}

func sandboxKey(it Item) Item { return Item{"PK": it["PK"], "SK": it["SK"]} }

// sandboxProvision is the ENG sync adding a fresh sandbox to the pool.
func (s *Simulator) sandboxProvision(ctx context.Context) (StepReport, error) {
	avail, err := s.sandboxesIn(ctx, sbxAvailable, maxAvailable)
	if err != nil {
		return StepReport{}, err
	}
	if len(avail) >= maxAvailable || (len(avail) >= minAvailable && !s.g.chance(0.3)) {
		return StepReport{}, errNothingToDo
	}
	it := sandboxItem(s.g, s.g.between(100, 999), sbxAvailable, "", 0)
	rep := StepReport{Table: data.TableSandboxes, ID: strAttr(it, "sandbox_id"), Key: sandboxKey(it), To: sbxAvailable}
	ok, err := s.putNew(ctx, data.TableSandboxes, it)
	if err != nil || !ok {
		return skipped(rep, "key already taken"), err
	}
	return rep, nil
}

// sandboxAllocate is POST /v1/allocate: the seed's own conditional write.
func (s *Simulator) sandboxAllocate(ctx context.Context) (StepReport, error) {
	avail, err := s.sandboxesIn(ctx, sbxAvailable, 15)
	if err != nil {
		return StepReport{}, err
	}
	var candidates []Item
	for _, it := range avail {
		if simulated(it) {
			candidates = append(candidates, it)
		}
	}
	if len(candidates) <= 2 {
		return StepReport{}, errNothingToDo // keep a few for the operator to see
	}
	it := pick(s.g, candidates)
	track := fmt.Sprintf("track-%d", s.g.between(200, 999))
	rep := StepReport{Table: data.TableSandboxes, ID: strAttr(it, "sandbox_id"), Key: sandboxKey(it), From: sbxAvailable, To: sbxAllocated}
	names := map[string]string{"#status": "status"}
	vals := Item{
		":allocated": avS(sbxAllocated), ":available": avS(sbxAvailable),
		":track_id": avS(track), ":now": avN(s.g.now.Unix()), ":idem_key": avS(track),
	}
	cond := []string{"attribute_exists(PK)", "#status = :available"}
	seenCond(&cond, names, vals, "updated_at", it)
	ok, err := s.update(ctx, data.TableSandboxes, sandboxKey(it),
		"SET #status = :allocated, allocated_to_track = :track_id, allocated_at = :now, idempotency_key = :idem_key, updated_at = :now",
		join(cond), names, vals)
	return written(rep, ok, err)
}

// brokerWindowHours is the broker's mark window (data.BrokerMarkWindow).
var brokerWindowHours = int64(data.BrokerMarkWindow / time.Hour)

// sandboxMark is the owning track's POST /mark-for-deletion, inside the
// broker's window: its guard's ":max_expiry = now - 4 hours", never past the
// allocation's own lab_duration_hours. Allocations past their window
// are left for the operator (the console marks them expired).
func (s *Simulator) sandboxMark(ctx context.Context) (StepReport, error) {
	alloc, err := s.sandboxesIn(ctx, sbxAllocated, 50)
	if err != nil {
		return StepReport{}, err
	}
	now := s.g.now.Unix()
	var candidates []Item
	for _, it := range alloc {
		at, ok1 := numAttr(it, "allocated_at")
		h, ok2 := numAttr(it, "lab_duration_hours")
		h = min(h, brokerWindowHours)
		if simulated(it) && ok1 && ok2 && at > now-h*3600 && strAttr(it, "allocated_to_track") != "" {
			candidates = append(candidates, it)
		}
	}
	if len(candidates) <= 3 {
		return StepReport{}, errNothingToDo
	}
	it := pick(s.g, candidates)
	h, _ := numAttr(it, "lab_duration_hours")
	h = min(h, brokerWindowHours)
	rep := StepReport{Table: data.TableSandboxes, ID: strAttr(it, "sandbox_id"), Key: sandboxKey(it), From: sbxAllocated, To: sbxPendingDeletion}
	names := map[string]string{"#status": "status"}
	vals := Item{
		":pending_deletion": avS(sbxPendingDeletion), ":allocated": avS(sbxAllocated),
		":track_id": it["allocated_to_track"], ":now": avN(now), ":max_expiry": avN(now - h*3600),
	}
	cond := []string{"attribute_exists(PK)", "#status = :allocated", "allocated_to_track = :track_id", "allocated_at > :max_expiry"}
	seenCond(&cond, names, vals, "allocated_at", it)
	ok, err := s.update(ctx, data.TableSandboxes, sandboxKey(it),
		"SET #status = :pending_deletion, deletion_requested_at = :now, updated_at = :now",
		join(cond), names, vals)
	return written(rep, ok, err)
}

// sandboxCleanup is the cleanup job: a pending deletion is deleted from the
// ENG CSP and then from the table, or the delete fails and is counted
// (deletion_retry_count up), the sandbox staying pending_deletion for the
// next run.
func (s *Simulator) sandboxCleanup(ctx context.Context) (StepReport, error) {
	g := s.g
	for _, status := range []string{sbxPendingDeletion} {
		items, err := s.sandboxesIn(ctx, status, 20)
		if err != nil {
			return StepReport{}, err
		}
		var candidates []Item
		for _, it := range items {
			// A retry count that is not a number cannot be incremented;
			// such a row is left for a human.
			_, hasCount := it["deletion_retry_count"]
			_, numeric := numAttr(it, "deletion_retry_count")
			if simulated(it) && (numeric || !hasCount) {
				candidates = append(candidates, it)
			}
		}
		// Leave a couple in each state for the console to show.
		if len(candidates) <= 2 {
			continue
		}
		it := pick(g, candidates)
		key := sandboxKey(it)
		rep := StepReport{Table: data.TableSandboxes, ID: strAttr(it, "sandbox_id"), Key: key, From: status}
		names := map[string]string{"#status": "status"}
		vals := Item{":from": avS(status)}
		cond := []string{"#status = :from"}
		seenCond(&cond, names, vals, "updated_at", it)
		var ok bool
		switch {
		case status == sbxPendingDeletion && g.chance(0.75):
			rep.To = "deleted"
			ok, err = s.deleteIf(ctx, data.TableSandboxes, key, join(cond), names, vals)
		default:
			rep.To = sbxPendingDeletion + " (deletion failed, counted)"
			vals[":now"], vals[":one"], vals[":zero"] = avN(g.now.Unix()), avN(1), avN(0)
			ok, err = s.update(ctx, data.TableSandboxes, key,
				"SET updated_at = :now, deletion_retry_count = if_not_exists(deletion_retry_count, :zero) + :one",
				join(cond), names, vals)
		}
		return written(rep, ok, err)
	}
	return StepReport{}, errNothingToDo
}

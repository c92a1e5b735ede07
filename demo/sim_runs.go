package demo

import (
	"context"
	"strings"
	"time"

	"opsdeck/data"
)

// runUpload is a user uploading IaC: a new UPLOADED run.
func (s *Simulator) runUpload(ctx context.Context) (StepReport, error) {
	g := s.g
	u := pick(g, graphUsers)
	runID := g.hex(6)
	now := g.now.Truncate(time.Second)
	it := graphRunItem(g, u.ID, runID, u.Env, "UPLOADED", now, now)
	rep := StepReport{Table: data.TableGraphRuns, ID: runID, Key: Item{"PK": it["PK"], "SK": it["SK"]}, To: "UPLOADED"}
	ok, err := s.putNew(ctx, data.TableGraphRuns, it)
	if err != nil || !ok {
		return skipped(rep, "key already taken"), err
	}
	return rep, nil
}

// runAdvance is the analysis pipeline: an UPLOADED run starts PROCESSING, a
// PROCESSING run finishes COMPLETE or FAILED. Runs already stuck (PROCESSING
// for longer than StuckAfter) are left alone: unsticking them is the
// operator's job.
func (s *Simulator) runAdvance(ctx context.Context) (StepReport, error) {
	g := s.g
	users := append([]graphUser(nil), graphUsers...)
	g.r.Shuffle(len(users), func(i, j int) { users[i], users[j] = users[j], users[i] })
	for _, u := range users {
		items, err := s.query(ctx, data.TableGraphRuns, "", "PK = :pk", nil, Item{":pk": avS("USER#" + u.ID)}, 25, false)
		if err != nil {
			return StepReport{}, err
		}
		for _, it := range items {
			status := strAttr(it, "status")
			updated, err := time.Parse(time.RFC3339, strAttr(it, "updatedAt"))
			if err != nil || strAttr(it, "runId") == "" {
				continue
			}
			switch {
			case status == "UPLOADED":
				return s.moveRun(ctx, it, "PROCESSING")
			case status == "PROCESSING" && g.now.Sub(updated) < StuckAfter:
				to := "COMPLETE"
				if g.chance(0.15) {
					to = "FAILED"
				}
				return s.moveRun(ctx, it, to)
			}
		}
	}
	return StepReport{}, errNothingToDo
}

func (s *Simulator) moveRun(ctx context.Context, seen Item, to string) (StepReport, error) {
	g := s.g
	key := Item{"PK": seen["PK"], "SK": seen["SK"]}
	runID := strAttr(seen, "runId")
	rep := StepReport{Table: data.TableGraphRuns, ID: runID, Key: key, From: strAttr(seen, "status"), To: to}
	names := map[string]string{"#status": "status"}
	vals := Item{":to": avS(to), ":now": avS(iso(g.now))}
	set := "SET #status = :to, updatedAt = :now"
	switch to {
	case "COMPLETE":
		extra := Item{}
		user := strings.TrimPrefix(strAttr(seen, "PK"), "USER#")
		completeRun(g, extra, user, runID, strAttr(seen, "environment"))
		for attr, v := range extra {
			set += ", " + attr + " = :" + attr
			vals[":"+attr] = v
		}
	case "FAILED":
		set += ", failureReason = :why"
		vals[":why"] = avS(pick(g, []string{"graph builder: cycle detected in module.network", "Task timed out after 900.00 seconds"}))
	}
	var cond []string
	seenCond(&cond, names, vals, "status", seen)
	seenCond(&cond, names, vals, "updatedAt", seen)
	ok, err := s.update(ctx, data.TableGraphRuns, key, set, join(cond), names, vals)
	return written(rep, ok, err)
}

package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// maxRunningSessions caps what session.create adds, so a long demo does not
// pile up browsers.
const maxRunningSessions = 60

// sessionCreate is sessions-create: a new CREATING row with its TTL and
// signing key. Simulated sessions get short timeouts (3-15 minutes) so whole
// lifecycles, and TTL expiry, happen while someone watches.
func (s *Simulator) sessionCreate(ctx context.Context) (StepReport, error) {
	g := s.g
	running, err := s.query(ctx, data.TableSessions, data.IndexSessionsByStatus, "#st = :s",
		map[string]string{"#st": "status"}, Item{":s": avS("RUNNING")}, maxRunningSessions, true)
	if err != nil {
		return StepReport{}, err
	}
	if len(running) >= maxRunningSessions {
		return StepReport{}, errNothingToDo
	}
	// Busy projects get more sessions; the INACTIVE one gets none (the
	// authorizer refuses it).
	var p wcProject
	x := g.intn(34 + 20 + 14)
	switch {
	case x < 34:
		p = wcProjects[0]
	case x < 54:
		p = wcProjects[1]
	default:
		p = wcProjects[2]
	}
	plan := newSessionPlan(g, p, "CREATING", nil)
	plan.created = g.now.Truncate(time.Second)
	plan.timeout = g.jitter(3*time.Minute, 15*time.Minute).Truncate(time.Second)
	plan.keepAlive = false
	plan.steps = []sessionStep{{"CREATING", plan.created}}
	it := plan.item()
	rep := StepReport{Table: data.TableSessions, ID: plan.id, Key: Item{"sessionId": it["sessionId"]}, To: "CREATING"}
	ok, err := s.putNew(ctx, data.TableSessions, it)
	if err != nil || !ok {
		return skipped(rep, "session id already taken"), err
	}
	return rep, nil
}

// nextSessionState is what happens next to a running session, as
// Wallcrawler's controllers would do it.
func (s *Simulator) nextSessionState(internal string, expires time.Time) string {
	g := s.g
	if expires.Sub(g.now) < time.Minute {
		return "TIMED_OUT"
	}
	switch internal {
	case "CREATING":
		return "PROVISIONING"
	case "PROVISIONING":
		if g.chance(0.05) {
			return "FAILED"
		}
		return "STARTING"
	case "STARTING":
		switch x := g.r.Float64(); {
		case x < 0.05:
			return "FAILED"
		case x < 0.09:
			return "TIMED_OUT"
		}
		return "READY"
	case "READY":
		return "ACTIVE"
	case "ACTIVE":
		return "TERMINATING"
	case "TERMINATING":
		return "STOPPED"
	}
	return ""
}

// sessionAdvance moves one running session a step along its lifecycle.
func (s *Simulator) sessionAdvance(ctx context.Context) (StepReport, error) {
	keys, err := s.query(ctx, data.TableSessions, data.IndexSessionsByStatus, "#st = :s",
		map[string]string{"#st": "status"}, Item{":s": avS("RUNNING")}, 100, true)
	if err != nil {
		return StepReport{}, err
	}
	if len(keys) == 0 {
		return StepReport{}, errNothingToDo
	}
	s.g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	// The index is KEYS_ONLY: read each candidate whole, and pass over rows
	// of the hostile tenant or rows too malformed to move safely.
	for _, k := range keys[:min(len(keys), 5)] {
		key := Item{"sessionId": k["sessionId"]}
		it, err := s.get(ctx, data.TableSessions, key)
		if err != nil {
			return StepReport{}, err
		}
		if it == nil || strAttr(it, "projectId") == hostile.Project {
			continue
		}
		if _, ok := it["eventHistory"].(*types.AttributeValueMemberL); !ok && it["eventHistory"] != nil {
			continue
		}
		internal := strAttr(it, "internalStatus")
		exp, ok := numAttr(it, "expiresAt")
		if !ok || internal == "" {
			continue
		}
		next := s.nextSessionState(internal, time.Unix(exp, 0))
		if next == "" {
			continue
		}
		return s.moveSession(ctx, key, it, internal, next)
	}
	return StepReport{}, errNothingToDo
}

// moveSession writes one lifecycle transition, conditioned on the status,
// internalStatus and updatedAt we read.
func (s *Simulator) moveSession(ctx context.Context, key, seen Item, from, to string) (StepReport, error) {
	g := s.g
	id := strAttr(seen, "sessionId")
	rep := StepReport{Table: data.TableSessions, ID: id, Key: key, From: from, To: to}
	now := iso(g.now)
	region, task := strAttr(seen, "region"), strAttr(seen, "ecsTaskArn")
	reason := ""
	switch to {
	case "FAILED":
		reason = pick(g, []string{"Essential container in task exited (exit code 137)", "chrome exited before DevTools was reachable"})
	case "TIMED_OUT":
		reason = "session timeout reached"
		if from == "STARTING" {
			reason = "ready notification not received within 120s"
		}
	}
	if to == "STARTING" && task == "" {
		task = fmt.Sprintf("arn:aws:ecs:%s:%s:task/wallcrawler-browsers/%s", region, demoAccount, g.hex(32))
	}

	names := map[string]string{"#st": "status", "#is": "internalStatus", "#ua": "updatedAt"}
	vals := Item{
		":st":    avS(wcSDKStatus(to)),
		":is":    avS(to),
		":now":   avS(now),
		":ev":    avL(sessionEvent(g, id, strAttr(seen, "projectId"), region, task, to, g.now, reason)),
		":empty": avL(),
	}
	set := "SET #st = :st, #is = :is, #ua = :now, lastEventTimestamp = :now, eventHistory = list_append(if_not_exists(eventHistory, :empty), :ev)"
	switch to {
	case "STARTING":
		set += ", ecsTaskArn = :task"
		vals[":task"] = avS(task)
	case "READY":
		ip := g.publicIP()
		key := strAttr(seen, "signingKey")
		if key == "" {
			key = g.jwt(id, g.now.Unix()+3600)
		}
		set += ", publicIP = :ip, connectUrl = :url, startedAt = :now"
		vals[":ip"], vals[":url"] = avS(ip), avS(connectURL(g, id, ip, key))
		if g.chance(0.3) {
			set += ", seleniumRemoteUrl = :sel"
			vals[":sel"] = avS(fmt.Sprintf("https://wc-%s:%s@%s:4444/wd/hub", g.alnum(6), g.alnum(24), ip))
		}
	case "ACTIVE":
		set += ", proxyBytes = :pb, avgCpuUsage = :cpu, memoryUsage = :mem"
		vals[":pb"] = avN(int64(g.between(10_000, 5_000_000)))
		vals[":cpu"] = avNum(fmt.Sprintf("%.2f", 0.05+g.r.Float64()*0.6))
		vals[":mem"] = avN(int64(g.between(380, 1200)))
	case "STOPPED", "FAILED", "TIMED_OUT":
		set += ", endedAt = :now"
		if to == "FAILED" {
			set += ", retryCount = :one"
			vals[":one"] = avN(1)
		}
		if to == "STOPPED" && g.chance(0.15) {
			// The container reports its own shutdown: its lifecycle word in
			// status and epoch seconds in updatedAt (the messy shape).
			vals[":st"] = avS("STOPPED")
			set = "SET #st = :st, #is = :is, #ua = :nowN, lastEventTimestamp = :now, endedAt = :now, eventHistory = list_append(if_not_exists(eventHistory, :empty), :ev)"
			vals[":nowN"] = avN(g.now.Unix())
			rep.To = "STOPPED (container-written)"
		}
	}
	var cond []string
	cvals := Item{}
	for k, v := range vals {
		cvals[k] = v
	}
	seenCond(&cond, names, cvals, "status", seen)
	seenCond(&cond, names, cvals, "internalStatus", seen)
	seenCond(&cond, names, cvals, "updatedAt", seen)
	ok, err := s.update(ctx, data.TableSessions, key, set, join(cond), names, cvals)
	return written(rep, ok, err)
}

// sessionExpire does what TTL and the controller's timer do where the server
// does not (DynamoDB Local does enforce TTL, within about a minute, so this mostly
// finds nothing): a running session past expiresAt is marked TIMED_OUT, an
// ended one past expiresAt is deleted.
func (s *Simulator) sessionExpire(ctx context.Context) (StepReport, error) {
	g := s.g
	names := map[string]string{"#st": "status", "#ex": "expiresAt"}
	statuses := []string{"RUNNING", "COMPLETED", "STOPPED", "ERROR", "TIMED_OUT"}
	g.r.Shuffle(len(statuses), func(i, j int) { statuses[i], statuses[j] = statuses[j], statuses[i] })
	for _, st := range statuses {
		keys, err := s.query(ctx, data.TableSessions, data.IndexSessionsByStatus, "#st = :s AND #ex < :cut",
			names, Item{":s": avS(st), ":cut": avN(g.now.Add(-30 * time.Second).Unix())}, 5, true)
		if err != nil {
			return StepReport{}, err
		}
		for _, k := range keys {
			key := Item{"sessionId": k["sessionId"]}
			it, err := s.get(ctx, data.TableSessions, key)
			if err != nil {
				return StepReport{}, err
			}
			if it == nil || strAttr(it, "projectId") == hostile.Project {
				continue
			}
			if st == "RUNNING" {
				internal := strAttr(it, "internalStatus")
				if internal == "" {
					continue
				}
				return s.moveSession(ctx, key, it, internal, "TIMED_OUT")
			}
			rep := StepReport{Table: data.TableSessions, ID: strAttr(it, "sessionId"), Key: key, From: strAttr(it, "internalStatus"), To: "deleted (expired)"}
			cnames := map[string]string{}
			vals := Item{}
			var cond []string
			seenCond(&cond, cnames, vals, "status", it)
			seenCond(&cond, cnames, vals, "expiresAt", it)
			seenCond(&cond, cnames, vals, "updatedAt", it)
			ok, err := s.deleteIf(ctx, data.TableSessions, key, join(cond), cnames, vals)
			return written(rep, ok, err)
		}
	}
	return StepReport{}, errNothingToDo
}

func join(clauses []string) string {
	out := ""
	for i, c := range clauses {
		if i > 0 {
			out += " AND "
		}
		out += c
	}
	return out
}

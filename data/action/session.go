package action

import (
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Sessions · Release. Wallcrawler's own release path (sessions-update on
// REQUEST_RELEASE) moves the session to STOPPED and stops its ECS task;
// nothing else stops the task when the status changes. We write the same
// end state with one guarded write, then stop the task (session_stop.go).
// A session is releasable only while its SDK status (derived from status
// and internalStatus, data.SDKStatus) is RUNNING.

// runningStatuses are the stored values that read as RUNNING through the SDK
// mapping: the SDK value itself and every live lifecycle stage.
var runningStatuses = []string{"RUNNING", "CREATING", "PROVISIONING", "STARTING", "READY", "ACTIVE", "TERMINATING"}

// sessionTime is how Wallcrawler writes its ISO 8601 timestamps.
const sessionTime = time.RFC3339

func sessionID(seen data.Item) string { s, _ := str(seen, "sessionId"); return s }

func checkRelease(seen data.Item, _ time.Time, _ Options) error {
	status, hasStatus := str(seen, "status")
	internal, _ := str(seen, "internalStatus")
	if !hasStatus {
		return fmt.Errorf("this session has no readable status (%s); opsdeck will not guess whether it runs", show(seen["status"]))
	}
	if sdk := data.SDKStatus(status, internal); sdk != data.SessionRunning {
		if sdk == "" {
			sdk = "unknown (" + clip(status) + ")"
		}
		return fmt.Errorf("only RUNNING sessions can be released; this one is %s", sdk)
	}
	if v, ok := seen["eventHistory"]; ok && v != nil {
		if _, isList := v.(*types.AttributeValueMemberL); !isList {
			return fmt.Errorf("eventHistory holds a %s, not a list, so the release could not be recorded in it; fix the item by hand", data.TypeName(v))
		}
	}
	return requireScalar(seen, "status", "internalStatus", "updatedAt", "lastEventTimestamp")
}

// inRunning lists the running values a clause accepts: the canonical ones,
// plus the exact value seen when it differs only in case or spacing (the SDK
// mapping tolerates that, an IN list does not).
func inRunning(seen string) []string {
	vals := append([]string(nil), runningStatuses...)
	for _, v := range runningStatuses {
		if v == seen {
			return vals
		}
	}
	if seen != "" && data.SDKStatus(seen, "") == data.SessionRunning {
		vals = append(vals, seen)
	}
	return vals
}

func buildRelease(b *exprBuilder, seen data.Item, now time.Time, o Options) ([]Clause, []setOp, []Change, error) {
	status, _ := str(seen, "status")
	internal, hasInternal := str(seen, "internalStatus")

	clauses := []Clause{b.exists("sessionId", "the session still exists", FailGone)}

	running := b.in("status", "running", inRunning(status), "status is still RUNNING", FailWrongState)
	running.explain = func(it data.Item) string { return describeSession(it, now) }
	running.classify = classifySession
	clauses = append(clauses, running)

	if hasInternal {
		stage := b.in("internalStatus", "running_stage", inRunning(internal), "internalStatus is still a running stage", FailWrongState)
		stage.explain = running.explain
		stage.classify = classifySession
		clauses = append(clauses, stage)
	}
	clauses = append(clauses, b.pin(seen, "status"), b.pin(seen, "internalStatus"), b.pin(seen, "updatedAt"), b.pin(seen, "lastEventTimestamp"))

	at := now.UTC().Format(sessionTime)
	vNow := b.value("now", sv(at))
	sets := []setOp{
		{"internalStatus", b.value("stopped", sv("STOPPED"))},
		{"status", b.value("completed", sv(data.SessionCompleted))},
		{"endedAt", vNow},
		{"updatedAt", vNow},
		{"lastEventTimestamp", vNow},
		{"eventHistory", fmt.Sprintf("list_append(if_not_exists(%s, %s), %s)",
			b.name("eventHistory"),
			b.value("empty_list", &types.AttributeValueMemberL{Value: []types.AttributeValue{}}),
			b.value("terminated_event", &types.AttributeValueMemberL{Value: []types.AttributeValue{terminationEvent(seen, at, o)}}))},
	}

	entries := 0
	if l, ok := seen["eventHistory"].(*types.AttributeValueMemberL); ok {
		entries = len(l.Value)
	}
	changes := []Change{
		{"status", show(seen["status"]), data.SessionCompleted},
		{"internalStatus", show(seen["internalStatus"]), "STOPPED"},
		{"endedAt", show(seen["endedAt"]), at},
		{"updatedAt", show(seen["updatedAt"]), at},
		{"lastEventTimestamp", show(seen["lastEventTimestamp"]), at},
		{"eventHistory", plural(entries, "entry", "entries"), plural(entries+1, "entry", "entries") + " (+ " + terminatedEvent + ", " + terminatedReason + ", by " + o.Operator.User + ")"},
	}
	return clauses, sets, changes, nil
}

// classifySession tells "someone already released it" from "it ended some
// other way (error, timeout)".
func classifySession(it data.Item) Failure {
	status, _ := str(it, "status")
	internal, _ := str(it, "internalStatus")
	if data.SDKStatus(status, internal) == data.SessionCompleted {
		return FailAlreadyDone
	}
	return FailWrongState
}

// describeSession says what a session holds now: "status is COMPLETED since
// 12:04:11, released by alice@box via opsdeck".
func describeSession(it data.Item, now time.Time) string {
	status, _ := str(it, "status")
	internal, _ := str(it, "internalStatus")
	sdk := data.SDKStatus(status, internal)
	var b strings.Builder
	if sdk == data.SessionCompleted {
		b.WriteString("already released: ")
	}
	fmt.Fprintf(&b, "status is %s", show(it["status"]))
	if internal != "" && !strings.EqualFold(internal, status) {
		fmt.Fprintf(&b, " (internalStatus %s)", clip(internal))
	}
	b.WriteString(since(it, "updatedAt", now))
	if by := lastTermination(it); by != "" {
		b.WriteString(", ")
		b.WriteString(by)
	} else if sdk == data.SessionCompleted {
		b.WriteString(", by another operator or the service")
	}
	return b.String()
}

// The history entry, in the shape Wallcrawler's own code appends
// (SessionEvent: eventType, timestamp, source, detail): its readers
// unmarshal exactly these names. timestamp is RFC 3339, as the service
// formats it, and equals the lastEventTimestamp written with it.
const (
	terminatedEvent  = "SessionTerminated"
	terminatedReason = "operator_requested"
	historySource    = "opsdeck"
)

func terminationEvent(seen data.Item, at string, o Options) types.AttributeValue {
	detail := map[string]types.AttributeValue{
		"sessionId": seen["sessionId"],
		"reason":    sv(terminatedReason),
		"operator":  sv(o.Operator.User),
	}
	if p, ok := str(seen, "projectId"); ok {
		detail["projectId"] = sv(p)
	}
	if t, ok := str(seen, "ecsTaskArn"); ok && t != "" {
		detail["ecsTaskArn"] = sv(t)
	}
	return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
		"eventType": sv(terminatedEvent),
		"timestamp": sv(at),
		"source":    sv(historySource),
		"detail":    &types.AttributeValueMemberM{Value: detail},
	}}
}

// lastTermination reads who ended the session from the last eventHistory
// entry, when that entry is a termination we can read.
func lastTermination(it data.Item) string {
	l, ok := it["eventHistory"].(*types.AttributeValueMemberL)
	if !ok || len(l.Value) == 0 {
		return ""
	}
	m, ok := l.Value[len(l.Value)-1].(*types.AttributeValueMemberM)
	if !ok {
		return ""
	}
	typ, _ := str(m.Value, "eventType")
	if typ != terminatedEvent {
		return ""
	}
	var who string
	if d, ok := m.Value["detail"].(*types.AttributeValueMemberM); ok {
		who, _ = str(d.Value, "operator")
	}
	src, _ := str(m.Value, "source")
	switch {
	case who != "" && src != "":
		return "released by " + clip(who) + " via " + clip(src)
	case who != "":
		return "released by " + clip(who)
	case src != "":
		return "released via " + clip(src)
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

package action

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ecs"
	"github.com/aws/smithy-go"

	"opsdeck/data"
)

// The release's second step: stop the session's Fargate task, as
// sessions-update does after moving the session to STOPPED. It runs only
// once the conditional write succeeded; when it fails the session stays
// released and the operator gets the exact command that stops the task.

// stopTaskStep is the Then of ReleaseSession.
var stopTaskStep = &Step{
	Name:     "stop-ecs-task",
	Title:    "Stop the session's ECS task",
	Describe: describeStopTask,
	Run:      stopTask,
}

// maxStopReason is the most ECS keeps of a StopTask reason.
const maxStopReason = 255

// taskRef is what StopTask needs, read from the session's ecsTaskArn.
type taskRef struct {
	arn     string // the whole ARN, sent as the task
	cluster string // the cluster's name (the ARN's task/<cluster>/<id>)
	id      string
	region  string // the region the ARN names
}

// parseTaskArn reads arn:<partition>:ecs:<region>:<account>:task/<cluster>/<id>.
// The old format (task/<id>) names no cluster: opsdeck will not guess it.
func parseTaskArn(arn string) (taskRef, error) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) != 6 || parts[0] != "arn" || parts[2] != "ecs" || !strings.HasPrefix(parts[5], "task/") {
		return taskRef{}, fmt.Errorf("ecsTaskArn %s is not an ECS task ARN", show(sv(arn)))
	}
	rest := strings.Split(strings.TrimPrefix(parts[5], "task/"), "/")
	switch {
	case len(rest) == 1 && rest[0] != "":
		return taskRef{}, fmt.Errorf("ecsTaskArn %s is in the old format, which names no cluster", show(sv(arn)))
	case len(rest) != 2 || rest[0] == "" || rest[1] == "":
		return taskRef{}, fmt.Errorf("ecsTaskArn %s is not an ECS task ARN", show(sv(arn)))
	}
	return taskRef{arn: arn, cluster: rest[0], id: rest[1], region: parts[3]}, nil
}

// stopReason names the operator and the session, as the ECS console and
// DescribeTasks will show it (stoppedReason).
func stopReason(sessionID string, o Operator) string {
	r := fmt.Sprintf("Session %s released by %s via opsdeck", sessionID, o.User)
	if len(r) > maxStopReason {
		r = r[:maxStopReason]
	}
	return r
}

func taskOf(items ...data.Item) (string, bool) {
	for _, it := range items {
		if t, ok := str(it, "ecsTaskArn"); ok && t != "" {
			return t, true
		}
	}
	return "", false
}

func describeStopTask(seen data.Item, o Options) string {
	arn, ok := taskOf(seen)
	if !ok {
		return "not possible: the session has no ecsTaskArn (the release is still written; a task, if one runs, must be stopped by hand)"
	}
	ref, err := parseTaskArn(arn)
	if err != nil {
		return "not possible: " + err.Error() + " (the release is still written)"
	}
	return fmt.Sprintf("StopTask cluster %s, task %s, reason %q", ref.cluster, ref.id, stopReason(sessionID(seen), o.Operator))
}

// stopTask sends StopTask for the task the written item names.
func stopTask(ctx context.Context, conn *data.Conn, p Plan, written data.Item) StepResult {
	id := p.Target
	reason := stopReason(id, p.Operator)
	arn, ok := taskOf(written, p.Seen)
	if !ok {
		return StepResult{
			Message: "the task still runs if there is one: the session has no ecsTaskArn, so opsdeck cannot name it; find it and run " +
				stopTaskCommand("<cluster>", "<task>", reason, "", conn),
			Err: errors.New("the session has no ecsTaskArn"),
		}
	}
	ref, err := parseTaskArn(arn)
	if err != nil {
		return StepResult{
			Message: "the task still runs: " + err.Error() + "; stop it with " + stopTaskCommand("<cluster>", arn, reason, "", conn),
			Sent:    map[string]string{"task": arn},
			Err:     err,
		}
	}
	sent := map[string]string{"cluster": ref.cluster, "task": ref.arn, "reason": reason}
	client, err := conn.ECSClient()
	if err != nil {
		return StepResult{Message: "the task still runs: " + err.Error() + "; stop it with " + stopTaskCommand(ref.cluster, ref.arn, reason, ref.region, conn), Sent: sent, Err: err}
	}
	_, err = client.StopTask(ctx, &ecs.StopTaskInput{
		Cluster: aws.String(ref.cluster),
		Task:    aws.String(ref.arn),
		Reason:  aws.String(reason),
	}, inRegion(ref.region, conn))
	if err != nil {
		return StepResult{
			Message: fmt.Sprintf("the task still runs: StopTask failed (%s); stop it with %s", describeECS(err), stopTaskCommand(ref.cluster, ref.arn, reason, ref.region, conn)),
			Sent:    sent,
			Err:     err,
		}
	}
	return StepResult{OK: true, Message: fmt.Sprintf("ECS task %s in %s is stopping", ref.id, ref.cluster), Sent: sent}
}

// inRegion sends the call to the region the task ARN names when it differs
// from the connection's: a task is stopped where it runs.
func inRegion(region string, conn *data.Conn) func(*ecs.Options) {
	return func(o *ecs.Options) {
		if region != "" && region != conn.Region {
			o.Region = region
		}
	}
}

// describeECS is one line for an ECS error: its code and message.
func describeECS(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		msg := api.ErrorMessage()
		if msg == "" {
			return api.ErrorCode()
		}
		return api.ErrorCode() + ": " + clip(msg)
	}
	return data.Describe(err)
}

// stopTaskCommand is the AWS CLI line that does what the step could not,
// quoted for a POSIX shell.
func stopTaskCommand(cluster, task, reason, region string, conn *data.Conn) string {
	args := []string{"aws", "ecs", "stop-task", "--cluster", shellQuote(cluster), "--task", shellQuote(task), "--reason", shellQuote(reason)}
	if conn != nil && region == "" {
		region = conn.Region
	}
	if region != "" {
		args = append(args, "--region", shellQuote(region))
	}
	if conn != nil && conn.Profile != "" {
		args = append(args, "--profile", shellQuote(conn.Profile))
	}
	return strings.Join(args, " ")
}

// shellQuote leaves plain words as they are and single-quotes the rest.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@=+,", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

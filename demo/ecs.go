package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"opsdeck/data"
)

// ECS is the demo's answer to the ECS API, on loopback: there is no ECS
// emulator, and a release in the demo must be watchable end to end. It
// accepts StopTask (the only call opsdeck makes), answers as ECS does
// (the task, desired status STOPPED), records the stop, and a moment later
// writes to the session what Wallcrawler's ecs-task-processor writes when
// EventBridge reports the task STOPPED: an eventHistory entry, the task's
// address gone. Any other operation is refused as ECS refuses an unknown
// one.
type ECS struct {
	conn   *data.Conn
	tables data.Tables
	logf   func(format string, args ...any)
	// StopDelay is how long the task takes to stop (ECS sends SIGTERM,
	// waits, and reports STOPPED some seconds later).
	StopDelay time.Duration

	srv *http.Server
	url string
	ctx context.Context

	mu    sync.Mutex
	stops []StopRecord
	wg    sync.WaitGroup
}

// StopRecord is one StopTask the demo answered.
type StopRecord struct {
	At                    time.Time
	Cluster, Task, Reason string
	Session               string // the session the task ran, once found ("" before)
}

const stopTaskTarget = "AmazonEC2ContainerServiceV20141113.StopTask"

// StartECS serves the demo's ECS on a free loopback port until ctx ends.
func StartECS(ctx context.Context, conn *data.Conn, tables data.Tables, logf func(string, ...any)) (*ECS, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo ECS: %w", err)
	}
	e := &ECS{conn: conn, tables: tables, logf: logf, StopDelay: 2 * time.Second, url: "http://" + ln.Addr().String(), ctx: ctx}
	e.srv = &http.Server{Handler: e, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = e.srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = e.srv.Close()
	}()
	return e, nil
}

// Endpoint is the URL to give data.ConnOptions.ECSEndpoint.
func (e *ECS) Endpoint() string { return e.url }

// Stops lists the StopTask calls answered so far.
func (e *ECS) Stops() []StopRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]StopRecord(nil), e.stops...)
}

// Wait waits for the task-stopped writes in flight.
func (e *ECS) Wait() { e.wg.Wait() }

func (e *ECS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	target := r.Header.Get("X-Amz-Target")
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var in struct{ Cluster, Task, Reason string }
	switch {
	case r.Method != http.MethodPost || target != stopTaskTarget:
		ecsError(w, "UnknownOperationException", "the demo's ECS answers StopTask only")
		return
	case json.Unmarshal(raw, &in) != nil || in.Task == "":
		ecsError(w, "InvalidParameterException", "task is required")
		return
	}
	rec := StopRecord{At: time.Now(), Cluster: in.Cluster, Task: in.Task, Reason: in.Reason}
	e.mu.Lock()
	e.stops = append(e.stops, rec)
	i := len(e.stops) - 1
	e.mu.Unlock()
	e.logf("StopTask cluster=%s task=%s reason=%q", in.Cluster, in.Task, in.Reason)
	_ = json.NewEncoder(w).Encode(map[string]any{"task": map[string]any{
		"taskArn": in.Task, "clusterArn": in.Cluster, "lastStatus": "RUNNING", "desiredStatus": "STOPPED",
		"stopCode": "UserInitiated", "stoppedReason": in.Reason,
	}})
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		select {
		case <-time.After(e.StopDelay):
		case <-e.ctx.Done():
			return
		}
		id, err := e.taskStopped(e.ctx, in.Task, in.Reason)
		if err != nil {
			e.logf("task %s stopped, but the session was not updated: %v", in.Task, err)
			return
		}
		e.mu.Lock()
		e.stops[i].Session = id
		e.mu.Unlock()
	}()
}

func ecsError(w http.ResponseWriter, code, msg string) {
	w.Header().Set("X-Amzn-Errortype", code)
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": msg})
}

// taskStopped writes what the ecs-task-processor writes when the task
// reports STOPPED. The real processor knows the session from the task's
// tags; the demo looks the task up in its own small table.
func (e *ECS) taskStopped(ctx context.Context, task, reason string) (string, error) {
	id, err := e.sessionOfTask(ctx, task)
	if err != nil {
		return "", err
	}
	now := iso(time.Now())
	event := avM(Item{
		"eventType": avS("TaskStopped"),
		"timestamp": avS(now),
		"source":    avS("wallcrawler.ecs-task-processor"),
		"detail": avM(Item{
			"sessionId":     avS(id),
			"ecsTaskArn":    avS(task),
			"lastStatus":    avS("STOPPED"),
			"stopCode":      avS("UserInitiated"),
			"stoppedReason": avS(reason),
		}),
	})
	_, err = e.conn.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 aws.String(e.tables.Name(data.TableSessions)),
		Key:                       Item{"sessionId": avS(id)},
		UpdateExpression:          aws.String("SET eventHistory = list_append(if_not_exists(eventHistory, :empty), :ev), lastEventTimestamp = :now, updatedAt = :now REMOVE publicIP, connectUrl"),
		ConditionExpression:       aws.String("ecsTaskArn = :task"),
		ExpressionAttributeValues: Item{":empty": avL(), ":ev": avL(event), ":now": avS(now), ":task": avS(task)},
	})
	if err != nil {
		return "", err
	}
	e.logf("task %s of %s stopped", task, id)
	return id, nil
}

// sessionOfTask finds the demo session that runs task. A filtered scan of
// the demo's own sessions table: the demo plays AWS's machinery here, not
// the console, which never scans unasked.
func (e *ECS) sessionOfTask(ctx context.Context, task string) (string, error) {
	in := &dynamodb.ScanInput{
		TableName:                 aws.String(e.tables.Name(data.TableSessions)),
		FilterExpression:          aws.String("ecsTaskArn = :task"),
		ProjectionExpression:      aws.String("sessionId"),
		ExpressionAttributeValues: Item{":task": avS(task)},
		Limit:                     aws.Int32(data.BulkPageItems), // see BulkPageItems
	}
	for {
		out, err := e.conn.DB.Scan(ctx, in)
		if err != nil {
			return "", err
		}
		for _, it := range out.Items {
			if id := strAttr(it, "sessionId"); id != "" {
				return id, nil
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return "", errors.New("no session runs this task")
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

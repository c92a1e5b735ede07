package demo

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/ecs"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
)

// A StopTask sent to the demo's ECS is answered as ECS answers it and, once
// the task has "stopped", lands on the session as the ecs-task-processor
// would write it.
func TestDemoECSStopsTheTaskAndTheSessionShowsIt(t *testing.T) {
	ctx, conn, tables := testEnv(t)
	if _, err := conn.DB.CreateTable(ctx, CreateTableInput(data.MustSchema(data.TableSessions), tables.Name(data.TableSessions), false)); err != nil {
		t.Fatal(err)
	}
	const task = "arn:aws:ecs:us-east-1:123456789012:task/wallcrawler-browsers/abc"
	if _, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tables.Name(data.TableSessions)), Item: Item{
		"sessionId": avS("sess_demo"), "status": avS("COMPLETED"), "internalStatus": avS("STOPPED"),
		"ecsTaskArn": avS(task), "publicIP": avS("203.0.113.9"), "connectUrl": avS("wss://x"),
	}}); err != nil {
		t.Fatal(err)
	}
	e, err := StartECS(ctx, conn, tables, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	e.StopDelay = 0
	client, err := data.Connect(ctx, data.ConnOptions{Endpoint: ddblocal.TestEndpoint(t), Region: "us-east-1", ECSEndpoint: e.Endpoint()})
	if err != nil {
		t.Fatal(err)
	}
	out, err := mustECS(t, client).StopTask(ctx, &ecs.StopTaskInput{Cluster: aws.String("wallcrawler-browsers"), Task: aws.String(task), Reason: aws.String("by test")})
	if err != nil {
		t.Fatalf("StopTask: %v", err)
	}
	if aws.ToString(out.Task.DesiredStatus) != "STOPPED" || aws.ToString(out.Task.TaskArn) != task {
		t.Errorf("answer: %+v", out.Task)
	}
	e.Wait()
	stops := e.Stops()
	if len(stops) != 1 || stops[0].Session != "sess_demo" || stops[0].Reason != "by test" || stops[0].Cluster != "wallcrawler-browsers" {
		t.Fatalf("stops: %+v", stops)
	}
	got, err := conn.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(tables.Name(data.TableSessions)), Key: Item{"sessionId": avS("sess_demo")}, ConsistentRead: aws.Bool(true)})
	if err != nil {
		t.Fatal(err)
	}
	it := got.Item
	if it["publicIP"] != nil || it["connectUrl"] != nil {
		t.Errorf("the stopped task's address is still on the row: %v", it)
	}
	hist, _ := it["eventHistory"].(*types.AttributeValueMemberL)
	if hist == nil || len(hist.Value) != 1 {
		t.Fatalf("eventHistory: %v", it["eventHistory"])
	}
	ev := hist.Value[0].(*types.AttributeValueMemberM).Value
	if strAttr(ev, "eventType") != "TaskStopped" || strAttr(ev, "timestamp") != strAttr(it, "lastEventTimestamp") {
		t.Errorf("entry %v, lastEventTimestamp %s", ev, strAttr(it, "lastEventTimestamp"))
	}
	if _, err := time.Parse(time.RFC3339, strAttr(it, "lastEventTimestamp")); err != nil {
		t.Errorf("lastEventTimestamp: %v", err)
	}

	// Anything but StopTask is refused.
	if _, err := mustECS(t, client).ListClusters(ctx, &ecs.ListClustersInput{}); err == nil {
		t.Errorf("ListClusters answered")
	}
}

func mustECS(t *testing.T, c *data.Conn) *ecs.Client {
	t.Helper()
	e, err := c.ECSClient()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

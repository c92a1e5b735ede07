package ui

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/dbtest"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// The action tests write, so they never use the shared seeded world: they
// share one set of empty tables (created once per test binary) and each
// test writes its own tenants (project, user, track) into it, so no test
// sees another's rows.

var (
	actOnce   sync.Once
	actTables data.Tables
	actConn   *data.Conn
	actErr    error
	// actECS answers StopTask as ECS does (ECS has no emulator; this is
	// the one stand-in, and only for ECS): a release's second step.
	actECS *httptest.Server
)

// testTaskCluster is the cluster of every test session's task.
const testTaskCluster = "wallcrawler-browsers"

func taskArn(id string) string {
	return "arn:aws:ecs:us-east-1:123456789012:task/" + testTaskCluster + "/" + id
}

// releasedFlash is the status bar after a release of id whose task stop
// was accepted.
func releasedFlash(id string) string {
	return "released " + id + " ✓ · ECS task " + id + " in " + testTaskCluster + " is stopping"
}

func ecsStandIn() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Task string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		if r.Header.Get("X-Amz-Target") != "AmazonEC2ContainerServiceV20141113.StopTask" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"__type":"UnknownOperationException"}`))
			return
		}
		ecsStops.Lock()
		ecsStops.tasks = append(ecsStops.tasks, in.Task)
		ecsStops.Unlock()
		_ = json.NewEncoder(w).Encode(map[string]any{"task": map[string]any{"taskArn": in.Task, "desiredStatus": "STOPPED"}})
	}))
}

// ecsStops records every task the stand-in was asked to stop.
var ecsStops struct {
	sync.Mutex
	tasks []string
}

// stopsOf is how many StopTask named the task of session id.
func stopsOf(id string) int {
	ecsStops.Lock()
	defer ecsStops.Unlock()
	n := 0
	for _, t := range ecsStops.tasks {
		if t == taskArn(id) {
			n++
		}
	}
	return n
}

type actWorld struct {
	t      *testing.T
	ctx    context.Context
	conn   *data.Conn
	tables data.Tables
	tenant string // unique per test: project id, user id, track
	audit  string // this test's audit log
}

func newActWorld(t *testing.T) *actWorld {
	t.Helper()
	ep := ddblocal.TestEndpoint(t) // before the Once: it may end the test
	actOnce.Do(func() {
		actECS = ecsStandIn()
		w, err := dbtest.Shared(ep, dbtest.Options{Tag: "tact", Conn: data.ConnOptions{ECSEndpoint: actECS.URL}})
		if err != nil {
			actErr = err
			return
		}
		actConn, actTables = w.Conn, w.Tables
	})
	if actErr != nil {
		t.Fatalf("action tables: %v", actErr)
	}
	tenant := "t" + strconv.FormatInt(prefixSeq.Add(1), 10) + "-" + strings.ReplaceAll(t.Name(), "/", "_")
	return &actWorld{t: t, ctx: context.Background(), conn: actConn, tables: actTables, tenant: tenant,
		audit: filepath.Join(t.TempDir(), "audit.log")}
}

// options: the console over this test's tenant, a fixed clock and operator,
// its own audit log.
func (w *actWorld) options() Options {
	return Options{
		Store:     data.NewStore(w.conn, w.tables),
		Conn:      displayConn(w.conn),
		Tables:    w.tables,
		Env:       "dev",
		Theme:     themes.Dark(),
		Keys:      keymap.Default(),
		Now:       func() time.Time { return fixedNow },
		Actions:   action.Options{Operator: action.Operator{User: "alice@box", Profile: "test"}},
		AuditPath: w.audit,
		Scopes: Scopes{
			ProjectID: w.tenant, InboxUser: w.tenant, SandboxTrack: w.tenant, UserID: w.tenant,
		},
	}
}

// withClient: options whose every request goes through rt.
func (w *actWorld) withClient(rt http.RoundTripper, readOnly bool) Options {
	w.t.Helper()
	conn, err := data.Connect(w.ctx, data.ConnOptions{
		Endpoint: ddblocal.TestEndpoint(w.t), Region: "us-east-1",
		HTTPClient: &http.Client{Transport: rt}, ReadOnly: readOnly, ECSEndpoint: actECS.URL,
	})
	if err != nil {
		w.t.Fatal(err)
	}
	o := w.options()
	o.Store = data.NewStore(conn, w.tables)
	o.Conn = displayConn(conn)
	o.ReadOnly = readOnly
	return o
}

func (w *actWorld) put(table data.TableID, it data.Item) {
	w.t.Helper()
	_, err := w.conn.DB.PutItem(w.ctx, &dynamodb.PutItemInput{TableName: aws.String(w.tables.Name(table)), Item: it})
	if err != nil {
		w.t.Fatalf("put: %v", err)
	}
}

func (w *actWorld) get(table data.TableID, key data.Item) data.Item {
	w.t.Helper()
	out, err := w.conn.DB.GetItem(w.ctx, &dynamodb.GetItemInput{
		TableName: aws.String(w.tables.Name(table)), Key: key, ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		w.t.Fatalf("get: %v", err)
	}
	return out.Item
}

// set changes attributes behind the console's back (another operator).
func (w *actWorld) set(table data.TableID, key data.Item, attrs map[string]types.AttributeValue) data.Item {
	w.t.Helper()
	it := w.get(table, key)
	for k, v := range attrs {
		it[k] = v
	}
	w.put(table, it)
	return it
}

// auditEntries are the audit lines of the writes; stepEntries those of
// the steps after them (a release's stop-ecs-task).
func (w *actWorld) auditEntries() []action.AuditEntry { return w.auditLines(false) }
func (w *actWorld) stepEntries() []action.AuditEntry  { return w.auditLines(true) }

func (w *actWorld) auditLines(steps bool) []action.AuditEntry {
	w.t.Helper()
	es, err := action.ReadAudit(w.audit, 0)
	if err != nil {
		w.t.Fatalf("audit: %v", err)
	}
	var out []action.AuditEntry
	for _, e := range es {
		if (e.Step != "") == steps {
			out = append(out, e)
		}
	}
	return out
}

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nv(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// session puts a session of this test's project.
func (w *actWorld) session(id, status, internal string, created time.Time) data.Item {
	it := data.Item{
		"sessionId": sv(id), "status": sv(status), "internalStatus": sv(internal),
		"projectId": sv(w.tenant), "createdAt": sv(created.UTC().Format(time.RFC3339)),
		"updatedAt": sv(created.Add(5 * time.Second).UTC().Format(time.RFC3339)),
		"expiresAt": nv(fixedNow.Add(time.Hour).Unix()), "region": sv("us-east-1"),
		"ecsTaskArn": sv(taskArn(id)),
	}
	w.put(data.TableSessions, it)
	return it
}

func sessKey(id string) data.Item { return data.Item{"sessionId": sv(id)} }

// failedEvent puts a failed event of this test's user.
func (w *actWorld) failedEvent(id string, retries int64, at time.Time) data.Item {
	ts := at.UTC().Format("2006-01-02T15:04:05.000000Z")
	it := data.Item{
		"user_id": sv(w.tenant), "timestamp#event_id": sv(ts + "#" + id), "event_id": sv(id),
		"event_type": sv("order.completed"), "status": sv("failed"), "timestamp": sv(ts),
		"event_type#timestamp": sv("order.completed#" + ts), "status#timestamp": sv("failed#" + ts),
		"retry_count": nv(retries),
	}
	w.put(data.TableEvents, it)
	return it
}

// sandbox puts a sandbox allocated to this test's track `ago` before now
// for a 4 h lab.
func (w *actWorld) sandbox(id string, ago time.Duration) data.Item {
	at := fixedNow.Add(-ago).Unix()
	it := data.Item{
		"PK": sv("SBX#" + id), "SK": sv("META"), "sandbox_id": sv(id), "name": sv("lab-" + id),
		"status": sv("allocated"), "lab_duration_hours": nv(4), "deletion_retry_count": nv(0),
		"allocated_at": nv(at), "allocated_to_track": sv(w.tenant), "idempotency_key": sv(w.tenant + id),
		"created_at": nv(at - 3600), "updated_at": nv(at),
	}
	w.put(data.TableSandboxes, it)
	return it
}

func sbKey(id string) data.Item { return data.Item{"PK": sv("SBX#" + id), "SK": sv("META")} }

func strAttr(it data.Item, name string) string { return attr(it, name) }

package action

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo/ddblocal"
	"opsdeck/internal/dbtest"
)

func TestMain(m *testing.M) { os.Exit(ddblocal.RunTests(m)) }

// world is one test's private set of tables on the shared DynamoDB Local.
type world struct {
	t      *testing.T
	ctx    context.Context
	conn   *data.Conn
	tables data.Tables
	now    time.Time
	exec   *Executor
}

// newWorld connects to DynamoDB Local and creates the given tables from
// data.Schemas() under a prefix no other test uses (the seed's stream
// settings are kept; these tests read no stream). The executor's clock is
// fixed at w.now (whole seconds, as the sandbox table stores them).
func newWorld(t *testing.T, ids ...data.TableID) *world {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	conn := dbtest.Connect(t, data.ConnOptions{})
	w := &world{t: t, ctx: ctx, conn: conn, tables: dbtest.Tables(t, "dev", "act"), now: time.Now().Truncate(time.Second)}
	if len(ids) > 0 { // none: no table (dbtest.Create would make all ten)
		dbtest.Create(t, conn, w.tables, false, ids...)
	}
	w.exec = &Executor{Conn: conn, Tables: w.tables, Env: "dev", Now: func() time.Time { return w.now }}
	return w
}

func (w *world) put(id data.TableID, item data.Item) {
	w.t.Helper()
	if _, err := w.conn.DB.PutItem(w.ctx, &dynamodb.PutItemInput{TableName: aws.String(w.tables.Name(id)), Item: item}); err != nil {
		w.t.Fatalf("put: %v", err)
	}
}

// get reads an item strongly consistently (nil when absent).
func (w *world) get(id data.TableID, key data.Item) data.Item {
	w.t.Helper()
	out, err := w.conn.DB.GetItem(w.ctx, &dynamodb.GetItemInput{TableName: aws.String(w.tables.Name(id)), Key: key, ConsistentRead: aws.Bool(true)})
	if err != nil {
		w.t.Fatalf("get: %v", err)
	}
	return out.Item
}

// update applies a raw change behind the operator's back ("another writer").
func (w *world) update(id data.TableID, key data.Item, expr string, names map[string]string, values data.Item) {
	w.t.Helper()
	in := &dynamodb.UpdateItemInput{TableName: aws.String(w.tables.Name(id)), Key: key, UpdateExpression: aws.String(expr), ExpressionAttributeNames: names}
	if len(values) > 0 {
		in.ExpressionAttributeValues = values
	}
	if _, err := w.conn.DB.UpdateItem(w.ctx, in); err != nil {
		w.t.Fatalf("concurrent writer: %v", err)
	}
}

func (w *world) del(id data.TableID, key data.Item) {
	w.t.Helper()
	if _, err := w.conn.DB.DeleteItem(w.ctx, &dynamodb.DeleteItemInput{TableName: aws.String(w.tables.Name(id)), Key: key}); err != nil {
		w.t.Fatalf("delete: %v", err)
	}
}

// plan builds a plan from the item as stored now (what the operator sees).
func (w *world) plan(kind Kind, key data.Item, opts Options) Plan {
	w.t.Helper()
	spec, _ := kind.Spec()
	seen := w.get(spec.Table, key)
	if seen == nil {
		w.t.Fatalf("no item to plan on")
	}
	if opts.Operator.User == "" {
		opts.Operator = Operator{User: "tester@ci", Profile: "test"}
	}
	p, err := PlanFor(kind, seen, w.now, opts)
	if err != nil {
		w.t.Fatalf("PlanFor(%s): %v", kind, err)
	}
	return p
}

// ---- small value helpers for tests ----

func S(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func N(n int64) types.AttributeValue  { return nv(n) }

func attrS(t *testing.T, it data.Item, name string) string {
	t.Helper()
	v, ok := it[name].(*types.AttributeValueMemberS)
	if !ok {
		t.Fatalf("%s: want S, got %s (%v)", name, data.TypeName(it[name]), it[name])
	}
	return v.Value
}

func attrN(t *testing.T, it data.Item, name string) string {
	t.Helper()
	v, ok := it[name].(*types.AttributeValueMemberN)
	if !ok {
		t.Fatalf("%s: want N, got %s (%v)", name, data.TypeName(it[name]), it[name])
	}
	return v.Value
}

// sameItem compares two items attribute by attribute with DynamoDB equality
// (lists and maps recursively).
func sameItem(a, b data.Item) bool {
	return data.EqualValues(&types.AttributeValueMemberM{Value: a}, &types.AttributeValueMemberM{Value: b})
}

// expectGuardFailure checks a Result is a guard failure on the named clause
// with the given failure kind and a message containing want.
func expectGuardFailure(t *testing.T, r Result, clause string, why Failure, want string) {
	t.Helper()
	if r.OK || r.Refusal == nil || r.Err != nil {
		t.Fatalf("want guard failure, got OK=%v Refusal=%v Err=%v Message=%q", r.OK, r.Refusal, r.Err, r.Message)
	}
	if r.Refusal.Clause != clause {
		t.Errorf("failed clause = %q, want %q (message %q)", r.Refusal.Clause, clause, r.Message)
	}
	if r.Refusal.Failure != why {
		t.Errorf("failure = %q, want %q (message %q)", r.Refusal.Failure, why, r.Message)
	}
	if r.Message != r.Refusal.Error() || !sameItem(r.Current, r.Refusal.Current) {
		t.Errorf("message %q is not the refusal's %q, or the items differ", r.Message, r.Refusal.Error())
	}
	// "…" in want stands for a part that varies (a local clock time).
	rest := r.Message
	for _, part := range strings.Split(want, "…") {
		i := strings.Index(rest, part)
		if i < 0 {
			t.Errorf("message %q does not contain %q (in order)", r.Message, want)
			return
		}
		rest = rest[i+len(part):]
	}
}

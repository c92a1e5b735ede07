package stream

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

// A table whose stream reads the policy refuses falls back to polling,
// saying which read was refused and on what, while the other table keeps
// streaming (its writes still arrive as records); once the policy allows
// the reads again, the table is live again without a restart. Each stream
// read the reader makes is refused in turn, in front of the real DynamoDB
// Local.
func TestDeniedStreamFallsBackToPolling(t *testing.T) {
	for _, op := range []string{"DescribeTable", "DescribeStream", "GetShardIterator", "GetRecords"} {
		t.Run(op, func(t *testing.T) {
			setup := testConn(t, "", data.ConnOptions{})
			tables := testTables(t, setup, data.TableSessions, data.TableEvents)
			name := tables.Name(data.TableEvents)
			deny := streamtest.NewDeny(name, op)
			conn := testConn(t, "", data.ConnOptions{HTTPClient: deny.Client()})
			sink := newCollectSink()
			ids := []data.TableID{data.TableSessions, data.TableEvents}
			startTailer(t, conn, tables, comeBackOptions(ids), sink)

			sink.waitFor(t, 30*time.Second, "events polling, sessions live", func() bool {
				return sink.lastState(data.TableEvents) == StatePolling && sink.lastState(data.TableSessions) == StateLive
			})
			_, health := sink.snapshot()
			var h Health
			for _, x := range health {
				if x.Table == data.TableEvents && x.State == StatePolling {
					h = x
				}
			}
			service := "dynamodbstreams:"
			if op == "DescribeTable" {
				service = "dynamodb:"
			}
			want := "stream not allowed: " + service + op + " on table/" + name
			if !h.NotAllowed || !strings.HasPrefix(h.Detail, want) || !strings.HasSuffix(h.Detail, "; polling") {
				t.Errorf("health %+v, want NotAllowed and detail %q…; polling", h, want)
			}
			if deny.Denied(op) == 0 {
				t.Fatalf("no %s was refused: the test did not test", op)
			}

			// The other table keeps streaming.
			put := func(table data.TableID, item data.Item) {
				t.Helper()
				if _, err := setup.DB.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(tables.Name(table)), Item: item}); err != nil {
					t.Fatal(err)
				}
			}
			s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
			put(data.TableSessions, data.Item{"sessionId": s("sess_after_denial"), "status": s("RUNNING")})
			sink.waitFor(t, 30*time.Second, "the other table's record", func() bool {
				for _, r := range sink.recs {
					if r.Table == data.TableSessions && strings.Contains(r.Keys["sessionId"].(*types.AttributeValueMemberS).Value, "sess_after_denial") {
						return true
					}
				}
				return false
			})

			// The policy fixed: live again, and its writes arrive.
			deny.Arm(false)
			sink.waitFor(t, 30*time.Second, "events live again", func() bool { return sink.lastState(data.TableEvents) == StateLive })
			put(data.TableEvents, data.Item{"user_id": s("u1"), "timestamp#event_id": s("2026-11-27T12:00:00Z#ev_after_fix")})
			sink.waitFor(t, 30*time.Second, "the fixed table's record", func() bool {
				for _, r := range sink.recs {
					if r.Table == data.TableEvents {
						return true
					}
				}
				return false
			})
		})
	}
}

package stream

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// TestStreamDisabledIsOff: disabling a table's stream closes its shard; the
// reader delivers what was written before, then reports "off" saying why.
func TestStreamDisabledIsOff(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableSessions)
	sink := newCollectSink()
	ids := []data.TableID{data.TableSessions}
	startTailer(t, conn, tables, Options{Tables: ids}, sink)
	waitLive(t, sink, ids)

	w := newWorkload(conn, tables, 2)
	for i := 0; i < 10; i++ {
		if err := w.Step(context.Background(), data.TableSessions, 3); err != nil {
			t.Fatal(err)
		}
	}
	_, err := conn.DB.UpdateTable(context.Background(), &dynamodb.UpdateTableInput{
		TableName:           aws.String(tables.Name(data.TableSessions)),
		StreamSpecification: &ddb.StreamSpecification{StreamEnabled: aws.Bool(false)},
	})
	if err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, 30*time.Second, "off", func() bool { return sink.lastState(data.TableSessions) == StateOff })
	got, health := sink.snapshot()
	verifyExactly(t, got, w.Wants)
	last := health[len(health)-1]
	if !strings.Contains(last.Detail, "disabled") {
		t.Errorf("off detail should say the stream was disabled: %q", last.Detail)
	}
}

// TestTableDeletedIsOff: DynamoDB Local keeps serving a deleted table's
// stream, so the periodic table check is what notices; the reader stops
// with "off".
func TestTableDeletedIsOff(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableEvents)
	sink := newCollectSink()
	ids := []data.TableID{data.TableEvents}
	startTailer(t, conn, tables, Options{Tables: ids, TableCheckInterval: 300 * time.Millisecond}, sink)
	waitLive(t, sink, ids)
	if _, err := conn.DB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(tables.Name(data.TableEvents))}); err != nil {
		t.Fatal(err)
	}
	sink.waitFor(t, 30*time.Second, "off", func() bool { return sink.lastState(data.TableEvents) == StateOff })
	_, health := sink.snapshot()
	if d := health[len(health)-1].Detail; !strings.Contains(d, "deleted") && !strings.Contains(d, "does not exist") {
		t.Errorf("off detail should say the table is gone: %q", d)
	}
}

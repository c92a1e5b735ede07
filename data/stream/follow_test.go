package stream

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/internal/dbtest"
)

// TestFollowUnmodeledTable: a table no pane models, followed while Run
// runs, goes live and delivers its writes under its unmodeled id and
// physical name, with the demand rules of a configured table; unfollowed,
// it leaves the tailed set, and followed again it is read again.
func TestFollowUnmodeledTable(t *testing.T) {
	conn := testConn(t, "", data.ConnOptions{})
	tables := testTables(t, conn, data.TableEvents)
	ctx := context.Background()
	name := dbtest.Prefix("follow") + "t"
	if _, err := conn.DB.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest,
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("k"), KeyType: types.KeyTypeHash}},
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("k"), AttributeType: "S"}},
		StreamSpecification:  &types.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: types.StreamViewTypeNewImage},
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = conn.DB.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	id := data.UnmodeledID(name)
	sink := newCollectSink()
	tl := startTailer(t, conn, tables, Options{Tables: []data.TableID{data.TableEvents}}, sink)
	waitLive(t, sink, []data.TableID{data.TableEvents})

	tl.SetDemand([]data.TableID{data.TableEvents})
	tl.Follow(id, name)
	tl.Follow(id, name) // twice is once
	if got := tl.Following(); !slices.Equal(got, []data.TableID{id}) {
		t.Fatalf("Following = %v", got)
	}
	if rate := tl.Demand()[id]; rate != tl.Options().Background {
		t.Errorf("a followed table off screen reads at %v, want the background rate %v", rate, tl.Options().Background)
	}
	tl.SetDemand([]data.TableID{id})
	if rate := tl.Demand()[id]; rate != RateFull || !slices.Contains(tl.FullRate(), id) {
		t.Errorf("a wanted followed table reads at %v", rate)
	}
	waitLive(t, sink, []data.TableID{id})

	put := func(k string) {
		t.Helper()
		if _, err := conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(name),
			Item: data.Item{"k": data.S(k), "v": data.N(1)}}); err != nil {
			t.Fatal(err)
		}
	}
	got := func(k string) func() bool {
		return func() bool {
			return slices.ContainsFunc(sink.recs, func(r Record) bool {
				return r.Table == id && r.TableName == name && r.EventName == "INSERT" && data.EqualValues(r.New["k"], data.S(k))
			})
		}
	}
	put("a")
	sink.waitFor(t, 30*time.Second, "the followed table's insert", got("a"))

	tl.Unfollow(id)
	if _, tailed := tl.Demand()[id]; tailed || len(tl.Following()) != 0 {
		t.Errorf("unfollowed table still tailed: %v %v", tl.Demand(), tl.Following())
	}
	_, health := sink.snapshot()
	from := len(health)
	tl.Follow(id, "")
	sink.waitFor(t, 30*time.Second, "live again", func() bool { return sink.sawState(id, StateLive, from) })
	put("b")
	sink.waitFor(t, 30*time.Second, "the insert after following again", got("b"))
}

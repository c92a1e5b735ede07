package stream

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

func TestSeqAfterComparesAsNumbers(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"2", "", true},
		{"10", "9", true}, // string order would say false
		{"9", "10", false},
		{"000000000000000000010", "9", true}, // DynamoDB Local pads, AWS does not
		{"5", "5", false},
		{"49590338271490256608559692538361571095921575989136588898", "49590338271490256608559692538361571095921575989136588897", true},
		{"", "5", false}, // a record without a number never passes a known one
	}
	for _, c := range cases {
		if got := seqAfter(c.a, c.b); got != c.want {
			t.Errorf("seqAfter(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// recSink collects records for the delivery unit tests.
type recSink struct{ recs []Record }

func (s *recSink) Records(r []Record) { s.recs = append(s.recs, r...) }
func (s *recSink) Health(Health)      {}

func streamRec(seq, event string, ttl bool) st.Record {
	r := st.Record{
		EventName: st.OperationType(event),
		Dynamodb: &st.StreamRecord{
			SequenceNumber:              aws.String(seq),
			ApproximateCreationDateTime: aws.Time(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)),
			Keys:                        map[string]st.AttributeValue{"sessionId": &st.AttributeValueMemberS{Value: "s1"}},
			NewImage: map[string]st.AttributeValue{
				"sessionId": &st.AttributeValueMemberS{Value: "s1"},
				"m": &st.AttributeValueMemberM{Value: map[string]st.AttributeValue{
					"l":  &st.AttributeValueMemberL{Value: []st.AttributeValue{&st.AttributeValueMemberN{Value: "1"}, &st.AttributeValueMemberNULL{Value: true}}},
					"ss": &st.AttributeValueMemberSS{Value: []string{"a", "b"}},
					"bs": &st.AttributeValueMemberBS{Value: [][]byte{{1}}},
					"ns": &st.AttributeValueMemberNS{Value: []string{"2"}},
					"b":  &st.AttributeValueMemberB{Value: []byte{0xff}},
					"t":  &st.AttributeValueMemberBOOL{Value: true},
				}},
			},
		},
	}
	if ttl {
		r.UserIdentity = &st.Identity{Type: aws.String("Service"), PrincipalId: aws.String("dynamodb.amazonaws.com")}
	}
	return r
}

// TestDeliverConvertsAndDedupes: stream attribute values become dynamodb
// ones (every type, nested), TTL deletes are flagged, and a batch read
// twice (a retried or replayed GetRecords) is delivered once.
func TestDeliverConvertsAndDedupes(t *testing.T) {
	sink := &recSink{}
	tr := &tableReader{id: data.TableSessions, name: "phys", sink: sink, t: &Tailer{opts: Options{}.withDefaults()}}
	s := &shardReader{tr: tr, id: "shard-1"}
	batch := []st.Record{streamRec("9", "INSERT", false), streamRec("10", "REMOVE", true)}
	s.deliver(batch)
	s.deliver(batch)                                                                          // replayed
	s.deliver([]st.Record{streamRec("10", "REMOVE", true), streamRec("11", "MODIFY", false)}) // overlapping
	if len(sink.recs) != 3 {
		t.Fatalf("got %d records, want 3 (9, 10, 11 once each)", len(sink.recs))
	}
	for i, want := range []string{"9", "10", "11"} {
		if sink.recs[i].Seq != want {
			t.Errorf("record %d: seq %s, want %s", i, sink.recs[i].Seq, want)
		}
	}
	r := sink.recs[0]
	if r.Table != data.TableSessions || r.TableName != "phys" || r.Shard != "shard-1" || r.EventName != "INSERT" || r.TTL {
		t.Errorf("metadata: %+v", r)
	}
	if !sink.recs[1].TTL || sink.recs[2].TTL {
		t.Errorf("TTL flags: %v %v", sink.recs[1].TTL, sink.recs[2].TTL)
	}
	want := `{"m":M{"b":Bff,"bs":BS[01],"l":L[N1,NULL,],"ns":NS[2],"ss":SS["a" "b"],"t":BOOLtrue,},"sessionId":S"s1",}`
	if got := streamtest.Canon(r.New); got != want {
		t.Errorf("converted image:\n got %s\nwant %s", got, want)
	}
	if r.Old != nil {
		t.Errorf("no old image in the stream record, got %v", r.Old)
	}
}

func TestOptionsDefaultsAndLimits(t *testing.T) {
	o := Options{PollInterval: time.Millisecond, Limit: 5000}.withEndpoint("http://127.0.0.1:8000")
	if o.PollInterval != minPollGap || o.Etiquette != EtiquetteLocal {
		t.Errorf("poll interval %v: more than 4 calls/s per shard", o.PollInterval)
	}
	for _, ep := range []string{"", "https://dynamodb.us-east-1.amazonaws.com", "https://streams.dynamodb.eu-west-1.amazonaws.com"} {
		aws := Options{PollInterval: 250 * time.Millisecond}.withEndpoint(ep)
		if aws.Etiquette != EtiquetteShared || aws.PollInterval < sharedPollGap || aws.IdlePollMax < sharedPollGap {
			t.Errorf("endpoint %q: etiquette %d, poll %v, idle max %v: a shard shared with a consumer polling 4/s must not be read more than 0.8/s",
				ep, aws.Etiquette, aws.PollInterval, aws.IdlePollMax)
		}
	}
	if o.Limit != 1000 {
		t.Errorf("limit %d, want 1000", o.Limit)
	}
	if len(o.Tables) != len(data.TableIDs()) {
		t.Errorf("default tables: %v", o.Tables)
	}
}

func TestBackoffGrowsWithJitterAndCaps(t *testing.T) {
	b := backoff{base: 100 * time.Millisecond, max: time.Second}
	prevMax := time.Duration(0)
	for i := 1; i <= 8; i++ {
		d := b.next()
		ceil := 100 * time.Millisecond << (i - 1)
		if ceil > time.Second {
			ceil = time.Second
		}
		if d < ceil/2 || d > ceil {
			t.Errorf("attempt %d: %v outside [%v, %v]", i, d, ceil/2, ceil)
		}
		prevMax = ceil
	}
	if prevMax != time.Second {
		t.Errorf("backoff did not reach its cap")
	}
	b.reset()
	if d := b.next(); d > 100*time.Millisecond {
		t.Errorf("after reset: %v", d)
	}
}

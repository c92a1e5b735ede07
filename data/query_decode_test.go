package data

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// hostileItems are sessions whose values hold everything a JSON string and
// an AttributeValue can: escapes, control bytes, terminal sequences,
// characters outside the BMP, every type, nesting.
func hostileItems(project string) []Item {
	texts := []string{
		"plain", "", `quote " and backslash \ and slash /`, "tab\tnew\nline\rcr\bbs\ffeed",
		"\x00nul\x01\x1f", "\x1b[31mred\x1b[0m \x1b]52;c;aGk=\x07", "é ü 漢字 🚀 \U0010FFFF", "\u2028\u2029\ufeff",
		strings.Repeat("long ", 2000),
	}
	var items []Item
	for i, s := range texts {
		items = append(items, Item{
			"sessionId": S(fmt.Sprintf("sess_%02d", i)), "projectId": S(project), "status": S("RUNNING"),
			"createdAt": S(fmt.Sprintf("2026-11-27T00:00:%02dZ", i)),
			"text":      S(s),
			"n":         &types.AttributeValueMemberN{Value: "-1.5E+3"},
			"b":         &types.AttributeValueMemberB{Value: []byte(s + "\xff\x00")},
			"ok":        &types.AttributeValueMemberBOOL{Value: i%2 == 0},
			"nothing":   &types.AttributeValueMemberNULL{Value: true},
			"ss":        &types.AttributeValueMemberSS{Value: []string{"a" + s, "b"}},
			"ns":        &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
			"bs":        &types.AttributeValueMemberBS{Value: [][]byte{{1, 2}, {0xff}}},
			"l":         &types.AttributeValueMemberL{Value: []types.AttributeValue{S(s), N(7), &types.AttributeValueMemberL{Value: []types.AttributeValue{}}}},
			"m": &types.AttributeValueMemberM{Value: Item{
				s + "key": S("v"), "inner": &types.AttributeValueMemberM{Value: Item{}}, "deep": nested(20),
			}},
			"x": S(s),
		})
	}
	return items
}

// tap keeps the bodies of the Query answers that pass through it.
type tap struct {
	mu     sync.Mutex
	bodies [][]byte
}

func (t *tap) keep(op string, _ int, body []byte) []byte {
	if op == "Query" {
		t.mu.Lock()
		t.bodies = append(t.bodies, bytes.Clone(body))
		t.mu.Unlock()
	}
	return body
}

// queryBoth runs the same Query through the console's client (decoded by
// queryProtocol) and through a client with the SDK's own decoder, on the
// same connection.
func queryBoth(t *testing.T, conn *Conn, in *dynamodb.QueryInput) (ours, sdk *dynamodb.QueryOutput, errOurs, errSDK error) {
	t.Helper()
	if _, ok := conn.DB.Options().Protocol.(queryProtocol); !ok {
		t.Fatalf("the console's client decodes with %T", conn.DB.Options().Protocol)
	}
	// New sets the SDK's protocol before applying options: this client
	// decodes as the SDK does.
	plain := dynamodb.New(conn.DB.Options())
	if _, ok := plain.Options().Protocol.(queryProtocol); ok {
		t.Fatal("the comparison client decodes with queryProtocol")
	}
	ctx := context.Background()
	ours, errOurs = conn.DB.Query(ctx, in)
	sdk, errSDK = plain.Query(ctx, in)
	return
}

func sameOutput(t *testing.T, what string, ours, sdk *dynamodb.QueryOutput) {
	t.Helper()
	if !reflect.DeepEqual(ours.Items, sdk.Items) {
		for i := range min(len(ours.Items), len(sdk.Items)) {
			if !reflect.DeepEqual(ours.Items[i], sdk.Items[i]) {
				t.Fatalf("%s: item %d differs:\nours %#v\nsdk  %#v", what, i, ours.Items[i], sdk.Items[i])
			}
		}
		t.Fatalf("%s: %d items, the SDK %d", what, len(ours.Items), len(sdk.Items))
	}
	if !reflect.DeepEqual(ours.LastEvaluatedKey, sdk.LastEvaluatedKey) || ours.Count != sdk.Count || ours.ScannedCount != sdk.ScannedCount ||
		!reflect.DeepEqual(ours.ConsumedCapacity, sdk.ConsumedCapacity) {
		t.Fatalf("%s: ours %+v %+v, the SDK's %+v %+v", what, ours.LastEvaluatedKey, ours.ConsumedCapacity, sdk.LastEvaluatedKey, sdk.ConsumedCapacity)
	}
}

// TestQueryDecodeIsTheSDKs: the answers of the real server, hostile values
// and all, decode to exactly what the SDK's own decoder makes of them —
// and they are decoded by queryProtocol, not handed back to the SDK.
func TestQueryDecodeIsTheSDKs(t *testing.T) {
	tp := &tap{}
	db := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: &faultTransport{rewrite: tp.keep}}})
	db.put(TableSessions, hostileItems("p1")...)
	name := db.tables.Name(TableSessions)
	for _, limit := range []int32{3, 100} {
		in := &dynamodb.QueryInput{
			TableName: aws.String(name), IndexName: aws.String(IndexSessionsByProject),
			KeyConditionExpression:    aws.String("projectId = :p"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":p": S("p1")},
			Limit:                     aws.Int32(limit), ReturnConsumedCapacity: types.ReturnConsumedCapacityIndexes,
		}
		for page := 1; ; page++ {
			tp.bodies = nil
			ours, sdk, errOurs, errSDK := queryBoth(t, db.conn, in)
			if errOurs != nil || errSDK != nil {
				t.Fatalf("limit %d page %d: %v / %v", limit, page, errOurs, errSDK)
			}
			what := fmt.Sprintf("limit %d page %d", limit, page)
			sameOutput(t, what, ours, sdk)
			if len(tp.bodies) != 2 {
				t.Fatalf("%s: %d answers tapped", what, len(tp.bodies))
			}
			if !decodeQuery(tp.bodies[0], &dynamodb.QueryOutput{}) {
				t.Fatalf("%s: the server's answer was handed to the SDK's decoder:\n%.400s", what, tp.bodies[0])
			}
			if ours.LastEvaluatedKey == nil {
				break
			}
			in.ExclusiveStartKey = ours.LastEvaluatedKey
		}
		in.ExclusiveStartKey = nil
	}
}

// TestQueryDecodeHandsTheRestToTheSDK: answers the decoder does not take —
// a null, a field it does not know, bytes that are not UTF-8, a lone
// surrogate, a cut body — come out exactly as the SDK's decoder makes
// them, an error where it fails.
func TestQueryDecodeHandsTheRestToTheSDK(t *testing.T) {
	var mu sync.Mutex
	var rewrite func([]byte) []byte
	ft := &faultTransport{rewrite: func(op string, _ int, body []byte) []byte {
		mu.Lock()
		defer mu.Unlock()
		if op != "Query" || rewrite == nil {
			return body
		}
		return rewrite(body)
	}}
	db := newTestDB(t, ConnOptions{HTTPClient: &http.Client{Transport: ft}})
	db.put(TableSessions, hostileItems("p1")[:3]...)
	in := &dynamodb.QueryInput{
		TableName: aws.String(db.tables.Name(TableSessions)), IndexName: aws.String(IndexSessionsByProject),
		KeyConditionExpression:    aws.String("projectId = :p"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":p": S("p1")},
	}
	cases := map[string]func([]byte) []byte{
		"a null value":  func(b []byte) []byte { return bytes.Replace(b, []byte(`{"S":"plain"}`), []byte(`null`), 1) },
		"a null string": func(b []byte) []byte { return bytes.Replace(b, []byte(`{"S":"plain"}`), []byte(`{"S":null}`), 1) },
		"an unknown field": func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"Count"`), []byte(`"Extra":{"a":[1,2]},"Count"`), 1)
		},
		"an unknown type": func(b []byte) []byte { return bytes.Replace(b, []byte(`{"S":"plain"}`), []byte(`{"Q":"plain"}`), 1) },
		"two types": func(b []byte) []byte {
			return bytes.Replace(b, []byte(`{"S":"plain"}`), []byte(`{"S":"plain","N":"1"}`), 1)
		},
		"bytes not UTF-8":   func(b []byte) []byte { return bytes.Replace(b, []byte(`plain`), []byte("pl\xffin"), 1) },
		"a lone surrogate":  func(b []byte) []byte { return bytes.Replace(b, []byte(`plain`), []byte(`pl\ud800in`), 1) },
		"an escaped key":    func(b []byte) []byte { return bytes.Replace(b, []byte(`"text"`), []byte(`"te\u0078t"`), 1) },
		"a cut body":        func(b []byte) []byte { return b[:len(b)/2] },
		"not JSON":          func([]byte) []byte { return []byte("<html>proxy error</html>") },
		"an empty body":     func([]byte) []byte { return nil },
		"only whitespace":   func([]byte) []byte { return []byte(" \n ") },
		"a float count":     func(b []byte) []byte { return bytes.Replace(b, []byte(`"Count":3`), []byte(`"Count":3.0`), 1) },
		"bad base64":        func(b []byte) []byte { return bytes.Replace(b, []byte(`{"BS":["`), []byte(`{"BS":["!`), 1) },
		"whitespace around": func(b []byte) []byte { return append(append([]byte(" \n"), b...), "\t "...) },
	}
	for name, rw := range cases {
		mu.Lock()
		rewrite = rw
		mu.Unlock()
		ours, sdk, errOurs, errSDK := queryBoth(t, db.conn, in)
		if (errOurs == nil) != (errSDK == nil) {
			t.Fatalf("%s: ours %v, the SDK's %v", name, errOurs, errSDK)
		}
		if errOurs == nil {
			sameOutput(t, name, ours, sdk)
		}
	}
}

// The decoder never panics, whatever the body; what it takes, it takes
// whole (decodeQuery's false leaves the decision to the SDK).
func FuzzDecodeQuery(f *testing.F) {
	f.Add([]byte(`{"Count":1,"Items":[{"a":{"S":"x\u00e9\ud83d\ude80"},"b":{"L":[{"N":"1"},{"M":{}}]}}],"ScannedCount":1}`))
	f.Add([]byte(`{"Items":[{"a":{"BS":["AQI="]},"b":{"NULL":true},"c":{"BOOL":false}}],"LastEvaluatedKey":{"k":{"S":"v"}}}`))
	f.Add([]byte(`{"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5,"Table":{"CapacityUnits":0.5},"GlobalSecondaryIndexes":{"i":{"ReadCapacityUnits":1}}}}`))
	f.Add([]byte(`{"Items":[{"a":{"S":"\"\\\/\b\f\n\r\t"}}]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var q dynamodb.QueryOutput
		if decodeQuery(body, &q) {
			for _, it := range q.Items {
				for k := range it {
					if !utf8.ValidString(k) {
						t.Fatalf("took a name that is not UTF-8: %q", k)
					}
				}
			}
		}
	})
}

// sessionsPage is a Query answer as DynamoDB sends it for a page of n
// sessions read with the Sessions list's projection.
func sessionsPage(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"Count":%d,"Items":[`, n)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"sessionId":{"S":"sess_b%014d"},"status":{"S":"RUNNING"},"internalStatus":{"S":"READY"},`+
			`"projectId":{"S":"bench-100k"},"createdAt":{"S":"2026-11-26T22:%02d:%02dZ"},"expiresAt":{"N":"17957%05d"},`+
			`"region":{"S":"us-east-1"},"keepAlive":{"BOOL":%v},"retryCount":{"N":"%d"}}`, i, i/60%60, i%60, i, i%3 == 0, i%4)
	}
	b.WriteString(`],"ScannedCount":` + fmt.Sprint(n) + `,"LastEvaluatedKey":{"sessionId":{"S":"sess_b00000000000999"},"projectId":{"S":"bench-100k"},"createdAt":{"S":"2026-11-26T22:16:39Z"}}}`)
	return []byte(b.String())
}

// BenchmarkDecodeQuery decodes one load-all page (1,000 projected
// sessions) the way queryProtocol does. No database: the answer is built
// here.
func BenchmarkDecodeQuery(b *testing.B) {
	body := sessionsPage(1000)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var q dynamodb.QueryOutput
		if !decodeQuery(body, &q) || len(q.Items) != 1000 {
			b.Fatal("the page was not decoded")
		}
	}
}

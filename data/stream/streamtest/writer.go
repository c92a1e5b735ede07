package streamtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Want is one stream record, reduced to what a comparison needs: the table,
// the key and the images in Canon form ("" = no image), and the event name.
type Want struct {
	Table    data.TableID
	Key      string
	Event    string
	Old, New string
}

// Writer makes random inserts, modifies and removes on stream tables and
// keeps the ground truth of the records they must produce. The images come
// from the writes' own ReturnValues and a consistent read, i.e. from the
// database, not from a model of it.
type Writer struct {
	conn   *data.Conn
	tables data.Tables
	rng    *rand.Rand
	live   map[data.TableID]map[string]bool
	serial int

	// Attrs, when set, adds attributes to every inserted item (e.g. the
	// projectId that puts a session in a pane's scope).
	Attrs func(id data.TableID, n int) data.Item
	// AllTypes, when set, makes inserted items also carry a binary
	// attribute and, inside payload, a list of a non-ASCII string and a
	// bool, so a check of the records covers the conversion of those types.
	AllTypes bool
	// Wants is the ground truth so far, in write order.
	Wants []Want
}

// NewWriter writes through conn to tables; seed fixes the sequence of writes.
func NewWriter(conn *data.Conn, tables data.Tables, seed uint64) *Writer {
	return &Writer{conn: conn, tables: tables, rng: rand.New(rand.NewPCG(seed, 7)), live: map[data.TableID]map[string]bool{}}
}

// KeyFor is the key of item number n of a table.
func KeyFor(id data.TableID, n int) data.Item {
	s := data.MustSchema(id)
	k := data.Item{s.PK.Name: &ddb.AttributeValueMemberS{Value: fmt.Sprintf("%s-%03d", id, n)}}
	if s.SK != nil {
		k[s.SK.Name] = &ddb.AttributeValueMemberS{Value: fmt.Sprintf("2026-11-21T12:00:%02d#%d", n%60, n)}
	}
	return k
}

// Exists reports whether the writer's item for key canon kc is in the table.
func (w *Writer) Exists(id data.TableID, kc string) bool { return w.live[id][kc] }

// Step makes one write to table id on one of nkeys keys: an insert if the
// key is absent, else a modify (2 in 3) or a remove.
func (w *Writer) Step(ctx context.Context, id data.TableID, nkeys int) error {
	n := w.rng.IntN(nkeys)
	keys := KeyFor(id, n)
	kc := Canon(keys)
	name := aws.String(w.tables.Name(id))
	if w.live[id] == nil {
		w.live[id] = map[string]bool{}
	}
	w.serial++
	view := data.MustSchema(id).Stream
	switch {
	case !w.live[id][kc]:
		item := data.Item{
			"status":  &ddb.AttributeValueMemberS{Value: "CREATING"},
			"n":       &ddb.AttributeValueMemberN{Value: "0"},
			"payload": &ddb.AttributeValueMemberM{Value: data.Item{"serial": &ddb.AttributeValueMemberN{Value: fmt.Sprint(w.serial)}}},
		}
		if w.AllTypes {
			item["payload"].(*ddb.AttributeValueMemberM).Value["tags"] = &ddb.AttributeValueMemberL{Value: []ddb.AttributeValue{&ddb.AttributeValueMemberS{Value: "ünï"}, &ddb.AttributeValueMemberBOOL{Value: true}}}
			item["bin"] = &ddb.AttributeValueMemberB{Value: []byte{0, 1, 2, byte(w.serial)}}
		}
		if w.Attrs != nil {
			for k, v := range w.Attrs(id, n) {
				item[k] = v
			}
		}
		for k, v := range keys {
			item[k] = v
		}
		if _, err := w.conn.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: name, Item: item}); err != nil {
			return err
		}
		w.live[id][kc] = true
		w.add(id, view, kc, "INSERT", nil, item)
	case w.rng.IntN(3) < 2:
		out, err := w.conn.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName: name, Key: keys,
			UpdateExpression:         aws.String("SET #n = #n + :one, #s = :s, serial = :serial"),
			ExpressionAttributeNames: map[string]string{"#n": "n", "#s": "status"},
			ExpressionAttributeValues: map[string]ddb.AttributeValue{
				":one": &ddb.AttributeValueMemberN{Value: "1"}, ":s": &ddb.AttributeValueMemberS{Value: "RUNNING"},
				":serial": &ddb.AttributeValueMemberN{Value: fmt.Sprint(w.serial)},
			},
			ReturnValues: ddb.ReturnValueAllOld,
		})
		if err != nil {
			return err
		}
		got, err := w.conn.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: name, Key: keys, ConsistentRead: aws.Bool(true)})
		if err != nil {
			return err
		}
		w.add(id, view, kc, "MODIFY", out.Attributes, got.Item)
	default:
		out, err := w.conn.DB.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: name, Key: keys, ReturnValues: ddb.ReturnValueAllOld})
		if err != nil {
			return err
		}
		delete(w.live[id], kc)
		w.add(id, view, kc, "REMOVE", out.Attributes, nil)
	}
	return nil
}

func (w *Writer) add(id data.TableID, view data.StreamView, kc, event string, old, new data.Item) {
	wt := Want{Table: id, Key: kc, Event: event}
	if view == data.StreamNewAndOld || view == data.StreamOldImage {
		wt.Old = Canon(old)
	}
	if view == data.StreamNewAndOld || view == data.StreamNewImage {
		wt.New = Canon(new)
	}
	w.Wants = append(w.Wants, wt)
}

// Got is one record as received, with its identity in the stream
// (shard id + "/" + sequence number) for the duplicate check.
type Got struct {
	Want
	ID string
}

// VerifyExactly fails t unless got is the ground truth exactly: the same
// records per table and key, in the same order, none missing, none extra,
// and no stream record (shard, sequence number) received twice.
func VerifyExactly(t testing.TB, got []Got, wants []Want) {
	t.Helper()
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g.ID] {
			t.Errorf("record %s received twice", g.ID)
		}
		seen[g.ID] = true
	}
	type tk struct {
		table data.TableID
		key   string
	}
	gotBy, wantBy := map[tk][]Want{}, map[tk][]Want{}
	for _, g := range got {
		gotBy[tk{g.Table, g.Key}] = append(gotBy[tk{g.Table, g.Key}], g.Want)
	}
	for _, w := range wants {
		wantBy[tk{w.Table, w.Key}] = append(wantBy[tk{w.Table, w.Key}], w)
	}
	bad := 0
	for k, ws := range wantBy {
		gs := gotBy[k]
		for i := 0; i < len(ws) || i < len(gs); i++ {
			switch {
			case i >= len(gs):
				t.Errorf("%s %s: record %d (%s) missing", k.table, k.key, i, ws[i].Event)
			case i >= len(ws):
				t.Errorf("%s %s: extra record %d: %+v", k.table, k.key, i, gs[i])
			case gs[i] != ws[i]:
				t.Errorf("%s %s: record %d:\n got %+v\nwant %+v", k.table, k.key, i, gs[i], ws[i])
			default:
				continue
			}
			if bad++; bad > 20 {
				t.Fatalf("too many differences")
			}
		}
	}
	for k, gs := range gotBy {
		if _, ok := wantBy[k]; !ok {
			t.Errorf("%s %s: %d records for a key never written", k.table, k.key, len(gs))
		}
	}
	if len(got) != len(wants) {
		t.Errorf("got %d records, want %d", len(got), len(wants))
	}
}

// Canon is a deterministic text form of an item, for comparisons ("" for nil).
func Canon(it data.Item) string {
	if it == nil {
		return ""
	}
	var b strings.Builder
	canonMap(&b, it)
	return b.String()
}

func canonMap(b *strings.Builder, m map[string]ddb.AttributeValue) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b.WriteByte('{')
	for _, k := range keys {
		fmt.Fprintf(b, "%q:", k)
		canonValue(b, m[k])
		b.WriteByte(',')
	}
	b.WriteByte('}')
}

func canonValue(b *strings.Builder, v ddb.AttributeValue) {
	switch x := v.(type) {
	case *ddb.AttributeValueMemberS:
		fmt.Fprintf(b, "S%q", x.Value)
	case *ddb.AttributeValueMemberN:
		fmt.Fprintf(b, "N%s", x.Value)
	case *ddb.AttributeValueMemberB:
		fmt.Fprintf(b, "B%x", x.Value)
	case *ddb.AttributeValueMemberBOOL:
		fmt.Fprintf(b, "BOOL%v", x.Value)
	case *ddb.AttributeValueMemberNULL:
		b.WriteString("NULL")
	case *ddb.AttributeValueMemberSS:
		s := append([]string(nil), x.Value...)
		sort.Strings(s)
		fmt.Fprintf(b, "SS%q", s)
	case *ddb.AttributeValueMemberNS:
		s := append([]string(nil), x.Value...)
		sort.Strings(s)
		fmt.Fprintf(b, "NS%v", s)
	case *ddb.AttributeValueMemberBS:
		fmt.Fprintf(b, "BS%x", x.Value)
	case *ddb.AttributeValueMemberL:
		b.WriteString("L[")
		for _, e := range x.Value {
			canonValue(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case *ddb.AttributeValueMemberM:
		b.WriteByte('M')
		canonMap(b, x.Value)
	default:
		fmt.Fprintf(b, "?%T", v)
	}
}

package views

import (
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/demo"
)

// everyType is an item with each kind of attribute value, nested, plus the
// odd ones (empty strings, empty containers, a nil in a map and a list,
// invalid UTF-8, NUL bytes).
func everyType() data.Item {
	return data.Item{
		"s":     &types.AttributeValueMemberS{Value: "plain \x1b]52;c;AAAA\x07 \xff\xfe \x00"},
		"empty": &types.AttributeValueMemberS{Value: ""},
		"n":     &types.AttributeValueMemberN{Value: "-1.5e10"},
		"b":     &types.AttributeValueMemberB{Value: []byte{0, 1, 2, 255}},
		"bnil":  &types.AttributeValueMemberB{Value: []byte{}},
		"t":     &types.AttributeValueMemberBOOL{Value: true},
		"f":     &types.AttributeValueMemberBOOL{Value: false},
		"null":  &types.AttributeValueMemberNULL{Value: true},
		"nullf": &types.AttributeValueMemberNULL{Value: false},
		"ss":    &types.AttributeValueMemberSS{Value: []string{"a", "", "c"}},
		"ns":    &types.AttributeValueMemberNS{Value: []string{"1", "2"}},
		"bs":    &types.AttributeValueMemberBS{Value: [][]byte{{1}, {}}},
		"l": &types.AttributeValueMemberL{Value: []types.AttributeValue{
			&types.AttributeValueMemberS{Value: "x"}, nil,
			&types.AttributeValueMemberM{Value: data.Item{"deep": &types.AttributeValueMemberL{Value: []types.AttributeValue{}}}},
		}},
		"m":      &types.AttributeValueMemberM{Value: data.Item{"k": nil, "": &types.AttributeValueMemberN{Value: "0"}}},
		"emptym": &types.AttributeValueMemberM{Value: data.Item{}},
	}
}

func TestItemCodecRoundTrip(t *testing.T) {
	items := []data.Item{everyType(), {}}
	for it := range demo.SampleSessions(50, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		items = append(items, it)
	}
	for i, it := range items {
		b, ok := appendItem(nil, it)
		if !ok {
			t.Fatalf("item %d not encodable", i)
		}
		r := itemReader{b: b}
		got := r.item()
		if r.err != nil || len(r.b) != 0 {
			t.Fatalf("item %d: err %v, %d bytes left", i, r.err, len(r.b))
		}
		if !reflect.DeepEqual(got, it) {
			t.Fatalf("item %d changed in the round trip:\n got %#v\nwant %#v", i, got, it)
		}
	}
}

// A cut or scrambled buffer gives an error, never a panic or a giant
// allocation.
func TestItemCodecCorruptInput(t *testing.T) {
	b, _ := appendItem(nil, everyType())
	for n := 0; n < len(b); n++ {
		r := itemReader{b: b[:n]}
		r.item()
		if r.err == nil && n < len(b) {
			// A prefix can only decode cleanly if it is a whole item,
			// which a strict prefix of one item is not.
			t.Fatalf("prefix of %d bytes decoded without error", n)
		}
	}
	huge := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	r := itemReader{b: huge}
	r.item()
	if r.err == nil {
		t.Fatal("a huge count was accepted")
	}
}

type unknownAV struct{ types.AttributeValueMemberS }

func sessionItem(id, status string) data.Item {
	return data.Item{"sessionId": &types.AttributeValueMemberS{Value: id}, "status": &types.AttributeValueMemberS{Value: status}}
}

func TestItemStorePagesAndLiveChanges(t *testing.T) {
	l := newList(&Context{}, PaneSessions, sessionsPresenter)
	l.scope.Table = data.TableSessions
	// Row ids as the list makes them, so eachItem can recompute them.
	rid := func(id string) string { return rowID(data.TableSessions, sessionItem(id, ""), -1) }
	var ids []string
	var items []data.Item
	for i := 0; i < 10; i++ {
		id := "s" + strconv.Itoa(i)
		ids, items = append(ids, rid(id)), append(items, sessionItem(id, "RUNNING"))
	}
	// A duplicate in the page: the later one wins.
	ids, items = append(ids, rid("s3")), append(items, sessionItem("s3", "STOPPED"))
	l.putPage(ids, items)
	if len(l.items) != 10 {
		t.Fatalf("%d items held, want 10", len(l.items))
	}
	for i := 0; i < 10; i++ {
		want := sessionItem("s"+strconv.Itoa(i), "RUNNING")
		if i == 3 {
			want = sessionItem("s3", "STOPPED")
		}
		if got, ok := l.getItem(rid("s" + strconv.Itoa(i))); !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("s%d: %v %v", i, got, ok)
		}
	}
	// A second page replacing some; a live change replacing another.
	l.putPage([]string{rid("s0"), rid("s10")}, []data.Item{sessionItem("s0", "ERROR"), sessionItem("s10", "RUNNING")})
	l.putItem(rid("s1"), sessionItem("s1", "TIMED_OUT"))
	l.dropItem(rid("s2"))
	if got, _ := l.getItem(rid("s0")); attrS(got, "status") != "ERROR" {
		t.Fatalf("s0 not replaced: %v", got)
	}
	if got, _ := l.getItem(rid("s1")); attrS(got, "status") != "TIMED_OUT" {
		t.Fatalf("s1 not replaced: %v", got)
	}
	if _, ok := l.getItem(rid("s2")); ok || len(l.items) != 10 {
		t.Fatalf("s2 not dropped (%d held)", len(l.items))
	}
	// Replace everything of the first block: it is freed.
	for i := 3; i < 10; i++ {
		l.putItem(rid("s"+strconv.Itoa(i)), sessionItem("s"+strconv.Itoa(i), "RUNNING"))
	}
	if l.blocks.packs[0].z != nil || l.blocks.packs[0].live != 0 {
		t.Fatalf("first block kept after all its items were replaced: live %d", l.blocks.packs[0].live)
	}
	// eachItem sees every current item once.
	seen := map[string]int{}
	l.eachItem(func(it data.Item) bool { seen[attrS(it, "sessionId")]++; return true })
	if len(seen) != 10 || seen["s2"] != 0 {
		t.Fatalf("eachItem saw %v", seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("eachItem saw %s %d times", id, n)
		}
	}
	// An item the codec does not know is kept as it is, never dropped.
	odd := data.Item{"sessionId": &types.AttributeValueMemberS{Value: "odd"}, "x": &unknownAV{}}
	l.putPage([]string{rid("odd")}, []data.Item{odd})
	if got, ok := l.getItem(rid("odd")); !ok || !reflect.DeepEqual(got, odd) {
		t.Fatalf("unknown member type lost: %v", got)
	}
}

func attrS(it data.Item, name string) string {
	if s, ok := it[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// Many live changes do not pile up uncompressed: past looseMax they are
// packed, and every one stays readable.
func TestItemStorePacksLooseItems(t *testing.T) {
	l := newList(&Context{}, PaneSessions, sessionsPresenter)
	l.scope.Table = data.TableSessions
	n := looseMax*2 + 10
	for i := 0; i < n; i++ {
		id := "s" + strconv.Itoa(i)
		l.putItem(rowID(data.TableSessions, sessionItem(id, ""), -1), sessionItem(id, "RUNNING"))
	}
	if len(l.blocks.loose) >= looseMax || len(l.items) != n {
		t.Fatalf("%d loose of %d held", len(l.blocks.loose), len(l.items))
	}
	for i := 0; i < n; i++ {
		id := "s" + strconv.Itoa(i)
		if got, ok := l.getItem(rowID(data.TableSessions, sessionItem(id, ""), -1)); !ok || attrS(got, "sessionId") != id {
			t.Fatalf("%s lost after packing: %v", id, got)
		}
	}
}

// A list's first block stays uncompressed (the first rows reach the screen
// sooner) until its second block arrives; it is then compressed, and every
// item of both reads back exactly, from the blocks themselves.
func TestItemStoreFirstBlockCompressedLater(t *testing.T) {
	l := newList(&Context{}, PaneSessions, sessionsPresenter)
	l.scope.Table = data.TableSessions
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var pages [2][]data.Item
	i := 0
	for it := range demo.SampleSessions(40, now) {
		pages[i/20] = append(pages[i/20], it)
		i++
	}
	put := func(items []data.Item) {
		ids := make([]string, len(items))
		for k, it := range items {
			ids[k] = rowID(data.TableSessions, it, -1)
		}
		l.putPage(ids, items)
	}
	readAll := func(stage string, items []data.Item) {
		t.Helper()
		for _, want := range items {
			l.blocks.cache.pack, l.blocks.cache.items = -1, nil // read the block, not the cache
			got, ok := l.getItem(rowID(data.TableSessions, want, -1))
			if !ok || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: item %s not read back", stage, attrS(want, "sessionId"))
			}
		}
	}
	put(pages[0])
	if !l.blocks.packs[0].plain {
		t.Fatal("the first block was compressed at once")
	}
	plainSize := len(l.blocks.packs[0].z)
	readAll("first block plain", pages[0])
	put(pages[1])
	if l.blocks.packs[0].plain || l.blocks.packs[1].plain || len(l.blocks.packs[0].z) >= plainSize {
		t.Fatalf("blocks after the second page: first plain=%v (%d bytes, was %d), second plain=%v",
			l.blocks.packs[0].plain, len(l.blocks.packs[0].z), plainSize, l.blocks.packs[1].plain)
	}
	readAll("first block compressed", pages[0])
	readAll("second block", pages[1])
}

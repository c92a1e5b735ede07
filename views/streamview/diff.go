package streamview

import (
	"bytes"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// ChangedAttrs lists, sorted, the top-level attributes that differ between
// two images: added, removed, or changed in value or type. Nested maps and
// lists are compared deeply, and sets (SS, NS, BS) as sets, so a change deep
// inside userMetadata marks userMetadata while a re-ordered string set marks
// nothing. Either image may be nil (an INSERT has no old image, a REMOVE no
// new one). Panes use it to highlight the cells a MODIFY touched.
func ChangedAttrs(old, new data.Item) []string {
	var out []string
	for name, ov := range old {
		nv, ok := new[name]
		if !ok || !Equal(ov, nv) {
			out = append(out, name)
		}
	}
	for name := range new {
		if _, ok := old[name]; !ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Equal reports whether two attribute values are the same DynamoDB value.
// nil equals only nil. Numbers compare as the text DynamoDB returns (it
// normalises them), sets ignore order.
func Equal(a, b types.AttributeValue) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		return ok && bytes.Equal(x.Value, y.Value)
	case *types.AttributeValueMemberBOOL:
		y, ok := b.(*types.AttributeValueMemberBOOL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberNULL:
		y, ok := b.(*types.AttributeValueMemberNULL)
		return ok && x.Value == y.Value
	case *types.AttributeValueMemberM:
		y, ok := b.(*types.AttributeValueMemberM)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for k, v := range x.Value {
			w, ok := y.Value[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberL:
		y, ok := b.(*types.AttributeValueMemberL)
		if !ok || len(x.Value) != len(y.Value) {
			return false
		}
		for i := range x.Value {
			if !Equal(x.Value[i], y.Value[i]) {
				return false
			}
		}
		return true
	case *types.AttributeValueMemberSS:
		y, ok := b.(*types.AttributeValueMemberSS)
		return ok && sameSet(x.Value, y.Value)
	case *types.AttributeValueMemberNS:
		y, ok := b.(*types.AttributeValueMemberNS)
		return ok && sameSet(x.Value, y.Value)
	case *types.AttributeValueMemberBS:
		y, ok := b.(*types.AttributeValueMemberBS)
		if !ok {
			return false
		}
		xs := make([]string, len(x.Value))
		ys := make([]string, len(y.Value))
		for i, v := range x.Value {
			xs[i] = string(v)
		}
		for i, v := range y.Value {
			ys[i] = string(v)
		}
		return sameSet(xs, ys)
	}
	// An unknown member type (a newer SDK): compare what we can see.
	return a == b
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := make(map[string]int, len(a))
	for _, v := range a {
		count[v]++
	}
	for _, v := range b {
		count[v]--
		if count[v] < 0 {
			return false
		}
	}
	return true
}

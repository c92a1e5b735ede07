package data

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestEqualValues(t *testing.T) {
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	m := func(kv ...any) types.AttributeValue {
		out := map[string]types.AttributeValue{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1].(types.AttributeValue)
		}
		return &types.AttributeValueMemberM{Value: out}
	}
	l := func(vs ...types.AttributeValue) types.AttributeValue { return &types.AttributeValueMemberL{Value: vs} }
	ss := func(vs ...string) types.AttributeValue { return &types.AttributeValueMemberSS{Value: vs} }
	ns := func(vs ...string) types.AttributeValue { return &types.AttributeValueMemberNS{Value: vs} }
	bs := func(vs ...string) types.AttributeValue {
		out := make([][]byte, len(vs))
		for i, v := range vs {
			out[i] = []byte(v)
		}
		return &types.AttributeValueMemberBS{Value: out}
	}
	null := &types.AttributeValueMemberNULL{Value: true}
	cases := []struct {
		name string
		a, b types.AttributeValue
		want bool
	}{
		{"absent equals absent", nil, nil, true},
		{"absent differs from a value", nil, S(""), false},
		{"value differs from absent", S(""), nil, false},
		{"same string", S("a"), S("a"), true},
		{"other string", S("a"), S("b"), false},
		{"S and N differ", S("1"), n("1"), false},
		{"numbers by value", n("1"), n("1.0"), true},
		{"exponent form", n("1e2"), n("100"), true},
		{"38 digits stay distinct", n("12345678901234567890123456789012345678"), n("12345678901234567890123456789012345679"), false},
		{"malformed number equals itself", n("x1"), n("x1"), true},
		{"malformed number differs from a number", n("x1"), n("1"), false},
		{"bytes", &types.AttributeValueMemberB{Value: []byte{1, 2}}, &types.AttributeValueMemberB{Value: []byte{1, 2}}, true},
		{"bool", &types.AttributeValueMemberBOOL{Value: true}, &types.AttributeValueMemberBOOL{Value: false}, false},
		{"null", null, &types.AttributeValueMemberNULL{Value: true}, true},
		{"map deep", m("a", m("b", n("1"))), m("a", m("b", n("1.00"))), true},
		{"map deep change", m("a", m("b", n("1"))), m("a", m("b", n("2"))), false},
		{"map extra key", m("a", S("x")), m("a", S("x"), "b", S("y")), false},
		{"map other key", m("a", S("x")), m("b", S("x")), false},
		{"list order matters", l(S("a"), S("b")), l(S("b"), S("a")), false},
		{"list same", l(S("a"), l(n("1"))), l(S("a"), l(n("1"))), true},
		{"string set order ignored", ss("a", "b"), ss("b", "a"), true},
		{"string set member", ss("a", "b"), ss("a", "c"), false},
		{"number set by value, any order", ns("1", "2.5"), ns("2.50", "1.0"), true},
		{"number set member", ns("1", "2"), ns("1", "3"), false},
		{"binary set order ignored", bs("x", "y"), bs("y", "x"), true},
		{"binary set member", bs("x", "y"), bs("x", "z"), false},
		{"set sizes", ss("a"), ss("a", "a"), false},
		{"SS and NS differ", ss("1"), ns("1"), false},
	}
	for _, c := range cases {
		if got := EqualValues(c.a, c.b); got != c.want {
			t.Errorf("%s: EqualValues(%v, %v) = %v, want %v", c.name, c.a, c.b, got, c.want)
		}
		if got := EqualValues(c.b, c.a); got != c.want {
			t.Errorf("%s (swapped): EqualValues(%v, %v) = %v, want %v", c.name, c.b, c.a, got, c.want)
		}
	}
}

// BatchGet matches responses to requested keys by canonicalKey: a number key
// must match whatever form it was written in.
func TestCanonicalKeyReadsNumbersByValue(t *testing.T) {
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	same := [][2]Item{
		{{"pk": S("a"), "sk": n("4")}, {"sk": n("4.0"), "pk": S("a")}},
		{{"pk": n("04")}, {"pk": n("4e0")}},
	}
	for _, c := range same {
		if canonicalKey(c[0]) != canonicalKey(c[1]) {
			t.Errorf("%v and %v should be one key", c[0], c[1])
		}
	}
	differ := [][2]Item{
		{{"pk": n("4")}, {"pk": n("5")}},
		{{"pk": n("4")}, {"pk": S("4")}},
		{{"pk": S("a"), "sk": n("1")}, {"pk": S("a1")}},
	}
	for _, c := range differ {
		if canonicalKey(c[0]) == canonicalKey(c[1]) {
			t.Errorf("%v and %v should be different keys", c[0], c[1])
		}
	}
}

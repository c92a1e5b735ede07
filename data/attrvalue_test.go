package data

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestPlainIsTheJSONAnEngineerExpects: every type, as the exports and the
// detail view's copy write it; numbers keep their digits; what is not a
// number JSON can carry stays text.
func TestPlainIsTheJSONAnEngineerExpects(t *testing.T) {
	item := Item{
		"s":    S("héllo\x1b"),
		"n":    nv("12345678901234567890.000100"),
		"bad":  &types.AttributeValueMemberN{Value: "1e400"},
		"sp":   &types.AttributeValueMemberN{Value: " 1"},
		"hex":  &types.AttributeValueMemberN{Value: "0x10"},
		"t":    &types.AttributeValueMemberBOOL{Value: true},
		"null": &types.AttributeValueMemberNULL{Value: true},
		"b":    &types.AttributeValueMemberB{Value: []byte{0, 1, 2}},
		"m":    &types.AttributeValueMemberM{Value: Item{"k": nv("-2.5e3")}},
		"l":    &types.AttributeValueMemberL{Value: []types.AttributeValue{S("x"), nv("1")}},
		"ss":   &types.AttributeValueMemberSS{Value: []string{"a", "b"}},
		"ns":   &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"bs":   &types.AttributeValueMemberBS{Value: [][]byte{{255}}},
	}
	v, err := PlainItem(item)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"b":"AAEC","bad":"1e400","bs":["/w=="],"hex":"0x10","l":["x",1],"m":{"k":-2.5e3},` +
		`"n":12345678901234567890.000100,"ns":[1,2.5],"null":null,"s":"héllo\u001b","sp":" 1","ss":["a","b"],"t":true}`
	if string(got) != want {
		t.Fatalf("plain JSON\n got %s\nwant %s", got, want)
	}
}

// TestPlainerHooks: the hooks see each value's path and replace what they
// say; the audit log's form keeps a number set as text.
func TestPlainerHooks(t *testing.T) {
	item := Item{
		"cfg": &types.AttributeValueMemberM{Value: Item{
			"token": &types.AttributeValueMemberL{Value: []types.AttributeValue{S("t1")}},
			"names": &types.AttributeValueMemberSS{Value: []string{"x"}},
			"blob":  &types.AttributeValueMemberBS{Value: [][]byte{{1}}},
		}},
		"ns": &types.AttributeValueMemberNS{Value: []string{"7"}},
	}
	var paths []string
	p := Plainer{
		Whole: func(path []string, av types.AttributeValue) (any, bool) {
			if PathString(path) == "cfg.token" {
				return "***", true
			}
			return nil, false
		},
		String: func(path []string, s string) any {
			paths = append(paths, PathString(path)+"="+s)
			return strings.ToUpper(s)
		},
		Binary:        func(path []string, b []byte) any { return PathString(path) },
		NumberSetText: true,
	}
	v, err := p.Item(item)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(v)
	want := `{"cfg":{"blob":["cfg.blob"],"names":["X"],"token":"***"},"ns":["7"]}`
	if string(got) != want {
		t.Fatalf("hooked JSON\n got %s\nwant %s", got, want)
	}
	if len(paths) != 1 || paths[0] != "cfg.names=x" {
		t.Fatalf("String saw %q, want the set's member at the set's path", paths)
	}
}

// TestPlainRefusesWhatDynamoDBCannotHold: nesting deeper than the bound is
// an error naming where, not a crash.
func TestPlainRefusesWhatDynamoDBCannotHold(t *testing.T) {
	var av types.AttributeValue = S("bottom")
	for range maxPlainDepth + 2 {
		av = &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}
	}
	_, err := PlainItem(Item{"root": &types.AttributeValueMemberM{Value: Item{"deep": av}}})
	var pe *PlainError
	if !errors.As(err, &pe) || !strings.HasPrefix(PathString(pe.Path), "root.deep[0][0]") {
		t.Fatalf("err = %v, want a PlainError under root.deep", err)
	}
}

func TestTypeName(t *testing.T) {
	for av, want := range map[types.AttributeValue]string{
		nil: "missing", S("x"): "S", nv("1"): "N", &types.AttributeValueMemberB{}: "B",
		&types.AttributeValueMemberBOOL{}: "BOOL", &types.AttributeValueMemberNULL{}: "NULL",
		&types.AttributeValueMemberM{}: "M", &types.AttributeValueMemberL{}: "L",
		&types.AttributeValueMemberSS{}: "SS", &types.AttributeValueMemberNS{}: "NS",
		&types.AttributeValueMemberBS{}: "BS",
	} {
		if got := TypeName(av); got != want {
			t.Errorf("TypeName(%T) = %q, want %q", av, got, want)
		}
	}
}

func nv(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }

package data

import (
	"math/big"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func nAttr(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }

// A number is shown as stored: never clamped to int64, truncated, or moved
// to the nearest float64.
func TestNumbersAreKeptAsStored(t *testing.T) {
	cases := []struct {
		stored, shown, problem string
		exact                  bool
	}{
		{"42", "42", "", true},
		{"99999999999999999999", "99999999999999999999", "beyond int64; shown as stored", false},
		{"-99999999999999999999", "-99999999999999999999", "beyond int64", false},
		{"9223372036854775807", "9223372036854775807", "", true},
		{"9223372036854775808", "9223372036854775808", "beyond int64", false},
		{"9007199254740993", "9007199254740993", "", true}, // 2^53+1: float64 would say ...992
		{"2.5", "2.5", "not a whole number; shown as stored", false},
		{"12345678901234567890123456789012345678", "12345678901234567890123456789012345678", "beyond int64", false},
	}
	for _, tc := range cases {
		r := DecodeGraphRun(Item{"PK": S("USER#1"), "SK": S("RUN#x#r"), "runId": S("r"), "status": S("COMPLETE"), "nodeCount": nAttr(tc.stored)})
		if got := r.NodeCount.String(); got != tc.shown {
			t.Errorf("%s shown as %s", tc.stored, got)
		}
		if _, ok := r.NodeCount.Int64(); ok != tc.exact {
			t.Errorf("%s: Int64 ok = %v", tc.stored, ok)
		}
		if tc.problem != "" && !hasProblem(r.Problems, "nodeCount", tc.problem) {
			t.Errorf("%s: not flagged %q: %v", tc.stored, tc.problem, r.Problems)
		}
	}
	// Absent and unreadable say so.
	r := DecodeGraphRun(Item{"PK": S("USER#1"), "SK": S("RUN#x#r"), "nodeCount": S("many"), "edgeCount": &types.AttributeValueMemberL{}})
	if r.NodeCount.String() != "?" || r.EdgeCount.String() != "?" || r.DatastoreCount.String() != "-" ||
		!r.Unreadable("nodeCount") || !r.Unreadable("edgeCount") || r.Unreadable("datastoreCount") {
		t.Errorf("unreadable/absent: %s %s %s", r.NodeCount, r.EdgeCount, r.DatastoreCount)
	}
	// A quota beyond int64 stays what it is.
	p := DecodeProject(Item{"projectId": S("p"), "concurrency": nAttr("99999999999999999999"), "defaultTimeout": nAttr("99999999999999999999")})
	if p.Concurrency.String() != "99999999999999999999" || p.DefaultTimeout != 0 || p.DefaultTimeoutSeconds.String() != "99999999999999999999" {
		t.Errorf("project: %s %v %s", p.Concurrency, p.DefaultTimeout, p.DefaultTimeoutSeconds)
	}
}

// A time that is stored but cannot be read is unreadable, which is not the
// same as absent.
func TestUnreadableTimesAreTold(t *testing.T) {
	absent := DecodeDelegation(Item{"link": S("l")})
	bad := DecodeDelegation(Item{"link": S("l"), "expiration": S("next tuesday")})
	huge := DecodeDelegation(Item{"link": S("l"), "expiration": nAttr("1e30")})
	zero := DecodeDelegation(Item{"link": S("l"), "expiration": nAttr("0")})
	if absent.Unreadable("expiration") || zero.Unreadable("expiration") {
		t.Errorf("absent or 0 called unreadable")
	}
	if !bad.Unreadable("expiration") || !huge.Unreadable("expiration") || !bad.Expiration.IsZero() {
		t.Errorf("unreadable expiration not told: %v %v", bad.Problems, huge.Problems)
	}
}

// The int64 fast path of number comparison and parsing agrees with exact
// parsing on every shape it takes and on the shapes it must hand on.
func TestCompareNumbersAgreesWithExactParsing(t *testing.T) {
	texts := []string{
		"0", "-0", "00", "7", "-7", "07", "10", "-10", "1.0", "1e1", "1E1", "+5", " 5", "5 ",
		"999999999999999999", "-999999999999999999", "1000000000000000000", // 18 and 19 digits
		"9223372036854775807", "9223372036854775808", "-9223372036854775808",
		"99999999999999999999", "0.5", "-0.5", "2.50", "-", "", "abc", "1-2", "--1", "1.2.3",
		"123456789012345678", "123456789012345679", "9007199254740993",
	}
	for _, x := range texts {
		for _, y := range texts {
			got, ok := compareNumbers(x, y)
			fx, okx := ParseNumber(x)
			fy, oky := ParseNumber(y)
			if ok != (okx && oky) {
				t.Errorf("compareNumbers(%q, %q) ok = %v, exact parsing %v", x, y, ok, okx && oky)
				continue
			}
			if ok && got != fx.Cmp(fy) {
				t.Errorf("compareNumbers(%q, %q) = %d, exact parsing %d", x, y, got, fx.Cmp(fy))
			}
			if eq := equalNumbers(x, y); eq != (x == y || (ok && got == 0)) {
				t.Errorf("equalNumbers(%q, %q) = %v", x, y, eq)
			}
		}
		n, ok := parseNumberText(x)
		bf, bok := ParseNumber(x)
		if ok != (bok && !bf.IsInf()) {
			t.Errorf("parseNumberText(%q) ok = %v", x, ok)
			continue
		}
		if !ok {
			continue
		}
		i, acc := bf.Int64()
		wantInt := bf.IsInt() && acc == big.Exact
		if gi, gok := n.Int64(); gok != wantInt || (gok && gi != i) {
			t.Errorf("parseNumberText(%q).Int64() = %d, %v; want %d, %v", x, gi, gok, i, wantInt)
		}
		wf, _ := bf.Float64()
		if gf, _ := n.Float64(); gf != wf {
			t.Errorf("parseNumberText(%q).Float64() = %v, want %v", x, gf, wf)
		}
	}
}

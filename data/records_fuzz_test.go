package data

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// randomValue builds an arbitrary AttributeValue, including the nasty ones:
// nil, empty collections, huge and odd numbers, invalid UTF-8, escapes.
func randomValue(r *rand.Rand, depth int) types.AttributeValue {
	strs := []string{"", "x", "RUNNING", "STOPPED", "2026-02-22T19:12:11Z", "1759567084", "\xff\xfe",
		"\x1b[2J\x1b[H", "USER#", "RUN#a#b", "12.5", "true", "SBX#id", "meta\x00data"}
	nums := []string{"0", "1", "-1", "4", "1759567084", "1759567084123", "12.5", "1e38", "-1e-130",
		"99999999999999999999999999999999999999", "NaN", "abc", ""}
	kind := r.IntN(12)
	if depth > 4 && kind >= 8 {
		kind = r.IntN(8)
	}
	switch kind {
	case 0:
		return nil
	case 1, 2:
		return &types.AttributeValueMemberS{Value: strs[r.IntN(len(strs))]}
	case 3, 4:
		return &types.AttributeValueMemberN{Value: nums[r.IntN(len(nums))]}
	case 5:
		return &types.AttributeValueMemberBOOL{Value: r.IntN(2) == 0}
	case 6:
		return &types.AttributeValueMemberNULL{Value: true}
	case 7:
		return &types.AttributeValueMemberB{Value: []byte{0xff, 0x1b, 0}}
	case 8:
		m := map[string]types.AttributeValue{}
		for i := r.IntN(4); i > 0; i-- {
			m["k"+strconv.Itoa(i)] = randomValue(r, depth+1)
		}
		return &types.AttributeValueMemberM{Value: m}
	case 9:
		var l []types.AttributeValue
		for i := r.IntN(4); i > 0; i-- {
			l = append(l, randomValue(r, depth+1))
		}
		return &types.AttributeValueMemberL{Value: l}
	case 10:
		return &types.AttributeValueMemberSS{Value: []string{strs[r.IntN(len(strs))]}}
	default:
		return &types.AttributeValueMemberNS{Value: []string{nums[r.IntN(len(nums))]}}
	}
}

func randomItem(r *rand.Rand, s TableSchema) Item {
	it := Item{}
	for name := range s.Attrs {
		if r.IntN(3) > 0 {
			it[name] = randomValue(r, 0)
		}
	}
	for i := r.IntN(3); i > 0; i-- {
		it["extra"+strconv.Itoa(i)] = randomValue(r, 0)
	}
	return it
}

// checkDecode decodes it as a record of s and checks the invariants every
// decode must keep whatever the input: no panic, Raw is the item itself,
// undocumented attributes and missing keys are flagged.
func checkDecode(t *testing.T, s TableSchema, it Item) {
	t.Helper()
	rec := Decode(s.ID, it)
	raw := rec.Item()
	if len(raw) != len(it) {
		t.Fatalf("%s: Raw has %d attributes, item %d", s.ID, len(raw), len(it))
	}
	for k, v := range it {
		if raw[k] != v {
			t.Fatalf("%s: Raw[%s] replaced", s.ID, k)
		}
	}
	flagged := map[string]bool{}
	for _, p := range rec.Issues() {
		flagged[p.Attr] = true
	}
	for k := range it {
		if _, documented := s.Attrs[k]; !documented && !flagged[k] {
			t.Fatalf("%s: undocumented attribute %s not flagged", s.ID, k)
		}
	}
	for _, k := range s.KeyNames() {
		v, ok := it[k]
		if _, isS := v.(*types.AttributeValueMemberS); (!ok || !isS) && !flagged[k] {
			t.Fatalf("%s: key %s is %s but not flagged", s.ID, k, TypeName(v))
		}
	}
	_ = rec.ID()
	_ = rec.Key()
}

func TestDecodeRandomItemsKeepsInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range Schemas() {
		for i := 0; i < 400; i++ {
			checkDecode(t, s, randomItem(r, s))
		}
	}
}

// FuzzDecode drives the same invariants from fuzzer bytes (go test -fuzz).
func FuzzDecode(f *testing.F) {
	f.Add([]byte("seed"), uint8(0))
	f.Add([]byte{0xff, 0x00, 0x1b}, uint8(9))
	f.Fuzz(func(t *testing.T, b []byte, table uint8) {
		var seed [16]byte
		copy(seed[:], b)
		r := rand.New(rand.NewPCG(binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])))
		all := Schemas()
		s := all[int(table)%len(all)]
		checkDecode(t, s, randomItem(r, s))
	})
}

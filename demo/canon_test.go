package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// canon renders an attribute value as one deterministic string with its
// DynamoDB types, so two items can be compared and a difference read.
func canon(v types.AttributeValue) string {
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		return "S" + strconv.Quote(x.Value)
	case *types.AttributeValueMemberN:
		return "N(" + x.Value + ")"
	case *types.AttributeValueMemberB:
		return fmt.Sprintf("B(%x)", x.Value)
	case *types.AttributeValueMemberBOOL:
		return fmt.Sprintf("BOOL(%v)", x.Value)
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberL:
		parts := make([]string, len(x.Value))
		for i, e := range x.Value {
			parts[i] = canon(e)
		}
		return "L[" + strings.Join(parts, ",") + "]"
	case *types.AttributeValueMemberM:
		return "M" + canonItem(x.Value)
	case *types.AttributeValueMemberSS:
		s := append([]string(nil), x.Value...)
		sort.Strings(s)
		return fmt.Sprintf("SS%q", s)
	case *types.AttributeValueMemberNS:
		s := append([]string(nil), x.Value...)
		sort.Strings(s)
		return fmt.Sprintf("NS%v", s)
	case nil:
		return "<nil>"
	default:
		return fmt.Sprintf("%T", v)
	}
}

func canonItem(it Item) string {
	keys := make([]string, 0, len(it))
	for k := range it {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = strconv.Quote(k) + ":" + canon(it[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// seedJSONItems extracts every JSON object example from a seed document: a
// line holding only "{" up to the line holding only "}" at the same indent.
// Blocks that are not valid JSON (the seeds elide some with "...") are
// skipped. Each is converted to a DynamoDB item the way the documents mean
// it: JSON strings are S, numbers N, objects M, arrays L.
func seedJSONItems(t *testing.T, path string) []Item {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading seed: %v", err)
	}
	lines := strings.Split(string(raw), "\n")
	var out []Item
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "{" {
			continue
		}
		indent := lines[i][:strings.Index(lines[i], "{")]
		for j := i + 1; j < len(lines); j++ {
			if lines[j] != indent+"}" {
				continue
			}
			block := strings.Join(lines[i:j+1], "\n")
			dec := json.NewDecoder(bytes.NewReader([]byte(block)))
			dec.UseNumber()
			var v map[string]any
			if dec.Decode(&v) == nil {
				out = append(out, jsonToItem(v))
			}
			i = j
			break
		}
	}
	return out
}

func jsonToItem(m map[string]any) Item {
	it := Item{}
	for k, v := range m {
		it[k] = jsonToAV(v)
	}
	return it
}

func jsonToAV(v any) types.AttributeValue {
	switch x := v.(type) {
	case string:
		return avS(x)
	case json.Number:
		return avNum(x.String())
	case bool:
		return avBool(x)
	case nil:
		return &types.AttributeValueMemberNULL{Value: true}
	case []any:
		l := make([]types.AttributeValue, len(x))
		for i, e := range x {
			l[i] = jsonToAV(e)
		}
		return avL(l...)
	case map[string]any:
		return avM(jsonToItem(x))
	default:
		panic(fmt.Sprintf("unexpected JSON value %T", v))
	}
}

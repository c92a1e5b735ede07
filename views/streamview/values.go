package streamview

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/views/inert"
)

// valueText renders an attribute value on one line as raw text (the caller
// sanitises it), at most about max bytes: summaries hold thousands of
// records, and a 390 KB attribute must not make every one of them huge.
// Strings are shown bare, numbers as stored, binary as base64, containers
// compactly as {k: v, …} and [v, …].
func valueText(v types.AttributeValue, max int) string {
	return maskedText(v, max, nil, nil)
}

// MaskFunc decides whether a string value is a secret and what to show
// instead, by its attribute path (map keys, "[i]" for list elements) — the
// same contract as the detail view's mask, so views.MaskSecret fits both.
type MaskFunc = func(path []string, value string) (masked string, isSecret bool)

// maskedText is valueText with secrets replaced by mask (nil: none). path
// names the value (its attribute name, then nested keys).
func maskedText(v types.AttributeValue, max int, path []string, mask MaskFunc) string {
	var b strings.Builder
	writeValue(&b, v, max, path, mask)
	return clipText(b.String(), max)
}

func child(path []string, name string) []string {
	return append(path[:len(path):len(path)], name)
}

func masked(s string, path []string, mask MaskFunc) string {
	if mask == nil {
		return s
	}
	out, _ := mask(path, s)
	return out
}

func writeValue(b *strings.Builder, v types.AttributeValue, max int, path []string, mask MaskFunc) {
	if b.Len() > max {
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("∅")
	case *types.AttributeValueMemberS:
		b.WriteString(clipText(masked(x.Value, path, mask), max))
	case *types.AttributeValueMemberN:
		b.WriteString(clipText(x.Value, max))
	case *types.AttributeValueMemberB:
		b.WriteString(inert.HexPreview(x.Value, 8))
	case *types.AttributeValueMemberBOOL:
		b.WriteString(strconv.FormatBool(x.Value))
	case *types.AttributeValueMemberNULL:
		b.WriteString("null")
	case *types.AttributeValueMemberM:
		b.WriteString("{")
		for i, k := range sortedKeys(x.Value) {
			if b.Len() > max {
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(clipText(k, max))
			b.WriteString(": ")
			writeValue(b, x.Value[k], max, child(path, k), mask)
		}
		b.WriteString("}")
	case *types.AttributeValueMemberL:
		b.WriteString("[")
		for i, e := range x.Value {
			if b.Len() > max {
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e, max, child(path, "["+strconv.Itoa(i)+"]"), mask)
		}
		b.WriteString("]")
	case *types.AttributeValueMemberSS:
		vals := make([]string, len(x.Value))
		for i, s := range x.Value {
			vals[i] = masked(s, path, mask)
		}
		writeSet(b, vals, max)
	case *types.AttributeValueMemberNS:
		writeSet(b, x.Value, max)
	case *types.AttributeValueMemberBS:
		parts := make([]string, len(x.Value))
		for i, e := range x.Value {
			parts[i] = inert.HexPreview(e, 8)
		}
		writeSet(b, parts, max)
	default:
		b.WriteString("?")
	}
}

func writeSet(b *strings.Builder, vals []string, max int) {
	sorted := append([]string(nil), vals...)
	sort.Strings(sorted)
	b.WriteString("⟨")
	for i, s := range sorted {
		if b.Len() > max {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(clipText(s, max))
	}
	b.WriteString("⟩")
}

// clipText cuts s to at most max bytes on a rune boundary, marking the cut.
// Invalid UTF-8 is left for the sanitiser to show; we only avoid splitting a
// valid rune in two.
func clipText(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && cut > max-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + inert.Ellipsis
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

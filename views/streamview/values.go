package streamview

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data/secret"
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

// MaskFunc decides what of a value is secret: data/secret.Default in the
// console (the one masker of the detail view, the copy and the audit log).
type MaskFunc = secret.Masker

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
	out, _ := mask.String(path, s)
	return out
}

// wholeSecret reports whether v, at path, is a credential as a whole (any
// type but a flag or null): it is written as the mask, not walked.
func wholeSecret(v types.AttributeValue, path []string, mask MaskFunc) bool {
	if mask == nil || !mask.Whole(path) {
		return false
	}
	switch v.(type) {
	case nil, *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return false
	}
	return true
}

func writeValue(b *strings.Builder, v types.AttributeValue, max int, path []string, mask MaskFunc) {
	if b.Len() > max {
		return
	}
	if wholeSecret(v, path, mask) {
		b.WriteString(secret.Mask)
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
		if mask != nil && mask.Binary(path, x.Value) {
			b.WriteString(secret.Mask)
			return
		}
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
			if mask != nil && mask.Binary(path, e) {
				parts[i] = secret.Mask
			}
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

package action

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// This file evaluates, in Go, the few comparisons our condition expressions
// use, with DynamoDB's semantics: numbers compare by value ("1.0" = "1"),
// strings and binaries byte by byte, and a comparison between different types
// (or with a missing attribute) is simply false. The executor uses it to say
// which clause of a failed condition no longer holds; PlanFor uses it to
// check that a plan's guard holds on the item the operator saw.

// avEqual is DynamoDB's "=": data.EqualValues, except that a comparison with
// a missing attribute is false, even with another missing one.
func avEqual(a, b types.AttributeValue) bool {
	return a != nil && b != nil && data.EqualValues(a, b)
}

// avCompare orders a against b for "<" and ">". ok is false when the two
// cannot be ordered (different or unordered types, or a missing value), in
// which case DynamoDB evaluates the comparison as false.
func avCompare(a, b types.AttributeValue) (cmp int, ok bool) {
	switch x := a.(type) {
	case *types.AttributeValueMemberS:
		y, ok := b.(*types.AttributeValueMemberS)
		if !ok {
			return 0, false
		}
		return strings.Compare(x.Value, y.Value), true
	case *types.AttributeValueMemberN:
		y, ok := b.(*types.AttributeValueMemberN)
		if !ok {
			return 0, false
		}
		fx, okx := data.ParseNumber(x.Value)
		fy, oky := data.ParseNumber(y.Value)
		if !okx || !oky {
			return 0, false
		}
		return fx.Cmp(fy), true
	case *types.AttributeValueMemberB:
		y, ok := b.(*types.AttributeValueMemberB)
		if !ok {
			return 0, false
		}
		return bytes.Compare(x.Value, y.Value), true
	}
	return 0, false
}

// pinnable reports whether a seen value can be pinned with "=": scalars only.
// A list or map where a scalar belongs is a malformed item; refusing is
// clearer than a condition DynamoDB might reject.
func pinnable(v types.AttributeValue) bool {
	switch v.(type) {
	case *types.AttributeValueMemberS, *types.AttributeValueMemberN,
		*types.AttributeValueMemberB, *types.AttributeValueMemberBOOL,
		*types.AttributeValueMemberNULL:
		return true
	}
	return false
}

func str(item data.Item, name string) (string, bool) {
	if s, ok := item[name].(*types.AttributeValueMemberS); ok {
		return s.Value, true
	}
	return "", false
}

func num(item data.Item, name string) (float64, bool) {
	n, ok := item[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// wholeNumber reads an N attribute holding a whole number, by value as
// DynamoDB compares it ("2", "2.0" and "2e0" are all 2). When the value is
// absent, not a number, not whole or beyond int64, problem says so in words
// that name the attribute ("retry_count is 2.5, not a whole number") and the
// caller refuses rather than guesses.
func wholeNumber(item data.Item, name string) (n int64, problem string) {
	v := item[name]
	x, ok := v.(*types.AttributeValueMemberN)
	switch {
	case v == nil:
		return 0, name + " is absent"
	case !ok:
		return 0, fmt.Sprintf("%s is %s, not a number", name, typed(v))
	}
	f, ok := data.ParseNumber(x.Value)
	switch {
	case !ok:
		return 0, fmt.Sprintf("%s is %s, not a number", name, show(v))
	case !f.IsInt():
		return 0, fmt.Sprintf("%s is %s, not a whole number", name, show(v))
	}
	i, acc := f.Int64()
	if acc != big.Exact {
		return 0, fmt.Sprintf("%s is %s, too large to be a count or a time", name, show(v))
	}
	return i, ""
}

// typed renders a value with its DynamoDB type, for messages about a wrong
// type: `a string ("4")`, `a list (list of 2)`.
func typed(v types.AttributeValue) string {
	switch v.(type) {
	case *types.AttributeValueMemberS:
		return `a string ("` + show(v) + `")`
	case *types.AttributeValueMemberBOOL:
		return "a boolean (" + show(v) + ")"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberB:
		return "a binary value"
	}
	return "a " + data.TypeName(v) + " (" + show(v) + ")"
}

func sv(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func nv(i int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(i, 10)}
}

// maxShown bounds how much of one value a message or a Change shows.
const maxShown = 80

// show renders a value for a human, one line, type visible where it matters
// ("absent", quoted strings only when they would be ambiguous). It is plain
// text: the UI still passes it through its sanitiser.
func show(v types.AttributeValue) string {
	switch x := v.(type) {
	case nil:
		return "absent"
	case *types.AttributeValueMemberS:
		if x.Value == "" {
			return `""`
		}
		return clip(x.Value)
	case *types.AttributeValueMemberN:
		return clip(x.Value)
	case *types.AttributeValueMemberBOOL:
		return strconv.FormatBool(x.Value)
	case *types.AttributeValueMemberNULL:
		return "null"
	case *types.AttributeValueMemberB:
		return clip("b64:" + base64.StdEncoding.EncodeToString(x.Value))
	case *types.AttributeValueMemberL:
		return fmt.Sprintf("list of %d", len(x.Value))
	case *types.AttributeValueMemberM:
		return fmt.Sprintf("map of %d", len(x.Value))
	case *types.AttributeValueMemberSS:
		return fmt.Sprintf("string set of %d", len(x.Value))
	case *types.AttributeValueMemberNS:
		return fmt.Sprintf("number set of %d", len(x.Value))
	case *types.AttributeValueMemberBS:
		return fmt.Sprintf("binary set of %d", len(x.Value))
	}
	return data.TypeName(v)
}

// clip renders a stored string for a message: on one line, with controls,
// bidi and zero-width characters escaped (data.Escape), and bounded. Every
// value a message or a guard quotes goes through it.
func clip(s string) string { return data.Clip(data.Escape(s), maxShown) }

// showTime renders an instant for a message: the clock time when it is today,
// the date too otherwise. Local time, because that is what the operator reads.
func showTime(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if t.Year() == now.Year() && t.YearDay() == now.YearDay() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}

// attrTime reads a time attribute: an ISO 8601 string or unix seconds.
func attrTime(item data.Item, name string) (time.Time, bool) {
	switch x := item[name].(type) {
	case *types.AttributeValueMemberS:
		t, _, err := data.ParseTime(x.Value)
		return t, err == nil
	case *types.AttributeValueMemberN:
		f, err := strconv.ParseFloat(strings.TrimSpace(x.Value), 64)
		if err != nil || f <= 0 || f > 1e11 {
			return time.Time{}, false
		}
		return time.Unix(int64(f), 0), true
	}
	return time.Time{}, false
}

// since renders " since 12:04:11" from a time attribute, or "" when the item
// does not carry a readable one.
func since(item data.Item, attr string, now time.Time) string {
	if t, ok := attrTime(item, attr); ok {
		return " since " + showTime(t, now)
	}
	return ""
}

package data

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// This file is the one place an AttributeValue becomes a plain Go value
// (Plain, Plainer) and the one place its DynamoDB type is named (TypeName).
// The other type switches over AttributeValue do something else with the
// value — decode it into a record, compare it, match it against a scope,
// mask it, render it as one line or as a tree, encode a key — and keep
// their own switch.

// TypeName is the DynamoDB type name of a value ("S", "N", "B", "BOOL",
// "NULL", "M", "L", "SS", "NS", "BS"; "missing" for none), for problems, the
// detail view and messages.
func TypeName(v types.AttributeValue) string {
	switch v.(type) {
	case nil:
		return "missing"
	case *types.AttributeValueMemberS:
		return "S"
	case *types.AttributeValueMemberN:
		return "N"
	case *types.AttributeValueMemberB:
		return "B"
	case *types.AttributeValueMemberBOOL:
		return "BOOL"
	case *types.AttributeValueMemberNULL:
		return "NULL"
	case *types.AttributeValueMemberM:
		return "M"
	case *types.AttributeValueMemberL:
		return "L"
	case *types.AttributeValueMemberSS:
		return "SS"
	case *types.AttributeValueMemberNS:
		return "NS"
	case *types.AttributeValueMemberBS:
		return "BS"
	}
	return fmt.Sprintf("%T", v)
}

// Plain is av as the plain value an engineer expects in JSON, not
// DynamoDB's typed form: S → string, N → json.Number (the exact stored
// digits; PlainNumber), BOOL → bool, NULL → nil, B → []byte (base64 in
// JSON), M → map[string]any, L → []any, SS → strings, NS → numbers, BS →
// bytes. The B/S and set/list distinctions are lost. Used by the exports,
// the detail view's JSON copy and the audit log, each through a Plainer
// where it writes a value its own way.
func Plain(av types.AttributeValue) (any, error) { return Plainer{}.Value(av) }

// PlainItem is Plain over an item.
func PlainItem(item map[string]types.AttributeValue) (map[string]any, error) {
	return Plainer{}.Item(item)
}

// Plainer is Plain with the places its readers differ. A zero Plainer is
// Plain. The hooks get the value's path: the attribute name, then map keys
// and "[i]" for list elements (a set's members have the set's path).
type Plainer struct {
	// Whole, when set, is asked first about every value; a true answer
	// writes its any in place of the value (a secret masked whatever its
	// type).
	Whole func(path []string, av types.AttributeValue) (any, bool)
	// String writes a string (an S, a member of an SS); nil: as it is.
	String func(path []string, s string) any
	// Binary writes a binary (a B, a member of a BS); nil: the bytes.
	Binary func(path []string, b []byte) any
	// NumberSetText keeps an NS's members as their text (the audit log's
	// form) instead of numbers.
	NumberSetText bool
}

// maxPlainDepth bounds recursion: DynamoDB nests at most 32 levels, so
// anything deeper is not from DynamoDB and is refused rather than risking
// the stack.
const maxPlainDepth = 64

// Value is av as a plain value (see Plain).
func (p Plainer) Value(av types.AttributeValue) (any, error) {
	return p.value(av, nil, 0)
}

// Item is item as a plain map (see Plain).
func (p Plainer) Item(item map[string]types.AttributeValue) (map[string]any, error) {
	return p.object(item, nil, 0)
}

// PlainError is a value Plain could not convert, and where it is.
type PlainError struct {
	Path []string
	Msg  string
}

func (e *PlainError) Error() string {
	if len(e.Path) == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s at %q", e.Msg, PathString(e.Path))
}

// PathString writes a value's path as an engineer would: a.b[2].c.
func PathString(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// hooked is whether any hook wants paths: without one none is built, so
// an export of many rows allocates none.
func (p Plainer) hooked() bool { return p.Whole != nil || p.String != nil || p.Binary != nil }

func (p Plainer) child(path []string, name string) []string {
	if !p.hooked() {
		return nil
	}
	return append(path[:len(path):len(path)], name)
}

// fail adds name in front of the path of err (a PlainError), as the error
// goes back up the value it was found in.
func fail(err error, name string) error {
	if pe, ok := err.(*PlainError); ok {
		pe.Path = append([]string{name}, pe.Path...)
	}
	return err
}

func (p Plainer) object(m map[string]types.AttributeValue, path []string, depth int) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for k, av := range m {
		v, err := p.value(av, p.child(path, k), depth+1)
		if err != nil {
			return nil, fail(err, k)
		}
		out[k] = v
	}
	return out, nil
}

func (p Plainer) str(path []string, s string) any {
	if p.String == nil {
		return s
	}
	return p.String(path, s)
}

func (p Plainer) bin(path []string, b []byte) any {
	if p.Binary == nil {
		return b
	}
	return p.Binary(path, b)
}

func (p Plainer) value(av types.AttributeValue, path []string, depth int) (any, error) {
	if depth > maxPlainDepth {
		return nil, &PlainError{Msg: fmt.Sprintf("nested deeper than %d levels", maxPlainDepth)}
	}
	if p.Whole != nil {
		if v, ok := p.Whole(path, av); ok {
			return v, nil
		}
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return p.str(path, v.Value), nil
	case *types.AttributeValueMemberN:
		return PlainNumber(v.Value), nil
	case *types.AttributeValueMemberBOOL:
		return v.Value, nil
	case *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberB:
		return p.bin(path, v.Value), nil
	case *types.AttributeValueMemberM:
		return p.object(v.Value, path, depth)
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			idx := "[" + strconv.Itoa(i) + "]"
			x, err := p.value(e, p.child(path, idx), depth+1)
			if err != nil {
				return nil, fail(err, idx)
			}
			out[i] = x
		}
		return out, nil
	case *types.AttributeValueMemberSS:
		if p.String == nil {
			return v.Value, nil
		}
		out := make([]any, len(v.Value))
		for i, s := range v.Value {
			out[i] = p.String(path, s)
		}
		return out, nil
	case *types.AttributeValueMemberNS:
		if p.NumberSetText {
			return v.Value, nil
		}
		out := make([]any, len(v.Value))
		for i, s := range v.Value {
			out[i] = PlainNumber(s)
		}
		return out, nil
	case *types.AttributeValueMemberBS:
		if p.Binary == nil {
			return v.Value, nil
		}
		out := make([]any, len(v.Value))
		for i, b := range v.Value {
			out[i] = p.Binary(path, b)
		}
		return out, nil
	case nil:
		return nil, nil
	}
	return nil, &PlainError{Msg: fmt.Sprintf("unsupported attribute type %T", av)}
}

// PlainNumber is an N's digits as a json.Number when they are a JSON number
// a reader can take (a valid literal, no spaces around it, within float64's
// range: encoding/json refuses 1e400 into an any), else the text as a
// string — never invalid JSON. Every number DynamoDB stores is one.
func PlainNumber(s string) any {
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil || !json.Valid([]byte(s)) {
		return s
	}
	return json.Number(s)
}

package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// typedMap is an item as DynamoDB JSON: every value a one-key object
// naming its type ({"S":"x"}, {"N":"1"}, {"B":"<base64>"}, ...), numbers
// as strings, exactly as stored.
func typedMap(m map[string]types.AttributeValue, depth int) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for k, av := range m {
		v, err := typed(av, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

// maxDepth bounds recursion: DynamoDB nests at most 32 levels.
const maxDepth = 64

func typed(av types.AttributeValue, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}, nil
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}, nil
	case *types.AttributeValueMemberB:
		return map[string]any{"B": v.Value}, nil
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}, nil
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": true}, nil
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": nonNil(v.Value)}, nil
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": nonNil(v.Value)}, nil
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": nonNil(v.Value)}, nil
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			x, err := typed(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return map[string]any{"L": out}, nil
	case *types.AttributeValueMemberM:
		m, err := typedMap(v.Value, depth)
		if err != nil {
			return nil, err
		}
		return map[string]any{"M": m}, nil
	}
	return nil, fmt.Errorf("unsupported attribute type %T", av)
}

func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// ReadDDB reads a DynamoDB JSON export (one {"Item": {...}} per line) back
// into items. Numbers keep their digits; binary values are decoded.
func ReadDDB(r io.Reader) ([]data.Item, error) {
	var out []data.Item
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20) // an item is at most 400 KB, escaped up to 6×
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var rec struct {
			Item map[string]json.RawMessage
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if rec.Item == nil {
			return nil, fmt.Errorf("line %d: no \"Item\"", line)
		}
		it := make(data.Item, len(rec.Item))
		for k, raw := range rec.Item {
			av, err := untyped(raw, 0)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", line, k, err)
			}
			it[k] = av
		}
		out = append(out, it)
	}
	return out, sc.Err()
}

func untyped(raw json.RawMessage, depth int) (types.AttributeValue, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	var v map[string]json.RawMessage
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if len(v) != 1 {
		return nil, fmt.Errorf("a value has exactly one type key, got %d", len(v))
	}
	for t, body := range v {
		switch t {
		case "S":
			var s string
			err := json.Unmarshal(body, &s)
			return &types.AttributeValueMemberS{Value: s}, err
		case "N":
			var s string
			err := json.Unmarshal(body, &s)
			return &types.AttributeValueMemberN{Value: s}, err
		case "B":
			var b []byte
			err := json.Unmarshal(body, &b)
			return &types.AttributeValueMemberB{Value: b}, err
		case "BOOL":
			var b bool
			err := json.Unmarshal(body, &b)
			return &types.AttributeValueMemberBOOL{Value: b}, err
		case "NULL":
			return &types.AttributeValueMemberNULL{Value: true}, nil
		case "SS":
			var s []string
			err := json.Unmarshal(body, &s)
			return &types.AttributeValueMemberSS{Value: s}, err
		case "NS":
			var s []string
			err := json.Unmarshal(body, &s)
			return &types.AttributeValueMemberNS{Value: s}, err
		case "BS":
			var b [][]byte
			err := json.Unmarshal(body, &b)
			return &types.AttributeValueMemberBS{Value: b}, err
		case "L":
			var l []json.RawMessage
			if err := json.Unmarshal(body, &l); err != nil {
				return nil, err
			}
			out := make([]types.AttributeValue, len(l))
			for i, e := range l {
				av, err := untyped(e, depth+1)
				if err != nil {
					return nil, err
				}
				out[i] = av
			}
			return &types.AttributeValueMemberL{Value: out}, nil
		case "M":
			var m map[string]json.RawMessage
			if err := json.Unmarshal(body, &m); err != nil {
				return nil, err
			}
			out := make(map[string]types.AttributeValue, len(m))
			for k, e := range m {
				av, err := untyped(e, depth+1)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", k, err)
				}
				out[k] = av
			}
			return &types.AttributeValueMemberM{Value: out}, nil
		}
		return nil, fmt.Errorf("unknown type %q", t)
	}
	return nil, fmt.Errorf("empty value")
}

// marshal is compact JSON, HTML left alone, with every character a
// terminal or reader could act on written as a \u escape (encoding/json
// escapes C0 controls but passes C1 controls, DEL and bidi overrides
// through). The escapes only occur inside strings, where JSON allows them,
// so the text decodes to the same value.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	clean := true
	for _, c := range b {
		if c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return b, nil
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || (r != utf8.RuneError && data.IsUnsafeRune(r)) {
			out = appendU(out, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out, nil
}

func appendU(out []byte, r rune) []byte {
	u := func(x rune) []byte {
		s := strconv.FormatInt(int64(x), 16)
		for len(s) < 4 {
			s = "0" + s
		}
		return append(out, `\u`+s...)
	}
	if r < 0x10000 {
		return u(r)
	}
	r -= 0x10000
	out = u(0xd800 + (r >> 10))
	return u(0xdc00 + (r & 0x3ff))
}

package detail

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data/secret"
	"opsdeck/views/inert"
	"opsdeck/views/terminal"
)

// JSON renders an item as plain, indented JSON — the form an engineer pastes
// into a ticket or jq, not DynamoDB's typed JSON:
//
//	S → string, N → number (the exact stored digits, via json.Number),
//	BOOL → bool, NULL → null, M → object, L → array,
//	SS → array of strings, NS → array of numbers,
//	B → base64 string, BS → array of base64 strings.
//
// So the B/S and set/list distinctions are lost; the detail view shows them.
// Keys are sorted. Control characters come out as JSON escapes (\u001b), so
// the text is safe to print. Invalid UTF-8 in a string becomes U+FFFD, as
// encoding/json does; an N that is not a valid number is kept as a string
// rather than producing invalid JSON.
func JSON(item map[string]types.AttributeValue) (string, error) {
	return maskedJSON(item, nil)
}

// JSONMasked is JSON with secrets replaced by mask (nil mask = JSON). The
// detail view copies this unless secrets are revealed.
func JSONMasked(item map[string]types.AttributeValue, mask Masker) (string, error) {
	return maskedJSON(item, mask)
}

func maskedJSON(item map[string]types.AttributeValue, mask Masker) (string, error) {
	v, err := plainMap(item, nil, mask, 0)
	if err != nil {
		return "", err
	}
	return Indented(v)
}

// Indented is v as indented JSON, with <, > and & as they are (it is read
// by people, not embedded in HTML).
func Indented(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// maxDepth bounds recursion: DynamoDB allows 32 levels, so anything deeper is
// not from DynamoDB and is refused rather than risking the stack.
const maxDepth = 64

func plainMap(m map[string]types.AttributeValue, path []string, mask Masker, depth int) (map[string]any, error) {
	out := make(map[string]any, len(m))
	for k, av := range m {
		v, err := plain(av, append(path[:len(path):len(path)], k), mask, depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

func plain(av types.AttributeValue, path []string, mask Masker, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("item nested deeper than %d levels at %q", maxDepth, pathString(path))
	}
	if mask != nil && mask.Whole(path) && carries(av) {
		return secret.Mask, nil // a credential whatever its type
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		if mask != nil {
			if masked, isSecret := mask.String(path, v.Value); isSecret {
				return masked, nil
			}
		}
		return v.Value, nil
	case *types.AttributeValueMemberN:
		return number(v.Value), nil
	case *types.AttributeValueMemberBOOL:
		return v.Value, nil
	case *types.AttributeValueMemberNULL:
		return nil, nil
	case *types.AttributeValueMemberB:
		if mask != nil && mask.Binary(path, v.Value) {
			return secret.Mask, nil
		}
		return inert.Bytes(v.Value), nil
	case *types.AttributeValueMemberM:
		return plainMap(v.Value, path, mask, depth)
	case *types.AttributeValueMemberL:
		out := make([]any, len(v.Value))
		for i, e := range v.Value {
			x, err := plain(e, append(path[:len(path):len(path)], fmt.Sprintf("[%d]", i)), mask, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case *types.AttributeValueMemberSS:
		out := make([]string, len(v.Value))
		for i, s := range v.Value {
			out[i] = s
			if mask != nil {
				if masked, isSecret := mask.String(path, s); isSecret {
					out[i] = masked
				}
			}
		}
		return out, nil
	case *types.AttributeValueMemberNS:
		out := make([]any, len(v.Value))
		for i, s := range v.Value {
			out[i] = number(s)
		}
		return out, nil
	case *types.AttributeValueMemberBS:
		out := make([]string, len(v.Value))
		for i, b := range v.Value {
			out[i] = inert.Bytes(b)
			if mask != nil && mask.Binary(path, b) {
				out[i] = secret.Mask
			}
		}
		return out, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("unsupported attribute type %T at %q", av, pathString(path))
}

// number keeps the exact digits when they are a valid JSON number.
func number(s string) any {
	if s != "" && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) &&
		strings.TrimSpace(s) == s && json.Valid([]byte(s)) {
		return json.Number(s)
	}
	return s
}

// CopiedMsg reports a copy to the clipboard, for the status bar.
type CopiedMsg struct {
	Bytes  int
	Masked bool // secrets were masked in the copied text
	// RevealHint says how to reveal the masked secrets where the copy
	// was made ("" : s in the detail view).
	RevealHint string
	Err        error
}

// CopyCmd copies text to the system clipboard with OSC 52, written by the
// root in order with the frames (terminal.Msg); the terminal and tmux
// must allow OSC 52.
func CopyCmd(text string) tea.Cmd { return terminal.Copy(text) }

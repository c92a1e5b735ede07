package detail

import (
	"bytes"
	"encoding/json"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
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
	v, err := plainer(mask).Item(item)
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

// plainer is the one plain converter (data.Plainer) with the copy's
// masking: a value under a secret name is the mask whatever its type
// (carries), strings and binaries as the masker says. Without a masker it
// is data.Plain: binaries as []byte, which encoding/json writes as the same
// base64 as inert.Bytes.
func plainer(mask Masker) data.Plainer {
	if mask == nil {
		return data.Plainer{}
	}
	return data.Plainer{
		Whole: func(path []string, av types.AttributeValue) (any, bool) {
			if mask.Whole(path) && carries(av) {
				return secret.Mask, true // a credential whatever its type
			}
			return nil, false
		},
		String: func(path []string, s string) any {
			if masked, isSecret := mask.String(path, s); isSecret {
				return masked
			}
			return s
		},
		Binary: func(path []string, b []byte) any {
			if mask.Binary(path, b) {
				return secret.Mask
			}
			return inert.Bytes(b)
		},
	}
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

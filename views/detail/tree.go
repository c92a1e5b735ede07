package detail

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/views/inert"
)

// node is one logical line of the tree, before wrapping: an attribute, a
// list element, a set member, or a note.
type node struct {
	depth  int
	name   string // attribute name or "[i]" / "•"; raw
	typ    string // S, N, BOOL, NULL, M, L, SS, NS, BS, B; "" for notes
	value  string // raw text for leaves, summary for containers
	kind   kind
	secret bool // masked (or revealed) secret
	flag   bool // the data layer found a problem with this attribute
}

type kind int

const (
	kindValue kind = iota
	kindProblem
	kindNote
)

// A Masker decides what of a value is secret (data/secret.Default in the
// console): a whole value of any type, parts of a string, a binary value.
type Masker = secret.Masker

// flatten walks the item into nodes: attributes in opts.First order, then the
// rest sorted by name.
func flatten(item map[string]types.AttributeValue, o Options) []node {
	names := make([]string, 0, len(item))
	for k := range item {
		names = append(names, k)
	}
	sort.Strings(names)
	order := make([]string, 0, len(names))
	seen := map[string]bool{}
	for _, k := range o.First {
		if _, ok := item[k]; ok && !seen[k] {
			order = append(order, k)
			seen[k] = true
		}
	}
	for _, k := range names {
		if !seen[k] {
			order = append(order, k)
		}
	}
	var out []node
	for _, k := range order {
		at := len(out)
		out = walk(out, k, item[k], []string{k}, 0, o)
		if note, ok := o.Problems[k]; ok {
			out[at].flag = true
			out = append(out, node{depth: 1, value: problemNote(k, item[k], note, o), kind: kindProblem})
		}
	}
	// Problems about attributes the item does not have at all ("missing").
	var missing []string
	for k := range o.Problems {
		if _, ok := item[k]; !ok {
			missing = append(missing, k)
		}
	}
	sort.Strings(missing)
	for _, k := range missing {
		out = append(out, node{name: k, typ: "-", value: "(missing)", kind: kindProblem})
		out = append(out, node{depth: 1, value: o.Problems[k], kind: kindProblem})
	}
	return out
}

// problemNote is a decode problem's note as shown. Notes quote the value
// they are about ("not a number: \"…\""), so until the item is revealed
// they are masked like it: by shape, and whole when the attribute is a
// credential that carries a value.
func problemNote(attr string, av types.AttributeValue, note string, o Options) string {
	if o.Mask == nil || o.Reveal {
		return note
	}
	if o.Mask.Whole([]string{attr}) && carries(av) {
		return attr + ": " + secret.Mask + " (a problem with this credential's value; s reveals it)"
	}
	note, _ = o.Mask.String(nil, note)
	return note
}

// maxDepth bounds recursion: DynamoDB allows 32 levels, so anything deeper is
// not from DynamoDB and is shown as a note rather than risking the stack (the
// JSON copy refuses it: data.Plainer has the same bound).
const maxDepth = 64

func walk(out []node, name string, av types.AttributeValue, path []string, depth int, o Options) []node {
	if depth > maxDepth {
		return append(out, node{depth: depth, name: name, value: "(nested too deep to show)", kind: kindNote})
	}
	child := func(p string) []string { return append(path[:len(path):len(path)], p) }
	if o.Mask != nil && o.Mask.Whole(path) && carries(av) {
		// A credential whatever its type: a signing key stored as a list
		// is shown as masked as one stored as a string.
		if !o.Reveal {
			return append(out, node{depth: depth, name: name, typ: data.TypeName(av), value: secret.Mask, secret: true})
		}
		o.Mask = revealAll{} // walk it as it is, every leaf marked secret
	}
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		n := node{depth: depth, name: name, typ: "S", value: v.Value}
		n.value, n.secret = masked(path, v.Value, o)
		return append(out, n)
	case *types.AttributeValueMemberN:
		_, whole := o.Mask.(revealAll)
		n := node{depth: depth, name: name, typ: "N", value: v.Value, secret: whole}
		if unit, ok := o.Epochs[name]; ok && depth == 0 && !whole {
			n.value = epochText(v.Value, unit, o)
		}
		return append(out, n)
	case *types.AttributeValueMemberBOOL:
		return append(out, node{depth: depth, name: name, typ: "BOOL", value: strconv.FormatBool(v.Value)})
	case *types.AttributeValueMemberNULL:
		return append(out, node{depth: depth, name: name, typ: "NULL", value: "null"})
	case *types.AttributeValueMemberB:
		if o.Mask != nil && o.Mask.Binary(path, v.Value) {
			if !o.Reveal {
				return append(out, node{depth: depth, name: name, typ: "B", value: secret.Mask, secret: true})
			}
			return append(out, node{depth: depth, name: name, typ: "B", value: inert.Bytes(v.Value) + " (" + count(len(v.Value), "byte", "bytes") + ")", secret: true})
		}
		return append(out, node{depth: depth, name: name, typ: "B", value: inert.Bytes(v.Value) + " (" + count(len(v.Value), "byte", "bytes") + ")"})
	case *types.AttributeValueMemberM:
		out = append(out, node{depth: depth, name: name, typ: "M", value: count(len(v.Value), "key", "keys")})
		keys := make([]string, 0, len(v.Value))
		for k := range v.Value {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = walk(out, k, v.Value[k], child(k), depth+1, o)
		}
		return out
	case *types.AttributeValueMemberL:
		out = append(out, node{depth: depth, name: name, typ: "L", value: count(len(v.Value), "item", "items")})
		for i, e := range v.Value {
			idx := "[" + strconv.Itoa(i) + "]"
			out = walk(out, idx, e, child(idx), depth+1, o)
		}
		return out
	case *types.AttributeValueMemberSS:
		out = append(out, node{depth: depth, name: name, typ: "SS", value: count(len(v.Value), "member", "members")})
		for _, s := range v.Value {
			n := node{depth: depth + 1, name: "•", typ: "S"}
			n.value, n.secret = masked(path, s, o)
			out = append(out, n)
		}
		return out
	case *types.AttributeValueMemberNS:
		out = append(out, node{depth: depth, name: name, typ: "NS", value: count(len(v.Value), "member", "members")})
		for _, s := range v.Value {
			out = append(out, node{depth: depth + 1, name: "•", typ: "N", value: s})
		}
		return out
	case *types.AttributeValueMemberBS:
		out = append(out, node{depth: depth, name: name, typ: "BS", value: count(len(v.Value), "member", "members")})
		for _, b := range v.Value {
			n := node{depth: depth + 1, name: "•", typ: "B", value: inert.Bytes(b) + " (" + count(len(b), "byte", "bytes") + ")"}
			if o.Mask != nil && o.Mask.Binary(path, b) {
				n.secret = true
				if !o.Reveal {
					n.value = secret.Mask
				}
			}
			out = append(out, n)
		}
		return out
	case nil:
		return append(out, node{depth: depth, name: name, typ: "?", value: "(no value)", kind: kindProblem})
	}
	return append(out, node{depth: depth, name: name, typ: "?", value: fmt.Sprintf("(unsupported type %T)", av), kind: kindProblem})
}

func masked(path []string, v string, o Options) (string, bool) {
	if o.Mask == nil {
		return v, false
	}
	m, secret := o.Mask.String(path, v)
	if !secret {
		return v, false
	}
	if o.Reveal {
		return v, true
	}
	return m, true
}

// carries reports whether a value can hold a secret at all: a flag or a
// null cannot, and stays readable under a secret name.
func carries(av types.AttributeValue) bool {
	switch av.(type) {
	case nil, *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return false
	}
	return true
}

// revealAll marks every leaf of a revealed whole secret as secret (for its
// styling) and masks nothing: the masker used below a secret name once the
// operator pressed s.
type revealAll struct{}

func (revealAll) Whole([]string) bool                        { return false }
func (revealAll) String(_ []string, s string) (string, bool) { return s, true }
func (revealAll) Binary([]string, []byte) bool               { return true }

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

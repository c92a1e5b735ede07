package detail

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

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

// MaskFunc decides whether a string value is a secret and how to show it
// masked. path is the attribute path: top-level name, then map keys and
// "[i]" for list indexes.
type MaskFunc func(path []string, value string) (masked string, isSecret bool)

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
			out = append(out, node{depth: 1, value: note, kind: kindProblem})
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

func walk(out []node, name string, av types.AttributeValue, path []string, depth int, o Options) []node {
	if depth > maxDepth {
		return append(out, node{depth: depth, name: name, value: "(nested too deep to show)", kind: kindNote})
	}
	child := func(p string) []string { return append(path[:len(path):len(path)], p) }
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		n := node{depth: depth, name: name, typ: "S", value: v.Value}
		n.value, n.secret = masked(path, v.Value, o)
		return append(out, n)
	case *types.AttributeValueMemberN:
		return append(out, node{depth: depth, name: name, typ: "N", value: v.Value})
	case *types.AttributeValueMemberBOOL:
		return append(out, node{depth: depth, name: name, typ: "BOOL", value: strconv.FormatBool(v.Value)})
	case *types.AttributeValueMemberNULL:
		return append(out, node{depth: depth, name: name, typ: "NULL", value: "null"})
	case *types.AttributeValueMemberB:
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
			out = append(out, node{depth: depth + 1, name: "•", typ: "B", value: inert.Bytes(b) + " (" + count(len(b), "byte", "bytes") + ")"})
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
	m, secret := o.Mask(path, v)
	if !secret {
		return v, false
	}
	if o.Reveal {
		return v, true
	}
	return m, true
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func pathString(path []string) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

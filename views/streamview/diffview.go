package streamview

import (
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/data/secret"
	"opsdeck/data/stream"
	"opsdeck/views/inert"
)

// Limits of the comparison. DynamoDB nests at most 32 levels; the row and
// line caps keep a pathological 400 KB item from taking seconds to lay out.
const (
	maxDepth         = 32
	maxDiffRows      = 20_000
	leafClip         = 4096 // bytes of one value shown in the comparison
	maxLinesPerValue = 40
)

// Marks of the comparison's first column.
const (
	markSame    = ' '
	markAdded   = '+'
	markRemoved = '-'
	markChanged = '~'
)

// diffRow is one attribute (or nested map entry / list element) of the
// comparison, flattened into an indented tree.
type diffRow struct {
	depth     int
	name      string
	mark      byte
	container bool
	old, new  string // raw leaf text; "" when absent
}

// diffView shows a record's old and new image side by side. Rows are
// computed once when it opens; lines are re-laid out only on resize.
type diffView struct {
	rec  stream.Record
	mask MaskFunc
	// revealed shows secrets unmasked; it lasts as long as this comparison
	// (one record), never for the whole pane.
	revealed bool

	title   string
	note    string // why marks are absent, when the stream gave one image only
	rows    []diffRow
	added   int
	removed int
	changed int

	width int
	lines []diffLine
	top   int
	body  int // rows of lines visible, from the last View
}

// diffLine is one laid-out screen line.
type diffLine struct {
	mark      byte
	container bool
	name      string // sanitised, cut
	old, new  string // sanitised, one wrapped segment each
}

func (m *Model) openDiff() {
	e, ok := m.selectedEntry()
	if !ok {
		return
	}
	m.diff = newDiffView(e.rec, e.arrived, m.loc, m.mask)
	m.diff.resize(m.width, m.height)
	m.mode = modeDiff
}

func newDiffView(r stream.Record, arrived time.Time, loc *time.Location, mask MaskFunc) *diffView {
	d := &diffView{rec: r, mask: mask}
	// The times before the key: a long key is cut at the edge, and the
	// rows below give it whole.
	d.title = strings.Join([]string{
		tableLabel(r), eventLabel(r),
		"arrived " + timeText(arrived, loc), createdText(r.ApproxTime, loc),
		maskedKeyText(r, mask),
	}, " · ")
	d.build()
	return d
}

// build flattens the images into rows, masking secrets unless revealed.
func (d *diffView) build() {
	r := d.rec
	d.rows, d.note, d.added, d.removed, d.changed = d.rows[:0], "", 0, 0, 0
	old, new := r.Old, r.New
	compare := true
	switch {
	case r.EventName == "MODIFY" && old == nil:
		d.note = "the stream carries no old image (view type NEW_IMAGE): showing the new image unmarked"
		compare = false
	case r.EventName == "REMOVE" && old == nil:
		d.note = "the stream carries no old image for deletes: showing the keys"
		old, compare = r.Keys, false
	case old == nil && new == nil:
		d.note = "the stream carries keys only"
		new, compare = r.Keys, false
	}
	for _, name := range attrOrder(r.Table, old, new) {
		d.flatten(name, []string{name}, old[name], new[name], compare)
	}
}

// attrOrder lists the attributes of both images, key attributes first.
func attrOrder(t data.TableID, a, b data.Item) []string {
	seen := map[string]bool{}
	var out []string
	if s, ok := data.Schema(t); ok {
		for _, k := range s.KeyNames() {
			_, inA := a[k]
			_, inB := b[k]
			if inA || inB {
				out = append(out, k)
				seen[k] = true
			}
		}
	}
	for _, k := range unionKeys(a, b) {
		if !seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// unionKeys lists, sorted, the names in either of two images (or maps).
func unionKeys(a, b map[string]types.AttributeValue) []string {
	union := make(map[string]bool, len(a)+len(b))
	for k := range a {
		union[k] = true
	}
	for k := range b {
		union[k] = true
	}
	return sortedKeys(union)
}

func (d *diffView) flatten(name string, path []string, ov, nv types.AttributeValue, compare bool) {
	depth := len(path) - 1
	if len(d.rows) >= maxDiffRows {
		return
	}
	mark := byte(markSame)
	if compare {
		switch {
		case ov == nil && nv != nil:
			mark = markAdded
		case ov != nil && nv == nil:
			mark = markRemoved
		case !data.EqualValues(ov, nv):
			mark = markChanged
		}
		if depth == 0 {
			switch mark {
			case markAdded:
				d.added++
			case markRemoved:
				d.removed++
			case markChanged:
				d.changed++
			}
		}
	}
	mask := d.mask
	if d.revealed {
		mask = nil
	}
	if wholeSecret(ov, path, mask) || wholeSecret(nv, path, mask) {
		// A credential of any type is one masked leaf, never expanded
		// into its elements.
		d.rows = append(d.rows, diffRow{depth: depth, name: name, mark: mark, old: leafText(ov, path, mask), new: leafText(nv, path, mask)})
		return
	}
	om, oIsM := ov.(*types.AttributeValueMemberM)
	nm, nIsM := nv.(*types.AttributeValueMemberM)
	ol, oIsL := ov.(*types.AttributeValueMemberL)
	nl, nIsL := nv.(*types.AttributeValueMemberL)
	if depth < maxDepth && (oIsM || ov == nil) && (nIsM || nv == nil) && (oIsM || nIsM) {
		var a, b map[string]types.AttributeValue
		if oIsM {
			a = om.Value
		}
		if nIsM {
			b = nm.Value
		}
		d.rows = append(d.rows, diffRow{depth: depth, name: name, mark: mark, container: true,
			old: containerTag("M", len(a), oIsM), new: containerTag("M", len(b), nIsM)})
		for _, k := range unionKeys(a, b) {
			d.flatten(k, child(path, k), a[k], b[k], compare)
		}
		return
	}
	if depth < maxDepth && (oIsL || ov == nil) && (nIsL || nv == nil) && (oIsL || nIsL) {
		var a, b []types.AttributeValue
		if oIsL {
			a = ol.Value
		}
		if nIsL {
			b = nl.Value
		}
		d.rows = append(d.rows, diffRow{depth: depth, name: name, mark: mark, container: true,
			old: containerTag("L", len(a), oIsL), new: containerTag("L", len(b), nIsL)})
		for i := 0; i < max(len(a), len(b)); i++ {
			var x, y types.AttributeValue
			if i < len(a) {
				x = a[i]
			}
			if i < len(b) {
				y = b[i]
			}
			idx := "[" + strconv.Itoa(i) + "]"
			d.flatten(idx, child(path, idx), x, y, compare)
		}
		return
	}
	o, n := leafText(ov, path, mask), leafText(nv, path, mask)
	if ov != nil && nv != nil && data.TypeName(ov) != data.TypeName(nv) {
		o += " (" + data.TypeName(ov) + ")"
		n += " (" + data.TypeName(nv) + ")"
	}
	d.rows = append(d.rows, diffRow{depth: depth, name: name, mark: mark, old: o, new: n})
}

func containerTag(t string, n int, present bool) string {
	if !present {
		return ""
	}
	if t == "L" {
		return "[" + strconv.Itoa(n) + " items]"
	}
	return "{" + strconv.Itoa(n) + " attributes}"
}

// leafText is a value's full text (up to leafClip bytes): binary as base64,
// sets sorted.
func leafText(v types.AttributeValue, path []string, mask MaskFunc) string {
	switch x := v.(type) {
	case nil:
		return ""
	case *types.AttributeValueMemberS:
		if wholeSecret(v, path, mask) {
			return secret.Mask
		}
		return clipText(masked(x.Value, path, mask), leafClip)
	case *types.AttributeValueMemberB:
		if wholeSecret(v, path, mask) || mask != nil && mask.Binary(path, x.Value) {
			return secret.Mask
		}
		return clipText(inert.Bytes(x.Value), leafClip)
	}
	return maskedText(v, leafClip, path, mask)
}

// Over 400 lines on purpose: one tolerant decoder (one problem report, one
// rule per attribute type) that every record type uses; kept whole so the rules stay alike.

package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// decoder reads typed fields out of one item and remembers everything odd it
// meets. Every accessor accepts any AttributeValue (including nil and types
// the SDK may add later) and falls back to a zero value plus a Problem, so a
// decode can never panic and never loses the raw value.
type decoder struct {
	item  Item
	attrs map[string]string // documented attributes → type, from the schema
	// seen lists the attributes a reader asked for. A record type asks for
	// a dozen or two, so a slice searched in finish beats a map, which cost
	// a third of a decode.
	seen       []string
	problems   []Problem
	unreadable []string
}

// decoders are reused: a load-all decodes 100k items, and each decoder
// would otherwise be garbage along with its seen list. finish returns it.
var decoders = sync.Pool{New: func() any { return new(decoder) }}

func newDecoder(id TableID, item Item) *decoder {
	d := decoders.Get().(*decoder)
	d.item = item
	if s, ok := Schema(id); ok {
		d.attrs = s.Attrs
	}
	return d
}

// release returns d to the pool. problems and unreadable went out in the
// record's Meta, so they are dropped, never reused; only seen's array is.
func (d *decoder) release() {
	*d = decoder{seen: d.seen[:0]}
	decoders.Put(d)
}

// unread remembers an attribute that is present but has no reading (the
// typed field holds its zero value), so the UI can say "unreadable" rather
// than show the zero value's meaning ("never", 0).
func (d *decoder) unread(attr string) {
	d.unreadable = append(d.unreadable, attr)
}

func (d *decoder) flag(attr, want, got, note string) {
	d.problems = append(d.problems, Problem{Attr: attr, Want: want, Got: got, Note: note})
}

// get returns the attribute, flagging it when required and missing. A NULL
// value counts as missing for typed fields (and is flagged if required).
func (d *decoder) get(name, want string, required bool) (types.AttributeValue, bool) {
	d.seen = append(d.seen, name)
	v, ok := d.item[name]
	if !ok || v == nil {
		if required {
			d.flag(name, want, "missing", "required attribute is absent")
		}
		return nil, false
	}
	if _, isNull := v.(*types.AttributeValueMemberNULL); isNull {
		if required {
			d.flag(name, want, "NULL", "required attribute is NULL")
		}
		return nil, false
	}
	return v, true
}

// str reads a string. Numbers and booleans are accepted in their text form
// (flagged); other types give "".
func (d *decoder) str(name string, required bool) string {
	v, ok := d.get(name, "S", required)
	if !ok {
		return ""
	}
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		d.checkText(name, x.Value)
		return x.Value
	case *types.AttributeValueMemberN:
		d.flag(name, "S", "N", "number read as text")
		return x.Value
	case *types.AttributeValueMemberBOOL:
		d.flag(name, "S", "BOOL", "boolean read as text")
		return strconv.FormatBool(x.Value)
	default:
		d.flag(name, "S", TypeName(v), "value kept in Raw only")
		return ""
	}
}

// checkText flags strings that would be dangerous or garbled on a terminal.
// The value is kept verbatim; making it inert is the UI's job.
func (d *decoder) checkText(name, s string) {
	if !utf8.ValidString(s) {
		d.flag(name, "", "", "invalid UTF-8 in string")
		return
	}
	for _, r := range s {
		if r == 0x1b || (unicode.IsControl(r) && r != '\t' && r != '\n') {
			d.flag(name, "", "", "string contains control characters")
			return
		}
	}
}

// number reads a number as float64. A numeric string is accepted (flagged).
func (d *decoder) number(name string, required bool) (float64, bool) {
	v, ok := d.get(name, "N", required)
	if !ok {
		return 0, false
	}
	var text string
	switch x := v.(type) {
	case *types.AttributeValueMemberN:
		text = x.Value
	case *types.AttributeValueMemberS:
		text = strings.TrimSpace(x.Value)
		if _, err := strconv.ParseFloat(text, 64); err == nil {
			d.flag(name, "N", "S", "numeric string read as a number")
		}
	default:
		d.flag(name, "N", TypeName(v), "value kept in Raw only")
		d.unread(name)
		return 0, false
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) {
		d.flag(name, "N", TypeName(v), fmt.Sprintf("not a number: %q", Clip(text, 40)))
		d.unread(name)
		return 0, false
	}
	return f, true
}

// num reads a number exactly as stored (see Number). A numeric string is
// accepted (flagged); anything else present is unreadable (flagged, and
// remembered for Meta.Unreadable).
func (d *decoder) num(name string, required bool) Number {
	v, ok := d.get(name, "N", required)
	if !ok {
		return Number{}
	}
	var text string
	switch x := v.(type) {
	case *types.AttributeValueMemberN:
		text = x.Value
	case *types.AttributeValueMemberS:
		text = x.Value
	default:
		d.flag(name, "N", TypeName(v), "value kept in Raw only")
		d.unread(name)
		return Number{unreadable: true}
	}
	n, ok := parseNumberText(text)
	if !ok {
		d.flag(name, "N", TypeName(v), fmt.Sprintf("not a number: %q", Clip(text, 40)))
		d.unread(name)
		return n
	}
	if _, isS := v.(*types.AttributeValueMemberS); isS {
		d.flag(name, "N", "S", "numeric string read as a number")
	}
	return n
}

// count reads a whole number. A fraction or a value beyond int64 is kept
// exactly as stored (Number.Text) and flagged, never truncated or clamped.
func (d *decoder) count(name string, required bool) Number {
	n := d.num(name, required)
	if !n.Present() {
		return n
	}
	if _, ok := n.Int64(); !ok {
		if f, _ := ParseNumber(n.Text); f != nil && f.IsInt() {
			d.flag(name, "integer", "N", "beyond int64; shown as stored")
		} else {
			d.flag(name, "integer", "N", "not a whole number; shown as stored")
		}
	}
	return n
}

func (d *decoder) boolean(name string, required bool) bool {
	v, ok := d.get(name, "BOOL", required)
	if !ok {
		return false
	}
	switch x := v.(type) {
	case *types.AttributeValueMemberBOOL:
		return x.Value
	case *types.AttributeValueMemberS:
		if b, err := strconv.ParseBool(strings.TrimSpace(x.Value)); err == nil {
			d.flag(name, "BOOL", "S", "boolean string read as a boolean")
			return b
		}
	case *types.AttributeValueMemberN:
		if x.Value == "0" || x.Value == "1" {
			d.flag(name, "BOOL", "N", "0/1 read as a boolean")
			return x.Value == "1"
		}
	}
	d.flag(name, "BOOL", TypeName(v), "value kept in Raw only")
	return false
}

func (d *decoder) mapAttr(name string, required bool) map[string]types.AttributeValue {
	v, ok := d.get(name, "M", required)
	if !ok {
		return nil
	}
	if m, ok := v.(*types.AttributeValueMemberM); ok {
		return m.Value
	}
	d.flag(name, "M", TypeName(v), "value kept in Raw only")
	return nil
}

func (d *decoder) listAttr(name string) []types.AttributeValue {
	v, ok := d.get(name, "L", false)
	if !ok {
		return nil
	}
	if l, ok := v.(*types.AttributeValueMemberL); ok {
		return l.Value
	}
	d.flag(name, "L", TypeName(v), "value kept in Raw only")
	return nil
}

// strings reads a list of strings from an L (of S) or an SS.
func (d *decoder) stringList(name string) []string {
	v, ok := d.get(name, "L", false)
	if !ok {
		return nil
	}
	switch x := v.(type) {
	case *types.AttributeValueMemberSS:
		d.flag(name, "L", "SS", "string set read as a list")
		return append([]string(nil), x.Value...)
	case *types.AttributeValueMemberL:
		out := make([]string, 0, len(x.Value))
		for i, e := range x.Value {
			if s, ok := e.(*types.AttributeValueMemberS); ok {
				out = append(out, s.Value)
				continue
			}
			d.flag(fmt.Sprintf("%s[%d]", name, i), "S", TypeName(e), "element skipped, kept in Raw")
		}
		return out
	}
	d.flag(name, "L", TypeName(v), "value kept in Raw only")
	return nil
}

// timeAttr reads a point in time stored either as an ISO8601 string or as
// unix seconds. native is how the schema stores it ("S" or "N"); the other
// form is accepted and flagged, because real services mix them (Wallcrawler's
// container writes a numeric updatedAt). Zero (0 or "") means "not set" and
// gives the zero time.
func (d *decoder) timeAttr(name, native string, required bool) time.Time {
	want := "ISO8601 string"
	if native == "N" {
		want = "unix seconds"
	}
	v, ok := d.get(name, native, required)
	if !ok {
		return time.Time{}
	}
	switch x := v.(type) {
	case *types.AttributeValueMemberS:
		if strings.TrimSpace(x.Value) == "" {
			return time.Time{}
		}
		t, exact, err := ParseTime(x.Value)
		if err != nil {
			d.flag(name, want, "S", fmt.Sprintf("unreadable time %q", Clip(x.Value, 40)))
			d.unread(name)
			return time.Time{}
		}
		if native == "N" {
			d.flag(name, want, "S", "ISO8601 string accepted as a time")
		} else if !exact {
			d.flag(name, want, "S", "time without a zone read as UTC")
		}
		return t
	case *types.AttributeValueMemberN:
		f, err := strconv.ParseFloat(x.Value, 64)
		if err != nil {
			d.flag(name, want, "N", fmt.Sprintf("not a number: %q", Clip(x.Value, 40)))
			d.unread(name)
			return time.Time{}
		}
		t, note := unixTime(f)
		if t.IsZero() && f != 0 {
			d.unread(name)
		}
		if native == "S" {
			n := "numeric time accepted as unix seconds"
			if note != "" {
				n = "numeric time accepted; " + note
			}
			d.flag(name, want, "N", n)
		} else if note != "" {
			d.flag(name, want, "N", note)
		}
		return t
	default:
		d.flag(name, want, TypeName(v), "value kept in Raw only")
		d.unread(name)
		return time.Time{}
	}
}

// unixTime converts unix seconds, guessing milliseconds for values too large
// to be seconds (after year 5138), and returns a note when it guessed.
func unixTime(f float64) (time.Time, string) {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return time.Time{}, ""
	}
	note := ""
	if math.Abs(f) >= 1e11 {
		f /= 1000
		note = "value looks like milliseconds"
	}
	if math.Abs(f) > 1e13 { // far outside any sane range; keep it representable
		return time.Time{}, "time out of range"
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC(), note
}

// isoLayouts are the ISO8601 shapes seen in the five services, most common
// first. Layouts without a zone are read as UTC.
var isoLayouts = []struct {
	layout string
	zoned  bool
}{
	{time.RFC3339Nano, true},
	{"2006-01-02T15:04:05.999999999Z0700", true},
	{"2006-01-02 15:04:05.999999999Z07:00", true},
	{"2006-01-02T15:04:05.999999999", false},
	{"2006-01-02 15:04:05.999999999", false},
	{"2006-01-02", false},
}

// ParseTime reads an ISO8601 timestamp in any of the shapes the services
// write (RFC 3339 with or without fractional seconds, Python's isoformat with
// or without a zone, a bare date). exact is false when no zone was given and
// UTC was assumed.
func ParseTime(s string) (t time.Time, exact bool, err error) {
	s = strings.TrimSpace(s)
	for _, l := range isoLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			return t.UTC(), l.zoned, nil
		}
	}
	return time.Time{}, false, fmt.Errorf("not an ISO8601 time: %q", Clip(s, 40))
}

// finish flags attributes the schema does not document, in name order so
// the problems come out the same every time, and returns the record's Meta.
// Unknown attributes are normal in evolving schemas, so the note says so;
// they remain visible in Raw. d goes back to the pool: it must not be used
// after finish.
func (d *decoder) finish() Meta {
	if d.attrs != nil {
		var unknown []string
		for name := range d.item {
			if slices.Contains(d.seen, name) {
				continue
			}
			if _, documented := d.attrs[name]; documented {
				continue
			}
			unknown = append(unknown, name)
		}
		slices.Sort(unknown)
		for _, name := range unknown {
			d.flag(name, "", TypeName(d.item[name]), "attribute not in the schema (kept in Raw)")
		}
	}
	m := Meta{Raw: d.item, Problems: d.problems, unreadable: d.unreadable}
	d.release()
	return m
}

// Clip shortens s to at most n bytes, cut on a rune boundary and marked
// with "…", so a huge or hostile value cannot make a message huge.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

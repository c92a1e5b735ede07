package data

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Comparison terms, as the operator types them after :table NAME (and
// after a modeled pane's command where it adds a filter):
//
//	field=value   field!=value   field<value   field<=value
//	field>value   field>=value   field^=prefix (begins_with)
//	field=a..b    (between, inclusive)         index=NAME (force an index)
//
// A value that reads as a number is sent as a number (N), unless the
// attribute is a key, or a documented attribute, of string type; to force
// a string, quote it: id="100". now, now-1h, now+30m, now-2d, now-90s and
// now-1w are unix seconds (numbers). PlanQuery turns terms into a Scope:
// a key condition where the keys allow, a FilterExpression for the rest.

// Op is a comparison term's operator.
type Op uint8

const (
	OpNone    Op = iota // not a term
	OpEq                // attr = value
	OpNe                // attr <> value (true when attr is absent)
	OpLt                // attr < value
	OpLe                // attr <= value
	OpGt                // attr > value
	OpGe                // attr >= value
	OpBegins            // begins_with(attr, value)
	OpBetween           // attr BETWEEN value AND high
	OpIndex             // index=NAME: not a condition, forces the index
)

// Term is one comparison. Attr and Value are as typed (quotes removed);
// Type is the DynamoDB type the value is sent as, settled by PlanQuery
// (or Scope.Where) from the schema: empty until then.
type Term struct {
	Attr   string
	Op     Op
	Value  string
	High   string // OpBetween's upper bound
	Quoted bool   // the value was quoted: always a string
	Type   AttrType
}

// symbol is the operator as the plan shows it.
func (o Op) symbol() string {
	switch o {
	case OpEq:
		return "="
	case OpNe:
		return "!="
	case OpLt:
		return "<"
	case OpLe:
		return "<="
	case OpGt:
		return ">"
	case OpGe:
		return ">="
	case OpBegins:
		return "^="
	case OpBetween:
		return "between"
	case OpIndex:
		return "index="
	}
	return "?"
}

// ErrNotTerm is what ParseTerm returns for a word without an operator: not
// a comparison (the caller may take it as a plain filter word).
var ErrNotTerm = errors.New("not a comparison")

// ParseTerm reads one term. now is the instant "now" stands for. A word
// with no operator gives ErrNotTerm; a malformed term (no attribute, a bad
// now-offset, an empty between bound) another error naming the problem.
func ParseTerm(word string, now time.Time) (Term, error) {
	i, op, width := findOp(word)
	if op == OpNone {
		return Term{}, ErrNotTerm
	}
	attr, _ := unquote(word[:i])
	raw := word[i+width:]
	if attr == "" {
		return Term{}, fmt.Errorf("%q: no attribute before %s", word, op.symbol())
	}
	if op == OpEq && attr == "index" && word[:i] == "index" {
		if raw == "" {
			return Term{}, fmt.Errorf("%q: index= needs an index name", word)
		}
		return Term{Op: OpIndex, Value: raw}, nil
	}
	t := Term{Attr: attr, Op: op}
	if lo, hi, ok := splitRange(raw); ok && op == OpEq {
		t.Op = OpBetween
		var q1, q2 bool
		var err error
		if t.Value, q1, err = termValue(lo, now); err != nil {
			return Term{}, fmt.Errorf("%q: %w", word, err)
		}
		if t.High, q2, err = termValue(hi, now); err != nil {
			return Term{}, fmt.Errorf("%q: %w", word, err)
		}
		t.Quoted = q1 || q2
		if lo == "" || hi == "" {
			return Term{}, fmt.Errorf("%q: a range needs both bounds (a..b)", word)
		}
		return t, nil
	}
	var err error
	if t.Value, t.Quoted, err = termValue(raw, now); err != nil {
		return Term{}, fmt.Errorf("%q: %w", word, err)
	}
	return t, nil
}

// ParseTerms reads every word; the words that are no comparison come back
// in rest, in order.
func ParseTerms(words []string, now time.Time) (terms []Term, rest []string, err error) {
	for _, w := range words {
		t, err := ParseTerm(w, now)
		switch {
		case errors.Is(err, ErrNotTerm):
			rest = append(rest, w)
		case err != nil:
			return nil, nil, err
		default:
			terms = append(terms, t)
		}
	}
	return terms, rest, nil
}

// findOp finds the first operator of word: its offset, kind and length.
func findOp(word string) (int, Op, int) {
	inQuote := false
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c == '"' {
			inQuote = !inQuote
			continue
		}
		if inQuote {
			continue
		}
		next := byte(0)
		if i+1 < len(word) {
			next = word[i+1]
		}
		switch {
		case c == '!' && next == '=':
			return i, OpNe, 2
		case c == '^' && next == '=':
			return i, OpBegins, 2
		case c == '<' && next == '=':
			return i, OpLe, 2
		case c == '>' && next == '=':
			return i, OpGe, 2
		case c == '<':
			return i, OpLt, 1
		case c == '>':
			return i, OpGt, 1
		case c == '=':
			return i, OpEq, 1
		}
	}
	return 0, OpNone, 0
}

// unquote strips one pair of double quotes around s.
func unquote(s string) (string, bool) {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.Contains(s[1:len(s)-1], `"`) {
		return s[1 : len(s)-1], true
	}
	return s, false
}

// splitRange splits "a..b" (not inside one quoted string).
func splitRange(s string) (lo, hi string, ok bool) {
	if _, quoted := unquote(s); quoted {
		return "", "", false
	}
	i := strings.Index(s, "..")
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+2:], true
}

// termValue is a value as typed: quotes removed, now[±N unit] as unix
// seconds.
func termValue(s string, now time.Time) (string, bool, error) {
	if v, ok := unquote(s); ok {
		return v, true, nil
	}
	if !strings.HasPrefix(s, "now") {
		return s, false, nil
	}
	off, err := nowOffset(s[len("now"):])
	if err != nil {
		return "", false, err
	}
	return strconv.FormatInt(now.Add(off).Unix(), 10), false, nil
}

// maxNowOffset bounds now±N: further would overflow a Duration, and no
// item's time is that far away.
const maxNowOffset = 100 * 365 * 24 * time.Hour

// nowOffset reads "", "-1h", "+30m", "-2d", "-90s", "-1w".
func nowOffset(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	sign := time.Duration(1)
	switch s[0] {
	case '-':
		sign = -1
	case '+':
	default:
		return 0, fmt.Errorf("now%s: want now, now-1h, now+30m, now-2d", s)
	}
	body := s[1:]
	if len(body) < 2 {
		return 0, fmt.Errorf("now%s: want a count and a unit (s, m, h, d, w)", s)
	}
	n, err := strconv.ParseInt(body[:len(body)-1], 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("now%s: want a whole count before the unit", s)
	}
	unit := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[body[len(body)-1]]
	if unit == 0 {
		return 0, fmt.Errorf("now%s: unit must be s, m, h, d or w", s)
	}
	if time.Duration(n) > maxNowOffset/unit {
		return 0, fmt.Errorf("now%s: more than 100 years away", s)
	}
	return sign * time.Duration(n) * unit, nil
}

// looksNumeric reports whether s is a decimal number as DynamoDB writes
// one: an optional minus, digits with an optional fraction, an optional
// exponent. "1e3" and "-0.5" are; "0x10", "1_000", "Inf" and " 1" are not.
func looksNumeric(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, exp = i+1, exp+1
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s) && len(s) <= maxNumberLen
}

// String is the term as the operator would type it (the value raw).
func (t Term) String() string {
	switch t.Op {
	case OpIndex:
		return "index=" + t.Value
	case OpBetween:
		return t.Attr + "=" + t.Value + ".." + t.High
	}
	return t.Attr + t.Op.symbol() + t.Value
}

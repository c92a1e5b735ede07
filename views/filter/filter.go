// Package filter is the grammar of the `/` filter line. It parses what the
// operator typed into terms and matches rows against them; it knows nothing
// of tables or panes: the caller says what a row's text is and how to read
// one of its fields.
//
// The grammar, terms separated by spaces, every term must hold:
//
//	text           rows whose text contains text (case-insensitive)
//	!text          rows whose text does not contain text
//	~regex         rows with a cell matching regex (case-insensitive)
//	!~regex        rows with no cell matching regex
//	field=value    field equals value (case-insensitive; numbers by value)
//	field!=value   field absent or not equal to value
//	field~regex    field matches regex
//	field!~regex   field absent or not matching regex
//
// Double quotes group a term or a value holding spaces or a leading ! or ~
// (`"a b"`, `name="x y"`, `"!important"`); \" is a quote inside them.
// `field=""` matches rows where the field is empty or absent. A word with
// '=' or '~' that does not start with a field name (`=x`, `1=2`) is plain
// text. There is no OR: a regex says `~a|b`.
package filter

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"

	"opsdeck/views/inert"
)

// Op is what a term tests.
type Op int

const (
	Contains    Op = iota // text
	NotContains           // !text
	Regex                 // ~re, field~re
	NotRegex              // !~re, field!~re
	Equal                 // field=value
	NotEqual              // field!=value
)

// Term is one condition. Field is "" for a condition on the whole row.
type Term struct {
	Field string
	Op    Op
	Value string

	needle string         // Value sanitised and lower-cased (Contains)
	re     *regexp.Regexp // Regex, NotRegex
}

// Expr is a parsed filter: every term must hold. The zero value matches
// every row.
type Expr struct {
	Terms []Term
}

// Error is a bad expression, with the offending term.
type Error struct {
	Term string
	Msg  string
}

func (e *Error) Error() string {
	if e.Term == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", inert.String(e.Term), e.Msg)
}

// Parse reads a filter expression. A blank text is the empty Expr.
func Parse(text string) (Expr, error) {
	toks, err := split(text)
	if err != nil {
		return Expr{}, err
	}
	var e Expr
	for _, tk := range toks {
		t, err := parseTerm(tk)
		if err != nil {
			return Expr{}, err
		}
		e.Terms = append(e.Terms, t)
	}
	return e, nil
}

// token is one space-separated word; quoted records which of its bytes came
// from inside quotes, so `"!x"` is text and not a negation.
type token struct {
	raw    string // as typed, for messages
	text   string // quotes removed
	quoted []bool // per byte of text
}

func split(s string) ([]token, error) {
	var out []token
	var cur token
	var raw strings.Builder
	inQuote, have := false, false
	flush := func() {
		if have {
			cur.raw = raw.String()
			out = append(out, cur)
		}
		cur, have = token{}, false
		raw.Reset()
	}
	add := func(r rune, q bool) {
		n := len(cur.text)
		cur.text += string(r)
		for i := n; i < len(cur.text); i++ {
			cur.quoted = append(cur.quoted, q)
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case inQuote && r == '\\' && i+1 < len(rs) && rs[i+1] == '"':
			raw.WriteString(`\"`)
			add('"', true)
			i++
		case r == '"':
			raw.WriteRune(r)
			inQuote = !inQuote
			have = true
		case !inQuote && unicode.IsSpace(r):
			flush()
		default:
			raw.WriteRune(r)
			add(r, inQuote)
			have = true
		}
	}
	if inQuote {
		return nil, &Error{Msg: "unterminated quote (close it with \")"}
	}
	flush()
	return out, nil
}

func (t token) bare(i int) bool { return i < len(t.quoted) && !t.quoted[i] }

func parseTerm(tk token) (Term, error) {
	s := tk.text
	bad := func(format string, a ...any) (Term, error) {
		return Term{}, &Error{Term: tk.raw, Msg: fmt.Sprintf(format, a...)}
	}
	// field op value: the field is a bare name, the operator unquoted.
	if n := fieldLen(tk); n > 0 {
		name, rest := s[:n], s[n:]
		var op Op
		var opLen int
		switch {
		case strings.HasPrefix(rest, "!="):
			op, opLen = NotEqual, 2
		case strings.HasPrefix(rest, "!~"):
			op, opLen = NotRegex, 2
		case strings.HasPrefix(rest, "="):
			op, opLen = Equal, 1
		case strings.HasPrefix(rest, "~"):
			op, opLen = Regex, 1
		}
		if opLen > 0 {
			val := rest[opLen:]
			// The name is bare, so a quote in the token belongs to the
			// value: `status=""` asks for an empty status.
			if val == "" && !strings.Contains(tk.raw, `"`) {
				if op == Regex || op == NotRegex {
					return bad("%s needs a regular expression after %s", name, rest[:opLen])
				}
				return bad("%s needs a value (%s\"\" matches an empty or missing %s)", rest[:opLen], name+rest[:opLen], name)
			}
			t := Term{Field: name, Op: op, Value: val}
			if op == Regex || op == NotRegex {
				re, err := compile(val)
				if err != nil {
					return bad("%s", err)
				}
				t.re = re
			}
			return t, nil
		}
	}
	switch {
	case tk.bare(0) && strings.HasPrefix(s, "!~"):
		if len(s) == 2 {
			return bad("!~ needs a regular expression")
		}
		re, err := compile(s[2:])
		if err != nil {
			return bad("%s", err)
		}
		return Term{Op: NotRegex, Value: s[2:], re: re}, nil
	case tk.bare(0) && strings.HasPrefix(s, "~"):
		if len(s) == 1 {
			return bad("~ needs a regular expression")
		}
		re, err := compile(s[1:])
		if err != nil {
			return bad("%s", err)
		}
		return Term{Op: Regex, Value: s[1:], re: re}, nil
	case tk.bare(0) && strings.HasPrefix(s, "!"):
		if len(s) == 1 {
			return bad("! needs the text to leave out")
		}
		return Term{Op: NotContains, Value: s[1:], needle: needle(s[1:])}, nil
	}
	return Term{Op: Contains, Value: s, needle: needle(s)}, nil
}

// fieldLen is the length of a bare field name at the start of the token
// that an unquoted operator follows, or 0.
func fieldLen(tk token) int {
	s := tk.text
	i := 0
	for i < len(s) && tk.bare(i) {
		c := s[i]
		ok := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-' || c == '#')
		if !ok {
			break
		}
		i++
	}
	if i == 0 || i >= len(s) || !tk.bare(i) {
		return 0
	}
	switch s[i] {
	case '=', '~':
		return i
	case '!':
		if i+1 < len(s) && tk.bare(i+1) && (s[i+1] == '=' || s[i+1] == '~') {
			return i
		}
	}
	return 0
}

// compile makes a case-insensitive regexp with a one-line error.
func compile(expr string) (*regexp.Regexp, error) {
	re, err := regexp.Compile("(?i)" + expr)
	if err != nil {
		if se, ok := err.(*syntax.Error); ok {
			return nil, fmt.Errorf("bad regular expression: %s", se.Code)
		}
		return nil, fmt.Errorf("bad regular expression")
	}
	return re, nil
}

func needle(s string) string { return strings.ToLower(inert.String(s)) }

// Fields lists the field names the expression reads, once each, in order.
func (e Expr) Fields() []string {
	var out []string
	for _, t := range e.Terms {
		if t.Field == "" {
			continue
		}
		dup := false
		for _, f := range out {
			dup = dup || f == t.Field
		}
		if !dup {
			out = append(out, t.Field)
		}
	}
	return out
}

// Substring reports whether the expression is one plain substring term
// equal to the whole text typed: the caller may then use a faster
// narrowing search that gives the same result.
func (e Expr) Substring(text string) bool {
	return len(e.Terms) == 1 && e.Terms[0].Op == Contains && e.Terms[0].Value == text
}

// Row is what a match reads of one row.
type Row interface {
	// Hay is the row's text as the operator sees it: every cell
	// sanitised (inert) and lower-cased, each followed by a NUL byte.
	Hay() string
	// Field is the text of a named field, raw; ok is false when the row
	// has no such field.
	Field(name string) (text string, ok bool)
}

// Match reports whether the row passes every term.
func (e Expr) Match(r Row) bool {
	for i := range e.Terms {
		if !e.Terms[i].match(r) {
			return false
		}
	}
	return true
}

func (t *Term) match(r Row) bool {
	if t.Field == "" {
		switch t.Op {
		case Contains:
			return strings.Contains(r.Hay(), t.needle)
		case NotContains:
			return !strings.Contains(r.Hay(), t.needle)
		case Regex:
			return anyCell(r.Hay(), t.re)
		case NotRegex:
			return !anyCell(r.Hay(), t.re)
		}
		return false
	}
	v, ok := r.Field(t.Field)
	v = inert.String(v)
	switch t.Op {
	case Equal:
		if t.Value == "" {
			return !ok || v == ""
		}
		return ok && equal(v, t.Value)
	case NotEqual:
		if t.Value == "" {
			return ok && v != ""
		}
		return !ok || !equal(v, t.Value)
	case Regex:
		return ok && t.re.MatchString(v)
	case NotRegex:
		return !ok || !t.re.MatchString(v)
	}
	return false
}

// anyCell: the regex matches one cell of the NUL-separated text (so ^ and $
// anchor to a cell, and no match spans two).
func anyCell(hay string, re *regexp.Regexp) bool {
	for hay != "" {
		cell, rest, _ := strings.Cut(hay, "\x00")
		if re.MatchString(cell) {
			return true
		}
		hay = rest
	}
	return false
}

// equal compares case-insensitively, and numbers by value ("3" = "3.0").
func equal(have, want string) bool {
	want = inert.String(want)
	if strings.EqualFold(have, want) {
		return true
	}
	a, errA := strconv.ParseFloat(strings.TrimSpace(have), 64)
	b, errB := strconv.ParseFloat(strings.TrimSpace(want), 64)
	return errA == nil && errB == nil && a == b
}

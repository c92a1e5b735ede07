package filter

import (
	"errors"
	"strings"
	"testing"
)

// row is a test row: cells (as shown) and fields by name.
type row struct {
	cells  []string
	fields map[string]string
}

func (r row) Hay() string {
	var b strings.Builder
	for _, c := range r.cells {
		b.WriteString(needle(c))
		b.WriteByte(0)
	}
	return b.String()
}

func (r row) Field(name string) (string, bool) {
	v, ok := r.fields[name]
	return v, ok
}

var rows = map[string]row{
	"run": {cells: []string{"s-1", "RUNNING", "p-1", "in 3m"}, fields: map[string]string{"status": "RUNNING", "project": "p-1", "retries": "3"}},
	"err": {cells: []string{"s-2", "ERROR", "p-2", "-"}, fields: map[string]string{"status": "ERROR", "project": "p-2", "retries": "0", "note": "disk full"}},
	"esc": {cells: []string{"s-\x1b[2J", "COMPLETED", "p-1", "-"}, fields: map[string]string{"status": "COMPLETED", "project": "p-1", "note": ""}},
}

func TestMatch(t *testing.T) {
	cases := []struct {
		expr string
		want string // names of the matching rows, sorted
	}{
		{"", "err esc run"},
		{"running", "run"},
		{"p-1", "esc run"},
		{"!p-1", "err"},
		{"!RUN", "err esc"},
		{"~^s-[12]$", "err run"},
		{"~ERROR|RUNNING", "err run"},
		{"!~^s-[12]$", "esc"},
		{"status=running", "run"},
		{"status=RUNNING", "run"},
		{"status!=running", "err esc"},
		{"status~^(run|err)", "err run"},
		{"status!~^(run|err)", "esc"},
		{"retries=3.0", "run"},    // numbers by value
		{"retries!=0", "esc run"}, // absent counts as not equal
		{"note=\"disk full\"", "err"},
		{"note=\"\"", "esc run"}, // empty or absent
		{"note!=\"\"", "err"},
		{"nope=x", ""},
		{"nope!=x", "err esc run"},
		{"project=p-1 !completed", "run"}, // terms combine with AND
		{"p-1 running", "run"},
		{`"in 3m"`, "run"},
		{`\x1b`, "esc"}, // the escape as shown finds the value holding ESC
		{`"!"`, ""},     // a quoted ! is text
		{"1=2", ""},     // not a field name: plain text
		{"=x", ""},
	}
	for _, c := range cases {
		e, err := Parse(c.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.expr, err)
			continue
		}
		var got []string
		for _, name := range []string{"err", "esc", "run"} {
			if e.Match(rows[name]) {
				got = append(got, name)
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%q matched [%s], want [%s]", c.expr, g, c.want)
		}
	}
}

func TestParseTerms(t *testing.T) {
	cases := []struct {
		expr  string
		field string
		op    Op
		value string
	}{
		{"abc", "", Contains, "abc"},
		{"!abc", "", NotContains, "abc"},
		{"~a.c", "", Regex, "a.c"},
		{"!~a.c", "", NotRegex, "a.c"},
		{"status=X", "status", Equal, "X"},
		{"status!=X", "status", NotEqual, "X"},
		{"status~X", "status", Regex, "X"},
		{"status!~X", "status", NotRegex, "X"},
		{"a.b-c_d#e=1", "a.b-c_d#e", Equal, "1"},
		{`name="x y"`, "name", Equal, "x y"},
		{`name="say \"hi\""`, "name", Equal, `say "hi"`},
		{`"status=X"`, "", Contains, "status=X"}, // quoted: text
		{`"~x"`, "", Contains, "~x"},
		{"url=a=b", "url", Equal, "a=b"}, // the first operator splits
		{"x!y", "", Contains, "x!y"},
	}
	for _, c := range cases {
		e, err := Parse(c.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.expr, err)
			continue
		}
		if len(e.Terms) != 1 {
			t.Errorf("Parse(%q): %d terms, want 1", c.expr, len(e.Terms))
			continue
		}
		got := e.Terms[0]
		if got.Field != c.field || got.Op != c.op || got.Value != c.value {
			t.Errorf("Parse(%q) = {%q %v %q}, want {%q %v %q}", c.expr, got.Field, got.Op, got.Value, c.field, c.op, c.value)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ expr, want string }{
		{`"abc`, "unterminated quote"},
		{"status=", `status="" matches an empty`},
		{"status!=", "needs a value"},
		{"status~", "needs a regular expression"},
		{"~", "~ needs a regular expression"},
		{"!~", "!~ needs a regular expression"},
		{"!", "! needs the text"},
		{"~[a", "bad regular expression: missing closing ]"},
		{"name~(x", "bad regular expression: missing closing )"},
		{"ok ~*", "bad regular expression: missing argument to repetition operator"},
		{"~\x1b[", "\\x1b"}, // the bad term is quoted inert
	}
	for _, c := range cases {
		_, err := Parse(c.expr)
		if err == nil {
			t.Errorf("Parse(%q): no error, want one containing %q", c.expr, c.want)
			continue
		}
		var fe *Error
		if !errors.As(err, &fe) {
			t.Errorf("Parse(%q): error %T, want *Error", c.expr, err)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", c.expr, err, c.want)
		}
		if strings.ContainsRune(err.Error(), 0x1b) {
			t.Errorf("Parse(%q) error holds a raw ESC: %q", c.expr, err)
		}
	}
}

func TestFieldsAndSubstring(t *testing.T) {
	e, err := Parse("a=1 b~x !c a!=2 text")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(e.Fields(), ","); got != "a,b" {
		t.Errorf("Fields = %s, want a,b", got)
	}
	if e.Substring("a=1 b~x !c a!=2 text") {
		t.Error("Substring true for a compound expression")
	}
	one, _ := Parse("abc")
	if !one.Substring("abc") {
		t.Error("Substring false for one plain word")
	}
	spaced, _ := Parse(" abc")
	if spaced.Substring(" abc") {
		t.Error("Substring true though the text has a space the term dropped")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a=b", `"x`, "~(", "!~a|b", `n="a \" b"`, "!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := Parse(s)
		if err != nil {
			if strings.ContainsRune(err.Error(), 0x1b) {
				t.Fatalf("error holds ESC: %q", err)
			}
			return
		}
		e.Match(rows["run"]) // must not panic
	})
}

func TestSuggest(t *testing.T) {
	cands := []string{"session", "status", "internal", "expires", "internalStatus"}
	for name, want := range map[string]string{"stauts": "status", "STATSU": "status", "expire": "expires", "zzz": "", "internalstatu": "internalStatus"} {
		if got := Suggest(name, cands); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", name, got, want)
		}
	}
}

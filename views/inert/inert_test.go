package inert

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// assertInert checks the properties every sanitised string must have.
func assertInert(t testing.TB, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("String(%q) is not valid UTF-8: %q", in, out)
	}
	for i := 0; i < len(out); i++ {
		c := out[i]
		if c < 0x20 || c == 0x7f {
			t.Fatalf("String(%q) contains control byte %#x at %d: %q", in, c, i, out)
		}
	}
	for _, r := range out {
		if (r >= 0x80 && r <= 0x9f) || unsafeRune(r) {
			t.Fatalf("String(%q) contains unsafe rune %U: %q", in, r, out)
		}
	}
}

func TestStringHostile(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"clear screen", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"osc52 clipboard", "\x1b]52;c;aGk=\x07", `\x1b]52;c;aGk=\x07`},
		{"osc8 hyperlink", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;http://evil\x1b\click\x1b]8;;\x1b\`},
		{"csi with params", "\x1b[38;2;255;0;0mred\x1b[0m", `\x1b[38;2;255;0;0mred\x1b[0m`},
		{"raw c1 csi byte", "x\x9b2Jy", `x\x9b2Jy`},
		{"encoded c1 csi", "x\u009b2Jy", `x\u009b2Jy`},
		{"bidi override", "abc\u202egnp.exe", `abc\u202egnp.exe`},
		{"bidi isolates and marks", "\u2066a\u2069\u200e\u200f\u061c", `\u2066a\u2069\u200e\u200f\u061c`},
		{"invalid utf8", "ok\xff\xfeok", `ok\xff\xfeok`},
		{"truncated utf8", "é\xc3", `é\xc3`},
		{"nul", "a\x00b", `a\x00b`},
		{"bell and backspace", "\x07\x08", `\x07\x08`},
		{"del", "a\x7fb", `a\x7fb`},
		{"newline tab cr", "a\nb\tc\rd", `a\nb\tc\rd`},
		{"zero width", "ad\u200bmin\u200c\u200d", `ad\u200bmin\u200c\u200d`},
		{"bom", "\ufeffid", `\ufeffid`},
		{"line separators", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"tag characters", "x\U000E0041\U000E007F", `x\U000e0041\U000e007f`},
		{"soft hyphen", "pass\u00adword", `pass\u00adword`},
		{"hangul filler", "\u3164", `\u3164`},
		{"clean ascii", "hello world", "hello world"},
		{"clean unicode", "日本語 émoji 🎉 ñ", "日本語 émoji 🎉 ñ"},
		{"empty", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := String(c.in)
			if got != c.want {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
			}
			assertInert(t, c.in, got)
			if Clean(c.in) != (got == c.in) {
				t.Errorf("Clean(%q) = %v, but String changed it: %v", c.in, Clean(c.in), got != c.in)
			}
		})
	}
}

func TestStringHuge(t *testing.T) {
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString("row\x1b[2J\u202e\xff日本 ")
	}
	in := b.String()
	out := String(in)
	assertInert(t, in, out)
	if !strings.Contains(out, `\x1b[2J\u202e\xff日本`) {
		t.Fatalf("escapes not shown in huge string")
	}
}

func TestStringCleanDoesNotAllocate(t *testing.T) {
	s := strings.Repeat("session-0123 RUNNING 日本語 ", 20)
	allocs := testing.AllocsPerRun(100, func() { _ = String(s) })
	if allocs != 0 {
		t.Fatalf("clean string allocated %v times", allocs)
	}
}

func TestStringIdempotent(t *testing.T) {
	in := "a\x1b[2J\u202e\xff\n"
	once := String(in)
	if twice := String(once); twice != once {
		t.Fatalf("String not idempotent: %q → %q", once, twice)
	}
}

func TestLine(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  string
	}{
		{"hello", 10, "hello"},
		{"hello world", 8, "hello w…"},
		{"hello", 5, "hello"},
		{"hello", 0, ""},
		{"hello", -3, ""},
		{"hello", 1, "…"},
		{"日本語テキスト", 7, "日本語…"}, // wide runes count two cells
		{"日本語", 6, "日本語"},
		{"\x1b[2J", 4, `\x1…`},
		{"a\u202eb", 20, `a\u202eb`},
		{"🎉🎉🎉", 5, "🎉🎉…"},
	}
	for _, c := range cases {
		got := Line(c.in, c.width)
		if got != c.want {
			t.Errorf("Line(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		if w := Width(got); w > max(c.width, 0) {
			t.Errorf("Line(%q, %d) is %d cells wide", c.in, c.width, w)
		}
		assertInert(t, c.in, got)
	}
}

func TestLineHugeStaysCheap(t *testing.T) {
	in := strings.Repeat("x\x1b", 200_000)
	got := Line(in, 30)
	if Width(got) != 30 || !strings.HasSuffix(got, Ellipsis) {
		t.Fatalf("Line of huge string = %q", got)
	}
	assertInert(t, in, got)
	// Cutting a huge string mid-rune must not leak a raw partial rune.
	in2 := strings.Repeat("日", 100_000)
	got2 := Line(in2, 11)
	assertInert(t, in2, got2)
	if got2 != "日日日日日…" {
		t.Fatalf("Line(wide huge) = %q", got2)
	}
}

func TestPad(t *testing.T) {
	if got := Pad("ab", 5); got != "ab   " {
		t.Errorf("Pad = %q", got)
	}
	if got := Pad("日本", 5); got != "日本 " || Width(got) != 5 {
		t.Errorf("Pad wide = %q", got)
	}
	if got := Pad("abcdefgh", 4); got != "abc…" {
		t.Errorf("Pad long = %q", got)
	}
}

func TestBytes(t *testing.T) {
	b := []byte{0x1b, '[', '2', 'J', 0xff, 0x00}
	got := Bytes(b)
	if got != "G1sySv8A" {
		t.Errorf("Bytes = %q", got)
	}
	assertInert(t, string(b), got)
	if got := HexPreview(b, 3); got != "1b 5b 32 … (6 bytes)" {
		t.Errorf("HexPreview = %q", got)
	}
	if got := HexPreview(b[:2], 8); got != "1b 5b" {
		t.Errorf("HexPreview short = %q", got)
	}
	if got := HexPreview(b, 0); got != "… (6 bytes)" {
		t.Errorf("HexPreview 0 = %q", got)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b[2J", "\x1b]52;c;aGk=\x07", "\x9b", "\u202e", "\xff\xfe",
		"\x00", "a\u200db", "日本語", "🎉", "\u009b", "\U000E0041", "\r\n\t",
	} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		out := String(s)
		assertInert(t, s, out)
		if String(out) != out {
			t.Fatalf("not idempotent for %q", s)
		}
		if Clean(s) && out != s {
			t.Fatalf("clean input changed: %q → %q", s, out)
		}
		width = width % 300
		line := Line(s, width)
		assertInert(t, s, line)
		if w := Width(line); w > max(width, 0) {
			t.Fatalf("Line(%q, %d) is %d wide: %q", s, width, w, line)
		}
	})
}

// TestUnsafeRuneMatchesUnicode checks the fast paths in unsafeRune against
// the Unicode tables for every code point, so a shortcut can never let a
// format character through.
func TestUnsafeRuneMatchesUnicode(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		want := (r <= 0x9f) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 ||
			r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0
		if got := unsafeRune(r); got != want {
			t.Fatalf("unsafeRune(%U) = %v, want %v", r, got, want)
		}
	}
}

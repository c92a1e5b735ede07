// Package inert is the one sanitiser every on-screen string passes through.
//
// Values shown by opsdeck come from tenants and can contain anything. A
// terminal interprets control characters, so a value holding ESC[2J would
// blank the screen, OSC 52 would write the operator's clipboard and a bidi
// override would make "evil.com/moc.elgoog" read backwards. String rewrites
// every such character as visible escape text (ESC → `\x1b`, U+202E →
// `\u202e`, an invalid byte → `\xff`), so the rest of an escape sequence is
// left as harmless printable text and the operator sees exactly what is
// stored.
//
// What is escaped:
//   - C0 controls and DEL (`\x00`..`\x1f`, `\x7f`); newline, tab and carriage
//     return as `\n`, `\t`, `\r` — a table cell is one line, and a tab has
//     no fixed width, so both are shown rather than acted on;
//   - C1 controls U+0080..U+009F (`\u009b`), and a lone byte 0x80..0xff that is
//     not valid UTF-8 (`\x9b`), which some terminals read as C1;
//   - every Unicode format character (category Cf: bidi marks, embeddings,
//     overrides and isolates, zero-width space/joiners, U+FEFF, soft hyphen,
//     tag characters U+E0000..), line and paragraph separators
//     U+2028/U+2029, and the invisible Hangul fillers often used to spoof ids.
//
// A backslash is left alone: the escapes are for safety, not for an exact
// round trip, and doubling every backslash would make paths and JSON in
// values hard to read. The detail view's JSON copy is the exact value.
package inert

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// String returns s with every control, format and invalid byte rendered as
// visible escape text. A string that needs no change is returned as is,
// without allocating.
func String(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			// Copy a run of printable ASCII at once.
			j := i + 1
			for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f {
				j++
			}
			b.WriteString(s[i:j])
			i = j
			continue
		}
		if c < utf8.RuneSelf {
			writeControl(&b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			writeByte(&b, c)
			i++
			continue
		}
		if unsafeRune(r) {
			writeRune(&b, r)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Clean reports whether s is shown unchanged by String.
func Clean(s string) bool { return firstUnsafe(s) < 0 }

// firstUnsafe returns the byte index of the first character String must
// rewrite, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			return i
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports a non-ASCII rune that must not reach the terminal raw.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI is U+009B)
		return true
	case r < 0xad:
		return false
	case r == 0x2028 || r == 0x2029: // line / paragraph separator
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0: // Hangul fillers: invisible
		return true
	case r < 0x600 && r != 0xad:
		return false
	case r >= 0x2070 && r < 0xfeff:
		// No format characters here (CJK, symbols, most scripts): skip the
		// table lookup on the hot path.
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

func writeControl(b *strings.Builder, c byte) {
	switch c {
	case '\n':
		b.WriteString(`\n`)
	case '\t':
		b.WriteString(`\t`)
	case '\r':
		b.WriteString(`\r`)
	default:
		writeByte(b, c)
	}
}

func writeByte(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xf])
}

func writeRune(b *strings.Builder, r rune) {
	if r > 0xffff {
		b.WriteString(`\U`)
		for shift := 28; shift >= 0; shift -= 4 {
			b.WriteByte(hexDigits[(r>>uint(shift))&0xf])
		}
		return
	}
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>uint(shift))&0xf])
	}
}

package data

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape renders s on one line with every character that a terminal or a
// reader could act on shown as visible escape text: C0 and C1 controls and
// DEL (newline as `\n`, tab as `\t`, ESC as `\x1b`), bytes that are not
// UTF-8 (`\xff`), Unicode format characters (bidi overrides and isolates,
// zero-width characters: `\u202e`), line and paragraph separators and the
// invisible Hangul fillers. A backslash is left alone: this is for messages
// people read, not for a round trip.
//
// The data layer uses it for the values it quotes in its own messages (a
// guard failure, a reason an action does not apply), so a message is one
// line and reads in logical order wherever it is shown or logged; the UI's
// sanitiser (views/inert) applies the same rules to everything it draws.
func Escape(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || IsUnsafeRune(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&0xf])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && IsUnsafeRune(r):
			b.WriteString(`\x`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xf])
		case IsUnsafeRune(r) && r > 0xffff:
			b.WriteString(`\U`)
			for shift := 28; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(r>>uint(shift))&0xf])
			}
		case IsUnsafeRune(r):
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[(r>>uint(shift))&0xf])
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// IsUnsafeRune reports a character that must not reach a terminal or a log
// raw: C0 and C1 controls, DEL, format characters (category Cf), line and
// paragraph separators, and the invisible Hangul fillers.
func IsUnsafeRune(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f:
		return true
	case r < 0x80:
		return false
	case r <= 0x9f:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

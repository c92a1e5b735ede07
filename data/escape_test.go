package data

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ünïcode ✓":   "plain text, ünïcode ✓",
		"two\nlines\r\tand a tab": `two\nlines\r\tand a tab`,
		"\x1b[31mred":             `\x1b[31mred`,
		"evil\u202emoc.elgoog":    `evil\u202emoc.elgoog`,
		"sep\u2028arated\u2029":   `sep\u2028arated\u2029`,
		"zero\u200bwidth\ufeff":   `zero\u200bwidth\ufeff`,
		"csi\u009b, del\x7f":      `csi\u009b, del\x7f`,
		"bad \xff byte":           `bad \xff byte`,
		"tag \U000E0041":          `tag \U000e0041`,
		`back\slash stays`:        `back\slash stays`,
		"hangul\u3164filler":      `hangul\u3164filler`,
		"":                        "",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

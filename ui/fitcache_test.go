package ui

import (
	"slices"
	"testing"
)

// The fit cache gives exactly what fitBlock gives, frame after frame, as
// lines change, the width changes and the body grows and shrinks.
func TestFitCacheFitsAsFitBlockDoes(t *testing.T) {
	frames := []struct {
		body string
		w, h int
	}{
		{"plain\n\x1b[1mbold\x1b[0m · ✓\n漢字漢字漢字漢字", 12, 5},
		{"plain\n\x1b[1mbold\x1b[0m · ✓\n漢字漢字漢字漢字", 12, 5}, // the same frame again
		{"plain\nchanged\n漢字漢字漢字漢字", 12, 5},
		{"plain\nchanged\n漢字漢字漢字漢字", 7, 5},  // narrower: cut, a wide rune in half
		{"plain\nchanged\n漢字漢字漢字漢字", 30, 2}, // wider, shorter
		{"", 4, 3},
		{"plain\n\x1b[1mbold\x1b[0m · ✓\n漢字漢字漢字漢字", 12, 5},
	}
	c := &fitCache{}
	for i, f := range frames {
		got, want := c.block(f.body, f.w, f.h), fitBlock(f.body, f.w, f.h)
		if !slices.Equal(got, want) {
			t.Errorf("frame %d (%d×%d): cache gave %q, fitBlock %q", i, f.w, f.h, got, want)
		}
	}
}

// Over 400 lines on purpose: a small terminal emulator, one control sequence
// per case, checked against the renderer frame by frame.

package console

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Screen is a small terminal emulator: it applies the control sequences a
// bubbletea program writes (cursor moves, erases, insert/delete of lines and
// characters, scroll regions, repeat) to a grid of cells, so a benchmark can
// read what a user would see. It ignores styles, titles, mode queries and
// everything else that does not move text. Feed it the program's output in
// any chunks: an incomplete sequence at the end of one chunk is kept for the
// next.
type Screen struct {
	w, h   int
	cells  [][]string // "" after a wide character: its second column
	x, y   int
	wrap   bool // the last column was written: the next character wraps
	noWrap bool // DECAWM reset
	insert bool // IRM set
	top    int  // scroll region, inclusive
	bottom int
	last   string // last printed grapheme (for REP)
	sx, sy int    // saved cursor
	tail   []byte // incomplete sequence or UTF-8 character
}

// NewScreen returns a blank w×h screen.
func NewScreen(w, h int) *Screen {
	s := &Screen{w: w, h: h}
	s.reset()
	return s
}

func (s *Screen) reset() {
	s.cells = make([][]string, s.h)
	for i := range s.cells {
		s.cells[i] = blankLine(s.w)
	}
	s.x, s.y, s.wrap, s.top, s.bottom = 0, 0, false, 0, s.h-1
	s.noWrap, s.insert = false, false
}

func blankLine(w int) []string {
	l := make([]string, w)
	for i := range l {
		l[i] = " "
	}
	return l
}

// Line returns row i as text, trailing blanks kept.
func (s *Screen) Line(i int) string {
	if i < 0 || i >= s.h {
		return ""
	}
	var b strings.Builder
	for _, c := range s.cells[i] {
		b.WriteString(c)
	}
	return b.String()
}

// Lines returns every row.
func (s *Screen) Lines() []string {
	out := make([]string, s.h)
	for i := range out {
		out[i] = s.Line(i)
	}
	return out
}

// Contains reports whether any row contains sub.
func (s *Screen) Contains(sub string) bool {
	for i := 0; i < s.h; i++ {
		if strings.Contains(s.Line(i), sub) {
			return true
		}
	}
	return false
}

// Write applies p. It never fails.
func (s *Screen) Write(p []byte) (int, error) {
	n := len(p)
	if len(s.tail) > 0 {
		p = append(s.tail, p...)
		s.tail = nil
	}
	for len(p) > 0 {
		used := s.step(p)
		if used == 0 { // incomplete: wait for more
			s.tail = append([]byte(nil), p...)
			break
		}
		p = p[used:]
	}
	return n, nil
}

// step applies the first character or sequence of p and returns its length,
// or 0 when p holds only its beginning.
func (s *Screen) step(p []byte) int {
	c := p[0]
	switch {
	case c == 0x1b:
		return s.escape(p)
	case c < 0x20 || c == 0x7f:
		s.control(c)
		return 1
	}
	if !utf8.FullRune(p) {
		return 0
	}
	r, size := utf8.DecodeRune(p)
	g := string(r)
	if r == utf8.RuneError && size == 1 {
		g = "\uFFFD"
	}
	s.print(g)
	return size
}

func (s *Screen) control(c byte) {
	switch c {
	case '\r':
		s.x, s.wrap = 0, false
	case '\n', '\v', '\f':
		s.lineFeed()
	case '\b':
		if s.x > 0 {
			s.x--
		}
		s.wrap = false
	case '\t':
		s.x = min((s.x/8+1)*8, s.w-1)
		s.wrap = false
	}
}

func (s *Screen) lineFeed() {
	s.wrap = false
	if s.y == s.bottom {
		s.scrollUp(1)
		return
	}
	if s.y < s.h-1 {
		s.y++
	}
}

func (s *Screen) reverseIndex() {
	s.wrap = false
	if s.y == s.top {
		s.scrollDown(1)
		return
	}
	if s.y > 0 {
		s.y--
	}
}

// scrollUp moves the scroll region's rows up n, blank rows entering at its
// bottom.
func (s *Screen) scrollUp(n int) {
	n = min(n, s.bottom-s.top+1)
	copy(s.cells[s.top:s.bottom+1], s.cells[s.top+n:s.bottom+1])
	for i := s.bottom - n + 1; i <= s.bottom; i++ {
		s.cells[i] = blankLine(s.w)
	}
}

func (s *Screen) scrollDown(n int) {
	n = min(n, s.bottom-s.top+1)
	copy(s.cells[s.top+n:s.bottom+1], s.cells[s.top:s.bottom+1-n])
	for i := s.top; i < s.top+n; i++ {
		s.cells[i] = blankLine(s.w)
	}
}

func (s *Screen) print(g string) {
	wd := ansi.StringWidth(g)
	if wd == 0 {
		// A combining mark or joiner belongs to the cell before.
		if px := s.x - 1; px >= 0 && !s.wrap {
			s.cells[s.y][px] += g
		} else if s.wrap {
			s.cells[s.y][s.x] += g
		}
		return
	}
	if s.wrap && !s.noWrap {
		s.x = 0
		s.lineFeed()
	}
	s.wrap = false
	if s.x+wd > s.w {
		if s.noWrap {
			s.x = s.w - wd
		} else {
			s.x = 0
			s.lineFeed()
		}
	}
	row := s.cells[s.y]
	if s.insert {
		copy(row[s.x+wd:], row[s.x:])
	}
	s.clearWide(s.x)
	row[s.x] = g
	if wd == 2 && s.x+1 < s.w {
		s.clearWide(s.x + 1)
		row[s.x+1] = ""
	}
	s.last = g
	if s.x+wd >= s.w {
		s.x = s.w - 1
		s.wrap = true
		return
	}
	s.x += wd
}

// clearWide blanks the other half of a wide character that column x is part
// of, before x is overwritten.
func (s *Screen) clearWide(x int) {
	row := s.cells[s.y]
	if row[x] == "" && x > 0 {
		row[x-1] = " "
	}
	if x+1 < s.w && row[x+1] == "" && row[x] != "" && ansi.StringWidth(row[x]) == 2 {
		row[x+1] = " "
	}
}

// escape handles ESC-introduced sequences.
func (s *Screen) escape(p []byte) int {
	if len(p) < 2 {
		return 0
	}
	switch p[1] {
	case '[':
		return s.csi(p)
	case ']', 'P', '_', '^', 'X':
		// OSC (ends with BEL or ST), DCS, APC, PM, SOS (end with ST).
		for i := 2; i < len(p); i++ {
			if p[1] == ']' && p[i] == 0x07 {
				return i + 1
			}
			if p[i] == 0x1b && i+1 < len(p) && p[i+1] == '\\' {
				return i + 2
			}
		}
		return 0
	case '7':
		s.sx, s.sy = s.x, s.y
	case '8':
		s.x, s.y, s.wrap = s.sx, s.sy, false
	case 'M':
		s.reverseIndex()
	case 'D':
		s.lineFeed()
	case 'E':
		s.x = 0
		s.lineFeed()
	case 'c':
		s.reset()
	default:
		if p[1] >= 0x20 && p[1] <= 0x2f { // ESC ( B and friends
			if len(p) < 3 {
				return 0
			}
			return 3
		}
	}
	return 2
}

func (s *Screen) csi(p []byte) int {
	// ESC [ params(0x30–0x3f)* intermediates(0x20–0x2f)* final(0x40–0x7e)
	i := 2
	for i < len(p) && p[i] >= 0x30 && p[i] <= 0x3f {
		i++
	}
	params := string(p[2:i])
	for i < len(p) && p[i] >= 0x20 && p[i] <= 0x2f {
		i++
	}
	if i >= len(p) {
		return 0
	}
	final := p[i]
	inter := string(p[2+len(params) : i])
	n := i + 1
	private := ""
	if params != "" && (params[0] == '?' || params[0] == '>' || params[0] == '<' || params[0] == '=') {
		private, params = params[:1], params[1:]
	}
	if inter != "" || (private != "" && final != 'h' && final != 'l') {
		return n // DECSCUSR, DECRQM, XTVERSION, kitty keyboard…: no text
	}
	args := parseParams(params)
	arg := func(k, def int) int {
		if k < len(args) && args[k] > 0 {
			return args[k]
		}
		return def
	}
	s.wrap = s.wrap && (final == 'm' || final == 'h' || final == 'l')
	switch final {
	case 'A':
		s.y = max(s.y-arg(0, 1), 0)
	case 'B':
		s.y = min(s.y+arg(0, 1), s.h-1)
	case 'C':
		s.x = min(s.x+arg(0, 1), s.w-1)
	case 'D':
		s.x = max(s.x-arg(0, 1), 0)
	case 'E':
		s.x, s.y = 0, min(s.y+arg(0, 1), s.h-1)
	case 'F':
		s.x, s.y = 0, max(s.y-arg(0, 1), 0)
	case 'G', '`':
		s.x = clamp(arg(0, 1)-1, s.w-1)
	case 'a':
		s.x = min(s.x+arg(0, 1), s.w-1)
	case 'd':
		s.y = clamp(arg(0, 1)-1, s.h-1)
	case 'e':
		s.y = min(s.y+arg(0, 1), s.h-1)
	case 'H', 'f':
		s.y, s.x = clamp(arg(0, 1)-1, s.h-1), clamp(arg(1, 1)-1, s.w-1)
	case 'I':
		for k := arg(0, 1); k > 0; k-- {
			s.x = min((s.x/8+1)*8, s.w-1)
		}
	case 'Z':
		for k := arg(0, 1); k > 0; k-- {
			s.x = max((s.x-1)/8*8, 0)
		}
	case 'J':
		s.eraseDisplay(arg(0, 0))
	case 'K':
		s.eraseLine(arg(0, 0))
	case 'X':
		row := s.cells[s.y]
		for k := s.x; k < min(s.x+arg(0, 1), s.w); k++ {
			row[k] = " "
		}
	case 'b':
		if s.last != "" {
			for k := arg(0, 1); k > 0; k-- {
				s.print(s.last)
			}
		}
	case '@':
		row := s.cells[s.y]
		k := min(arg(0, 1), s.w-s.x)
		copy(row[s.x+k:], row[s.x:])
		for j := s.x; j < s.x+k; j++ {
			row[j] = " "
		}
	case 'P':
		row := s.cells[s.y]
		k := min(arg(0, 1), s.w-s.x)
		copy(row[s.x:], row[s.x+k:])
		for j := s.w - k; j < s.w; j++ {
			row[j] = " "
		}
	case 'L', 'M':
		if s.y < s.top || s.y > s.bottom {
			break
		}
		top := s.top
		s.top = s.y
		if final == 'L' {
			s.scrollDown(arg(0, 1))
		} else {
			s.scrollUp(arg(0, 1))
		}
		s.top = top
		s.x = 0
	case 'S':
		s.scrollUp(arg(0, 1))
	case 'T':
		s.scrollDown(arg(0, 1))
	case 'r':
		t, b := arg(0, 1)-1, arg(1, s.h)-1
		if t < b && b < s.h {
			s.top, s.bottom = t, b
		} else {
			s.top, s.bottom = 0, s.h-1
		}
		s.x, s.y = 0, 0
	case 's':
		s.sx, s.sy = s.x, s.y
	case 'u':
		s.x, s.y = s.sx, s.sy
	case 'h', 'l':
		on := final == 'h'
		for _, a := range args {
			switch {
			case private == "" && a == 4:
				s.insert = on
			case private == "?" && a == 7:
				s.noWrap = !on
			case private == "?" && (a == 1049 || a == 1047 || a == 47):
				// Entering or leaving the alternate screen: start blank.
				s.reset()
			}
		}
	}
	return n
}

func (s *Screen) eraseDisplay(mode int) {
	switch mode {
	case 0:
		s.eraseLine(0)
		for i := s.y + 1; i < s.h; i++ {
			s.cells[i] = blankLine(s.w)
		}
	case 1:
		s.eraseLine(1)
		for i := 0; i < s.y; i++ {
			s.cells[i] = blankLine(s.w)
		}
	case 2, 3:
		for i := range s.cells {
			s.cells[i] = blankLine(s.w)
		}
	}
}

func (s *Screen) eraseLine(mode int) {
	row := s.cells[s.y]
	from, to := s.x, s.w
	switch mode {
	case 1:
		from, to = 0, s.x+1
	case 2:
		from = 0
	}
	for k := from; k < min(to, s.w); k++ {
		row[k] = " "
	}
}

func parseParams(s string) []int {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ";")
	out := make([]int, len(parts))
	for i, p := range parts {
		if j := strings.IndexByte(p, ':'); j >= 0 {
			p = p[:j]
		}
		out[i], _ = strconv.Atoi(p)
	}
	return out
}

func clamp(v, hi int) int { return max(0, min(v, hi)) }

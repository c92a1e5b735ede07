// Package detail is the item detail view: every attribute with its DynamoDB
// type, maps and lists as an indented tree, long values wrapped, scrollable,
// secrets masked until revealed, problems found by the data layer flagged
// beside the attribute. All text passes through views/inert.
//
// Update handles the scroll keys (up/down/top/bottom/page), Copy (copies the
// item as JSON through OSC 52 — masked unless revealed — and reports a
// CopiedMsg) and Reveal (toggles secrets for this item only). The owner
// should route those keys here rather than handle them itself.
package detail

import (
	"maps"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// Options configures a detail view.
type Options struct {
	Title string // raw; sanitised when drawn
	Theme themes.Theme
	// Mask decides what is secret (data/secret.Default); nil masks nothing.
	Mask Masker
	// Reveal shows secrets unmasked (per item: a new item starts masked
	// unless the owner says otherwise).
	Reveal bool
	// Problems maps an attribute name to a note, e.g. "wrong type: want N,
	// got S"; shown under the attribute (or as a missing attribute).
	Problems map[string]string
	// First lists attributes to show before the alphabetical rest, e.g. the
	// table's key attributes.
	First []string
	// Epochs are the top-level number attributes the table's document
	// gives as unix times (data.EpochAttrs): each is shown with its time
	// in Loc (Local when nil) and, with Relative, against Now (time.Now
	// when nil) — "1795424793 · 2026-11-23 09:06 UTC · 3m ago".
	Epochs   map[string]data.EpochUnit
	Loc      *time.Location
	Now      func() time.Time
	Relative func(t, now time.Time) string
}

// Model is the detail view.
type Model struct {
	item   map[string]types.AttributeValue
	opts   Options
	width  int
	height int
	nodes  []node  // the flattened tree; rebuilt when the item or masking changes
	lines  []dline // laid out for width, styled only when on screen
	paints *paints
	offset int
}

// New returns a detail view of item. Call SetSize before View.
func New(item map[string]types.AttributeValue, opts Options) Model {
	m := Model{item: item, opts: opts}
	m.opts.Problems = maps.Clone(opts.Problems)
	m.paints = paintsOf(opts.Theme)
	m.rebuild()
	return m
}

// SetSize sets the outer size; View returns exactly h lines of w cells.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(w, 0), max(h, 0)
	m.relayout()
}

// SetItem replaces the item (e.g. a stream update), keeping the scroll
// position.
func (m *Model) SetItem(item map[string]types.AttributeValue) {
	m.item = item
	m.rebuild()
}

// Item returns the item shown.
func (m Model) Item() map[string]types.AttributeValue { return m.item }

// SetProblems replaces the problem notes.
func (m *Model) SetProblems(p map[string]string) {
	m.opts.Problems = maps.Clone(p)
	m.rebuild()
}

// SetTitle replaces the title.
func (m *Model) SetTitle(t string) { m.opts.Title = t }

// SetTheme restyles the view.
func (m *Model) SetTheme(th themes.Theme) {
	m.opts.Theme = th
	m.paints = paintsOf(th)
}

// SetReveal shows or masks secrets.
func (m *Model) SetReveal(v bool) { m.opts.Reveal = v; m.rebuild() }

// Revealed reports whether secrets are shown.
func (m Model) Revealed() bool { return m.opts.Reveal }

// Offset is the first content line shown; Lines the number of content lines.
func (m Model) Offset() int { return m.offset }
func (m Model) Lines() int  { return len(m.lines) }

// CopyText is what Copy puts on the clipboard: the item as JSON, secrets
// masked unless revealed.
func (m Model) CopyText() (text string, masked bool, err error) {
	if m.opts.Reveal || m.opts.Mask == nil {
		t, err := JSON(m.item)
		return t, false, err
	}
	t, err := JSONMasked(m.item, m.opts.Mask)
	return t, true, err
}

func (m Model) bodyHeight() int { return max(m.height-1, 0) }

// rebuild re-flattens the item (item, problems or masking changed).
func (m *Model) rebuild() {
	m.nodes = flatten(m.item, m.opts)
	m.relayout()
}

// relayout wraps the tree for the width (resize).
func (m *Model) relayout() {
	if m.width <= 0 {
		m.lines = nil
		return
	}
	m.lines = layoutLines(m.nodes, m.width)
	m.clamp()
}

func (m *Model) clamp() {
	m.offset = min(m.offset, len(m.lines)-m.bodyHeight())
	m.offset = max(m.offset, 0)
}

// ScrollDown and ScrollUp move the view by n lines.
func (m *Model) ScrollDown(n int) { m.offset += n; m.clamp() }
func (m *Model) ScrollUp(n int)   { m.offset -= n; m.clamp() }

// Update handles scrolling, Copy and Reveal.
func (m Model) Update(msg tea.Msg, km keymap.Map) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		page := max(m.bodyHeight()-1, 1)
		switch {
		case key.Matches(msg, km.Up):
			m.ScrollUp(1)
		case key.Matches(msg, km.Down):
			m.ScrollDown(1)
		case key.Matches(msg, km.PageUp):
			m.ScrollUp(page)
		case key.Matches(msg, km.PageDown):
			m.ScrollDown(page)
		case key.Matches(msg, km.Top):
			m.offset = 0
		case key.Matches(msg, km.Bottom):
			m.offset = len(m.lines)
			m.clamp()
		case key.Matches(msg, km.Reveal):
			m.SetReveal(!m.opts.Reveal)
		case key.Matches(msg, km.Copy):
			text, masked, err := m.CopyText()
			if err != nil {
				return m, func() tea.Msg { return CopiedMsg{Err: err} }
			}
			n := len(text)
			return m, tea.Batch(CopyCmd(text), func() tea.Msg { return CopiedMsg{Bytes: n, Masked: masked} })
		}
	}
	return m, nil
}

// View renders the title line and the visible part of the tree: exactly
// height lines of width cells.
func (m Model) View() string {
	if m.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(m.titleLine())
	body := m.bodyHeight()
	blank := strings.Repeat(" ", m.width)
	p := m.paints
	if p == nil { // zero-value Model
		p = paintsOf(m.opts.Theme)
	}
	for i := 0; i < body; i++ {
		b.WriteByte('\n')
		if j := m.offset + i; j < len(m.lines) {
			b.WriteString(m.lines[j].render(p))
		} else {
			b.WriteString(blank)
		}
	}
	return b.String()
}

func (m Model) titleLine() string {
	th := m.opts.Theme
	pos := ""
	if n := len(m.lines); n > m.bodyHeight() {
		last := min(m.offset+m.bodyHeight(), n)
		pos = " " + strconv.Itoa(m.offset+1) + "–" + strconv.Itoa(last) + "/" + strconv.Itoa(n)
	}
	if m.opts.Reveal {
		pos = " [secrets shown]" + pos
	}
	posW := inert.Width(pos)
	if posW >= m.width {
		pos, posW = "", 0
	}
	t := m.opts.Title
	if m.opts.Mask != nil && !m.opts.Reveal {
		// The title quotes the item's id, which a tenant chose and which
		// can carry a token like any value.
		t, _ = m.opts.Mask.String(nil, t)
	}
	title := inert.Pad(t, m.width-posW)
	return th.Title.Render(title) + th.Muted.Render(pos)
}

package views

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/keymap"
	"opsdeck/themes"
)

// Context is the one value every pane shares instead of a dozen parameters:
// the root model owns it, hands a pointer to each pane at construction, and
// re-syncs it (size, theme) before routing each message. Panes read it only
// inside Update and View — never from a tea.Cmd, which runs on another
// goroutine: a Cmd gets copies of what it needs (see loader.fetch).
type Context struct {
	// Width and Height are the size of a pane's area (the screen minus the
	// tab bar and status bar).
	Width, Height int

	Theme themes.Theme
	Keys  keymap.Map

	// Store answers every query. It is safe for concurrent use, so Cmds may
	// hold the pointer.
	Store  *data.Store
	Tables data.Tables
	// Seen is the ids read so far through Store (completion offers
	// them); nil when nothing collects them. The root swaps Store,
	// Tables and Seen together when the console switches connection.
	Seen *Seen

	// Now is the clock relative times are computed against. Tests fix it so
	// that golden files never hold wall-clock times.
	Now func() time.Time
	// Location is the zone times are shown in (Local when nil): the detail
	// view's readable unix times, as the Stream pane's time column.
	Location *time.Location

	// Timer makes the command that delivers msg once d has passed; nil
	// means tea.Tick. Tests inject uitest.Timer, whose command hands the
	// timer to the test's driver at once: a test never waits on the wall
	// clock, and decides when a timer goes off.
	Timer func(d time.Duration, msg tea.Msg) tea.Cmd

	// ReadOnly hides every action that writes (the guarded actions).
	ReadOnly bool

	// PageSize is the Limit of each Query; 0 means data.DefaultPageSize.
	PageSize int32

	// ReadTimeout bounds every read a pane makes (one page, the quota, a
	// size estimate); 0 means DefaultReadTimeout. A read that has not
	// answered by then fails with a timeout the operator can retry.
	ReadTimeout time.Duration
}

// DefaultReadTimeout is how long a pane waits for one read. DynamoDB
// answers a page in milliseconds; the SDK's own retries of a throttled or
// failed call fit well inside it.
const DefaultReadTimeout = 30 * time.Second

// readTimeout is ReadTimeout with its default.
func (c *Context) readTimeout() time.Duration {
	if c == nil || c.ReadTimeout <= 0 {
		return DefaultReadTimeout
	}
	return c.ReadTimeout
}

// After is the command that delivers msg once d has passed (Timer, else
// tea.Tick). Every timer of the root and the panes is made here.
func (c *Context) After(d time.Duration, msg tea.Msg) tea.Cmd {
	if c == nil || c.Timer == nil {
		return tea.Tick(d, func(time.Time) tea.Msg { return msg })
	}
	return c.Timer(d, msg)
}

// now is Context.Now with a fallback, so a zero Context never panics.
func (c *Context) now() time.Time {
	if c == nil || c.Now == nil {
		return time.Now()
	}
	return c.Now()
}

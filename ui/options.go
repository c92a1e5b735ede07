// Package ui is the root model of the console: it routes messages to the
// panes, owns the layout, the one explicit input mode, the tab bar, the
// status bar, the command line and the help screen. Panes live in views/.
package ui

import (
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/history"
	"opsdeck/ui/livefeed"
	"opsdeck/ui/session"
	"opsdeck/views"
)

// Options is everything the console needs; main builds it from flags and
// the config file.
type Options struct {
	// Session is the connection the console starts on (main opens it).
	// When set it gives Store, Conn, Tables, Env, Feed and Demand (those
	// fields are then ignored), the seen ids completion offers, and
	// whether its env is protected; the console may swap it for another
	// (Connector). Tests that need no switch set the fields below instead.
	Session *session.Session
	// Connector opens the session of another env, profile or region
	// (:env, :profile, :region); nil: the console cannot switch.
	Connector session.Connector
	// MFA is the bridge through which connections ask for a role's
	// one-time code (main gives the same one to every connection's
	// data.ConnOptions.MFA): r lets a role the operator gave up on ask
	// again. Nil: r does not (the asks still show).
	MFA *MFAPrompts

	// History is the command history file (nil: the history lasts this
	// session only); HistoryLines are its lines at start, oldest first;
	// HistoryErr, when set, is why it could not be read (the console says
	// so and starts anyway).
	History      *history.File
	HistoryLines []string
	HistoryErr   error

	Store  *data.Store
	Conn   *data.Conn
	Tables data.Tables

	Env     string
	Profile string // shown in the status bar; defaults to Conn.Profile

	ReadOnly bool

	// Protected lists the environments (besides prod, always protected)
	// where an action is confirmed by typing the item id or row count.
	Protected []string
	// Actions tunes the guarded actions (retry maximum, stale-run
	// threshold, operator).
	Actions action.Options
	// AuditPath is the audit log; "" means action.DefaultAuditPath().
	AuditPath string
	// ProbeWrites: a confirmation asks DynamoDB whether its write would be
	// authorized, without writing (ui/confirm_perm.go). main sets it; the
	// tests that hold or fail UpdateItem at the server's door leave it off,
	// so that the write they hold is the operator's.
	ProbeWrites bool

	// Theme and Keys default to the dark theme and the default keymap when
	// zero.
	Theme themes.Theme
	Keys  keymap.Map
	// AutoTheme: the theme was not chosen by the operator ("auto"), so the
	// console asks the terminal for its background colour at start and
	// switches to the dark or light theme by the answer (theme.go). Theme
	// is the guess used until then. Ignored when NoColor is set.
	AutoTheme bool
	// NoColor: NO_COLOR is honoured; the theme never changes.
	NoColor bool

	// Scopes are what each pane lists at start.
	Scopes Scopes

	// Now is the clock for relative times; nil means time.Now. Tests fix it.
	Now func() time.Time
	// Timer makes every timer of the console (views.Context.Timer); nil
	// means tea.Tick. Tests pass uitest.Timer.
	Timer func(d time.Duration, msg tea.Msg) tea.Cmd

	// PageSize is the Limit of each Query; 0 means data.DefaultPageSize.
	PageSize int32
	// ReadTimeout bounds each read of a pane (views.DefaultReadTimeout
	// when 0).
	ReadTimeout time.Duration

	// Live tail (live.go). Feed delivers the stream reader's records; nil
	// means no live tail (and no polling fallback) — tests that drive the
	// model by hand leave it nil.
	Feed *livefeed.Feed
	// StreamBuffer is how many records the Stream pane keeps
	// (streamview.DefaultBuffer when 0).
	StreamBuffer int
	// FallbackInterval is how often a pane showing a table without a
	// stream re-reads its rows (DefaultFallbackInterval when 0).
	FallbackInterval time.Duration
	// Location is the time zone of the Stream pane's time column (Local
	// when nil); tests fix it.
	Location *time.Location

	// DebugLog receives the stack of any panic the console recovers from
	// (the --debug-log file); nil drops it. Never the terminal.
	DebugLog io.Writer

	// Demand tells the live-tail reader which tables something on screen
	// needs at full rate (stream.Tailer.SetDemand): the shown pane's table,
	// the Stream pane's narrowing, every table while the Stream pane shows
	// them all. Nil: every table is read at full rate.
	Demand func(full []data.TableID)
}

// Scopes is what each pane lists at start (views.Scopes: the panes read
// their own fields).
type Scopes = views.Scopes

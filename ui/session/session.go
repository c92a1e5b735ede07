// Package session is one place the console is connected to: the DynamoDB
// clients, the store the panes read, the live tail (the stream reader and
// the feed that carries its records into the program) and the ids seen
// there. The root model holds one Session and swaps it for another when the
// operator switches env, profile or region (`:env`, `:profile`, `:region`):
// the new one is opened beside the old, then the old one's reader is
// stopped, and only then the new one's started, so the console never reads
// a shard twice at once.
package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
)

// Target is where to connect, as the operator names it. Empty Profile or
// Region means "as the env's settings say".
type Target struct {
	Env     string
	Profile string
	Region  string
}

// Spec is everything Open needs; main builds it from the config file and
// the flags (a Connector).
type Spec struct {
	Env    string
	Conn   data.ConnOptions
	Tables data.Tables
	// Protected: writes need a typed confirmation here.
	Protected bool
	// Color marks the env on screen ("" none); never its only sign.
	Color string
	// Stream and Feed tune the live tail; NoTail opens none (tests that
	// drive the console by hand).
	Stream stream.Options
	Feed   livefeed.Options
	NoTail bool
	// WrapSink, when set, wraps the feed as the reader's sink (a test
	// front that watches what the reader delivers).
	WrapSink func(stream.Sink) stream.Sink
}

// Session is one open connection and its live tail.
type Session struct {
	Env       string
	Conn      *data.Conn
	Store     *data.Store
	Tables    data.Tables
	Protected bool
	Color     string
	// Feed delivers the live tail's records; nil without a live tail.
	Feed *livefeed.Feed
	// Seen is every id this session has read, for completion.
	Seen *views.Seen

	tail   *stream.Tailer
	sink   stream.Sink
	ctx    context.Context
	cancel context.CancelFunc

	startOnce sync.Once
	started   bool // under mu
	closed    bool // under mu
	mu        sync.Mutex
	done      chan struct{} // closed when the reader has returned (or never will run)
}

// Open connects as spec says; ctx bounds the connecting only (a
// credentials lookup may be slow), life is how long the session may live
// at most (main's context: a signal ends every session). The live tail is
// ready but not reading until StartTail.
func Open(ctx, life context.Context, spec Spec) (*Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	conn, err := data.Connect(ctx, spec.Conn)
	if err != nil {
		return nil, err
	}
	return New(life, conn, spec), nil
}

// New makes a session over a connection already made.
func New(life context.Context, conn *data.Conn, spec Spec) *Session {
	s := &Session{
		Env:       spec.Env,
		Conn:      conn,
		Store:     data.NewStore(conn, spec.Tables),
		Tables:    spec.Tables,
		Protected: spec.Protected,
		Color:     spec.Color,
		Seen:      views.NewSeen(),
		done:      make(chan struct{}),
	}
	if s.Env == "" {
		s.Env = spec.Tables.Env
	}
	s.Store.OnItems(s.Seen.Items)
	s.ctx, s.cancel = context.WithCancel(life)
	// A credential_process still running for this connection dies with
	// the session: on Close (an env switch) and when life ends (quit).
	context.AfterFunc(s.ctx, conn.Close)
	if !spec.NoTail {
		s.Feed = livefeed.New(s.ctx, spec.Feed)
		s.tail = stream.New(conn, spec.Tables, spec.Stream)
		s.sink = s.Feed
		if spec.WrapSink != nil {
			s.sink = spec.WrapSink(s.Feed)
		}
	}
	return s
}

// StartTail starts the stream reader once after has been closed (nil: at
// once), unless the session is closed first. Later calls do nothing.
func (s *Session) StartTail(after <-chan struct{}) {
	s.startOnce.Do(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.tail == nil || s.closed {
			return
		}
		s.started = true
		go func() {
			defer close(s.done)
			if after != nil {
				select {
				case <-after:
				case <-s.ctx.Done():
					return
				}
			}
			s.tail.Run(s.ctx, s.sink)
		}()
	})
}

// TailOptions are the reader's options with their defaults (zero without a
// live tail): main logs its read budget.
func (s *Session) TailOptions() stream.Options {
	if s.tail == nil {
		return stream.Options{}
	}
	return s.tail.Options()
}

// Demand tells the reader which tables something on screen needs at full
// rate (stream.Tailer.SetDemand).
func (s *Session) Demand(full []data.TableID) {
	if s.tail != nil {
		for _, t := range full {
			if data.IsUnmodeled(t) {
				// A table browsed by :table: tailed from now on (a
				// table already followed is left as it is).
				s.tail.Follow(t, "")
			}
		}
		s.tail.SetDemand(full)
	}
}

// Close stops the live tail: the reader's context ends and the feed stops
// delivering. It does not wait; Wait does. Safe to call more than once.
func (s *Session) Close() {
	s.mu.Lock()
	first := !s.closed
	s.closed = true
	started := s.started
	s.mu.Unlock()
	if !first {
		return
	}
	s.cancel()
	s.Conn.Close()
	if s.Feed != nil {
		s.Feed.Close()
	}
	if !started {
		// No reader will ever run: nothing to wait for. (StartTail after
		// Close finds closed set and starts none.)
		s.startOnce.Do(func() {})
		close(s.done)
	}
}

// ErrStillReading is Wait's answer when the reader did not return in time.
var ErrStillReading = errors.New("the stream reader has not stopped yet")

// Wait waits up to d for the reader to have returned after Close.
func (s *Session) Wait(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.done:
		return nil
	case <-t.C:
		return fmt.Errorf("%w (after %s)", ErrStillReading, d)
	}
}

// Done is closed once the reader has returned after Close (or when the
// session closed without ever starting one).
func (s *Session) Done() <-chan struct{} { return s.done }

// Where is what the title and status bar say about a session.
type Where struct {
	Env, Profile, Region string
	// Endpoint is redacted (data.Conn.Target): never a password.
	Endpoint  string
	ReadOnly  bool
	Protected bool
	Color     string
}

// Where describes the session for the screen.
func (s *Session) Where() Where {
	w := Where{Env: s.Env, Protected: s.Protected, Color: s.Color}
	if s.Conn != nil {
		w.Profile, w.Region, w.Endpoint, w.ReadOnly = s.Conn.Profile, s.Conn.Region, s.Conn.Endpoint, s.Conn.ReadOnly
	}
	return w
}

// Target is where this session points, as a Target (for :profile and
// :region, which change one part of it).
func (s *Session) Target() Target {
	w := s.Where()
	return Target{Env: w.Env, Profile: w.Profile, Region: w.Region}
}

// Connector opens sessions for the console; main implements it from the
// config file and the flags.
type Connector interface {
	// Open resolves t and connects. An unknown env or profile, or a
	// region that is not one, is an error and opens nothing.
	Open(ctx context.Context, t Target) (*Session, error)
	// Envs, Profiles and Regions are the names completion offers.
	Envs() []string
	Profiles() []string
	Regions() []string
}

// UnknownError is a name Open does not know (an env not in the config
// file), with the names it does.
type UnknownError struct {
	What, Name string
	Known      []string
}

func (e *UnknownError) Error() string {
	msg := fmt.Sprintf("unknown %s %q", e.What, data.Escape(e.Name))
	if len(e.Known) > 0 {
		msg += " (known: "
		for i, k := range e.Known {
			if i > 0 {
				msg += ", "
			}
			msg += data.Escape(k)
		}
		msg += ")"
	}
	return msg
}

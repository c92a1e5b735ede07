// Package uitest runs bubbletea models in tests the way tea.Program runs
// them, without a terminal: messages go back into Update, batches fan out.
//
// Timers are the test's to fire. A model built with Timer as its timer
// maker (ui.Options.Timer, views.Context.Timer) gets commands that return
// at once with a TimerMsg — the duration and the message it would deliver —
// instead of blocking until then. The drivers keep those:
//
//   - Settle is synchronous, for work that ends (a key press, a load): it
//     runs every command to a fixed point on the test goroutine and returns
//     the timers that were armed, unfired. Fire delivers chosen ones, as if
//     their time had come; the wall clock never matters.
//   - Live is asynchronous, for a model fed by a live stream, whose work
//     never ends: each command runs on its own goroutine and a timer goes
//     off after its real duration, as in the program; the test feeds the
//     messages to Update until a condition holds, with a deadline.
//
// This package is test support: the opsdeck binary does not link it.
package uitest

import (
	"cmp"
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TimerMsg is what a Timer command returns: a timer armed for After, which
// delivers Msg when it goes off. The drivers never give it to a model.
type TimerMsg struct {
	After time.Duration
	Msg   tea.Msg
}

// Timer is the timer maker for models under test (in place of tea.Tick):
// its command returns the TimerMsg at once.
func Timer(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return TimerMsg{After: d, Msg: msg} }
}

// The code of the commands tea.Tick and tea.Every return: every call
// returns a closure over the same function, so a command whose code is one
// of these is a real timer, one that blocks until its time.
var (
	tickCode  = codeOf(tea.Tick(time.Hour, nil))
	everyCode = codeOf(tea.Every(time.Hour, nil))
)

func codeOf(cmd tea.Cmd) uintptr { return reflect.ValueOf(cmd).Pointer() }

// isRealTimer: cmd was made by tea.Tick or tea.Every.
func isRealTimer(cmd tea.Cmd) bool {
	c := codeOf(cmd)
	return c == tickCode || c == everyCode
}

// maxSteps bounds one Settle: more messages than this is a command loop.
const maxSteps = 10_000

// Result is what a Settle saw besides the model.
type Result struct {
	// Quit: a command asked the program to quit.
	Quit bool
	// Timers are the timers armed and not fired, in the order armed.
	Timers []TimerMsg
	// Msgs is every message given to Update, in order (not the batches,
	// quits and timers the driver handles itself).
	Msgs []tea.Msg
}

// Settle runs cmd the way the program would — every message it yields is
// fed back into m.Update, batches and sequences fan out — until no command
// is left but timers. It is synchronous, so tests need no sleeps: when it
// returns, every load the command started has been answered. A real
// tea.Tick or tea.Every (a model built without Timer) fails the test: it
// would wait on the wall clock, and a clock that re-arms itself forever.
func Settle[M tea.Model](t testing.TB, m M, cmd tea.Cmd) (M, Result) {
	t.Helper()
	var res Result
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > maxSteps {
			t.Fatalf("uitest.Settle: more than %d messages (a command loop?)", maxSteps)
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		if isRealTimer(c) {
			t.Fatalf("uitest.Settle: the model armed a real tea.Tick; build it with uitest.Timer as its timer maker")
		}
		msg := c()
		if cmds, ok := fanOut(msg); ok {
			queue = append(queue, cmds...)
			continue
		}
		switch msg := msg.(type) {
		case nil:
		case tea.QuitMsg:
			res.Quit = true
		case TimerMsg:
			res.Timers = append(res.Timers, msg)
		default:
			res.Msgs = append(res.Msgs, msg)
			var next tea.Cmd
			m, next = update(m, msg)
			queue = append(queue, next)
		}
	}
	return m, res
}

// Fire lets timers go off, shortest first, as if their time had come: each
// one's message goes to Update and what it starts is settled. The timers
// armed meanwhile are returned, not fired, so a timer that re-arms itself
// cannot loop.
func Fire[M tea.Model](t testing.TB, m M, timers []TimerMsg) (M, Result) {
	t.Helper()
	timers = slices.Clone(timers)
	slices.SortStableFunc(timers, func(a, b TimerMsg) int { return cmp.Compare(a.After, b.After) })
	var all Result
	for _, tm := range timers {
		var res Result
		m, res = Settle(t, m, func() tea.Msg { return tm.Msg })
		all.Quit = all.Quit || res.Quit
		all.Timers = append(all.Timers, res.Timers...)
		all.Msgs = append(all.Msgs, res.Msgs...)
	}
	return m, all
}

// Messages runs cmd like Settle but gives the messages to no model: it
// returns them in order, and the timers apart. It may run on any goroutine,
// so a real tea.Tick makes it panic rather than fail the test.
func Messages(cmd tea.Cmd) (msgs []tea.Msg, timers []TimerMsg) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		if isRealTimer(c) {
			panic("uitest.Messages: the model armed a real tea.Tick; build it with uitest.Timer as its timer maker")
		}
		msg := c()
		if cmds, ok := fanOut(msg); ok {
			queue = append(queue, cmds...)
			continue
		}
		switch msg := msg.(type) {
		case nil:
		case TimerMsg:
			timers = append(timers, msg)
		default:
			msgs = append(msgs, msg)
		}
	}
	return msgs, timers
}

// Live runs a model the way tea.Program does — each command on its own
// goroutine, batches fanned out, every message back into Update on one
// goroutine, the test's — so a test can wait on the model's state with a
// deadline, without sleeps. It is for models with a live feed, whose
// commands never all end. Timers go off after their real duration.
type Live[M tea.Model] struct {
	// Model is the model after the last Update.
	Model M
	// Seen, if set, is called with each message before Update gets it
	// (tests record what the model was given).
	Seen func(tea.Msg)

	ctx  context.Context
	msgs chan tea.Msg
}

// NewLive drives m until ctx ends; commands still running then are
// abandoned (their messages are dropped).
func NewLive[M tea.Model](ctx context.Context, m M) *Live[M] {
	return &Live[M]{Model: m, ctx: ctx, msgs: make(chan tea.Msg, 256)}
}

// Start sends the window size and runs the model's Init, as the program
// does when it starts.
func (d *Live[M]) Start(width, height int) {
	d.Update(tea.WindowSizeMsg{Width: width, Height: height})
	d.Run(d.Model.Init())
}

// Run runs cmd on its own goroutine; its message is delivered by Until.
func (d *Live[M]) Run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if cmds, ok := fanOut(msg); ok {
			for _, c := range cmds {
				d.Run(c)
			}
			return
		}
		if tm, ok := msg.(TimerMsg); ok {
			wait := time.NewTimer(tm.After)
			defer wait.Stop()
			select {
			case <-wait.C:
				msg = tm.Msg
			case <-d.ctx.Done():
				return
			}
		}
		if msg == nil {
			return
		}
		select {
		case d.msgs <- msg:
		case <-d.ctx.Done():
		}
	}()
}

// Send delivers msg into the loop as Program.Send does, from any
// goroutine: Until gives it to the model. It returns once the loop has
// it, or ctx has ended.
func (d *Live[M]) Send(msg tea.Msg) {
	select {
	case d.msgs <- msg:
	case <-d.ctx.Done():
	}
}

// Update gives msg to the model now and runs the command it returns.
func (d *Live[M]) Update(msg tea.Msg) {
	if d.Seen != nil {
		d.Seen(msg)
	}
	var cmd tea.Cmd
	d.Model, cmd = update(d.Model, msg)
	d.Run(cmd)
}

// Until feeds the model the commands' messages until cond holds, failing
// the test after timeout with what it waited for, and detail() if given.
func (d *Live[M]) Until(t testing.TB, timeout time.Duration, what string, cond func() bool, detail ...func() string) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !cond() {
		select {
		case msg := <-d.msgs:
			d.Update(msg)
		case <-deadline.C:
			more := ""
			for _, f := range detail {
				more += " (" + f() + ")"
			}
			t.Fatalf("timed out after %v waiting for %s%s", timeout, what, more)
		}
	}
}

// Drain gives the model every message already waiting, without blocking:
// for loops that interleave their own work with the model's.
func (d *Live[M]) Drain() {
	for {
		select {
		case msg := <-d.msgs:
			d.Update(msg)
		default:
			return
		}
	}
}

// update is m.Update with the result back in the model's own type.
func update[M tea.Model](m M, msg tea.Msg) (M, tea.Cmd) {
	nm, cmd := m.Update(msg)
	return nm.(M), cmd
}

// cmdType is the element type of tea.BatchMsg and of the unexported
// message tea.Sequence returns: both are lists of commands to run.
var cmdType = reflect.TypeOf(tea.BatchMsg(nil)).Elem()

// fanOut returns the commands of a batch or a sequence. The drivers run a
// batch's commands in order, which is one of the orders the program may
// pick; a sequence's are queued in order.
func fanOut(msg tea.Msg) ([]tea.Cmd, bool) {
	if b, ok := msg.(tea.BatchMsg); ok {
		return b, true
	}
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != cmdType {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

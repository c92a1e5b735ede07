package uitest

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

type (
	loadMsg  struct{ n int }
	tickMsg  struct{ name string }
	clockMsg struct{}
)

// counter is a model with the shapes the console has: a key starts two
// loads in a batch; each answer arms a timer; the clock re-arms itself
// every time it ticks; q quits.
type counter struct {
	loads []int
	ticks []string
	clock int
}

func (c counter) Init() tea.Cmd { return Timer(time.Second, clockMsg{}) }

func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return c, tea.Quit
		}
		return c, tea.Batch(
			func() tea.Msg { return loadMsg{1} },
			tea.Sequence(func() tea.Msg { return loadMsg{2} }, func() tea.Msg { return loadMsg{3} }),
		)
	case loadMsg:
		c.loads = append(c.loads, msg.n)
		return c, Timer(time.Duration(10-msg.n)*time.Second, tickMsg{fmt.Sprint("after load ", msg.n)})
	case tickMsg:
		c.ticks = append(c.ticks, msg.name)
	case clockMsg:
		c.clock++
		return c, Timer(time.Second, clockMsg{})
	}
	return c, nil
}

func (c counter) View() tea.View { return tea.NewView("") }

func key(s string) tea.Cmd {
	return func() tea.Msg { return tea.KeyPressMsg{Code: rune(s[0]), Text: s} }
}

func TestSettleRunsEverythingButTimers(t *testing.T) {
	m, res := Settle(t, counter{}, tea.Batch(counter{}.Init(), key("x")))
	slices.Sort(m.loads)
	if !slices.Equal(m.loads, []int{1, 2, 3}) {
		t.Fatalf("loads %v: the batch and the sequence were not run to the end", m.loads)
	}
	if len(m.ticks) != 0 || m.clock != 0 {
		t.Fatalf("a timer went off inside Settle: ticks %v, clock %d", m.ticks, m.clock)
	}
	if len(res.Timers) != 4 || res.Quit {
		t.Fatalf("timers %v, quit %v; want the clock and one per load, no quit", res.Timers, res.Quit)
	}

	m, res = Fire(t, m, res.Timers)
	want := []string{"after load 3", "after load 2", "after load 1"}
	if !slices.Equal(m.ticks, want) || m.clock != 1 {
		t.Fatalf("after Fire: ticks %v (want shortest first %v), clock %d", m.ticks, want, m.clock)
	}
	if len(res.Timers) != 1 || res.Timers[0].Msg != (clockMsg{}) {
		t.Fatalf("the clock re-armed %v; want exactly one clock timer back, unfired", res.Timers)
	}

	_, res = Settle(t, m, key("q"))
	if !res.Quit {
		t.Fatal("tea.Quit not reported")
	}
}

func TestMessagesKeepsTimersApart(t *testing.T) {
	msgs, timers := Messages(tea.Batch(func() tea.Msg { return loadMsg{1} }, Timer(time.Minute, tickMsg{"t"}), nil))
	if len(msgs) != 1 || msgs[0] != (loadMsg{1}) || len(timers) != 1 || timers[0].After != time.Minute {
		t.Fatalf("msgs %v, timers %v", msgs, timers)
	}
}

// fatalT records Fatalf and ends the goroutine, as testing.T does.
type fatalT struct {
	testing.TB
	msg string
}

func (f *fatalT) Helper() {}
func (f *fatalT) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// A model built with real timers would make Settle wait, and a clock that
// re-arms itself would never let it return: Settle refuses it at once.
func TestSettleRefusesARealTimer(t *testing.T) {
	ft := &fatalT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Settle(ft, counter{}, tea.Tick(time.Hour, func(time.Time) tea.Msg { return clockMsg{} }))
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Settle waited on a real tea.Tick")
	}
	if !strings.Contains(ft.msg, "uitest.Timer") {
		t.Fatalf("Settle on a real timer: %q", ft.msg)
	}
}

// Live runs commands on their own goroutines and lets timers go off after
// their duration, as the program does.
func TestLiveFiresTimersInTime(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := NewLive(ctx, counter{})
	var seen []tea.Msg
	d.Seen = func(msg tea.Msg) { seen = append(seen, msg) }
	d.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
	d.Until(t, time.Minute, "three loads", func() bool { return len(d.Model.loads) == 3 })
	d.Run(Timer(time.Millisecond, tickMsg{"soon"}))
	d.Until(t, time.Minute, "the timer", func() bool { return slices.Contains(d.Model.ticks, "soon") })
	if len(seen) < 5 {
		t.Fatalf("Seen saw %d messages, want the key, three loads and the tick", len(seen))
	}
}

package livefeed_test

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/keymap"
	"opsdeck/themes"
	"opsdeck/ui/livefeed"
	"opsdeck/views/streamview"
)

// host is the smallest root model that wires a Feed to the Stream pane —
// the same three steps the real root takes: arm Next in Init, apply each
// BatchMsg and re-arm, route keys to the pane.
type host struct {
	feed    *livefeed.Feed
	pane    *streamview.Model
	health  map[data.TableID]stream.Health // as the root keeps it
	want    int
	applied int
	batches int
	first   time.Time
	last    time.Time
}

func (h *host) Init() tea.Cmd { return h.feed.Next() }

func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.pane.SetSize(msg.Width, msg.Height)
	case livefeed.BatchMsg:
		if h.batches == 0 {
			h.first = time.Now()
		}
		h.last = time.Now()
		h.batches++
		h.applied += len(msg.Records)
		h.pane.Append(msg.Records)
		for _, hl := range msg.Health {
			h.health[hl.Table] = hl
		}
		h.pane.NoteDropped(msg.Dropped)
		if h.applied >= h.want {
			return h, tea.Quit
		}
		return h, h.feed.Next()
	case tea.KeyPressMsg:
		return h, h.pane.Update(msg)
	}
	return h, nil
}

func (h *host) View() tea.View { return tea.NewView(h.pane.View()) }

// A burst of 8,000 records from 8 reader goroutines reaches the pane
// through a real program: all of them, in far fewer messages than records,
// never more than one per 1/30 s.
func TestProgramReceivesBurstInBatches(t *testing.T) {
	const writers, per = 8, 1000
	feed := livefeed.New(context.Background(), livefeed.Options{})
	defer feed.Close()
	pane := streamview.New(streamview.Options{Theme: themes.Plain(), Keys: keymap.Default(), Location: time.UTC})
	h := &host{feed: feed, pane: pane, health: map[data.TableID]stream.Health{}, want: writers * per}
	tm := teatest.NewTestModel(t, h, teatest.WithInitialTermSize(120, 40))

	feed.Health(stream.Health{Table: data.TableSessions, State: stream.StateLive})
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < per; i += 50 {
				batch := make([]stream.Record, 0, 50)
				for j := i; j < i+50; j++ {
					batch = append(batch, stream.Record{
						Table: data.TableSessions, EventName: "INSERT", ApproxTime: time.Now(),
						Keys: data.Item{"sessionId": &types.AttributeValueMemberS{Value: fmt.Sprintf("w%d-%d", w, j)}},
						New:  data.Item{"sessionId": &types.AttributeValueMemberS{Value: fmt.Sprintf("w%d-%d", w, j)}},
					})
				}
				feed.Records(batch)
			}
		}(w)
	}
	wg.Wait()

	final := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(*host)
	if final.applied != writers*per || final.pane.Len() != writers*per || final.pane.Dropped() != 0 {
		t.Fatalf("applied %d, pane holds %d, dropped %d; want %d, %d, 0",
			final.applied, final.pane.Len(), final.pane.Dropped(), writers*per, writers*per)
	}
	// The ticker never fires faster than its period, so the batch count is
	// bounded by the time the batches spanned.
	span := final.last.Sub(final.first)
	if limit := int(math.Ceil(span.Seconds()*30)) + 1; final.batches > limit {
		t.Fatalf("%d batches over %v: more than 30 per second", final.batches, span)
	}
	if h := final.health[data.TableSessions]; len(final.health) != 1 || h.State != stream.StateLive {
		t.Fatalf("health %v", final.health)
	}
	t.Logf("%d records in %d batches over %v", final.applied, final.batches, span)
}

package stream

import (
	"testing"
	"time"

	"opsdeck/data"
)

type healthRec struct{ got []Health }

func (h *healthRec) Records([]Record) {}
func (h *healthRec) Health(x Health)  { h.got = append(h.got, x) }

// TestPausedFromTheStartGoesLiveWhenWanted: a table no pane needed when the
// reader started (Background off) is paused before its stream is even
// opened. Once wanted and its shards read, it must report live; it stayed
// "paused" on screen for good while records flowed, because the opening's
// own "ready" was dropped while paused and "live" waited for it.
func TestPausedFromTheStartGoesLiveWhenWanted(t *testing.T) {
	sink := &healthRec{}
	h := newHealthTracker(data.TableEvents, sink, time.Now)
	h.pause("not read while no pane shows events") // setRate(RateOff) before run
	h.resume()                                     // the session starts
	h.starting("shard-1")                          // startAtLatest
	h.ok("")                                       // the stream is open
	h.unpause()                                    // wanted now
	h.ok("shard-1")                                // its first good poll
	if n := len(sink.got); n == 0 || sink.got[n-1].State != StateLive {
		t.Fatalf("health reports %v, want live last", sink.got)
	}
}

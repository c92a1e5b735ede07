package ui

import (
	"opsdeck/data/stream"
	"opsdeck/ui/livefeed"
	"opsdeck/views"
	"opsdeck/views/streamview"
)

// Tests reach into particular panes; the root itself never does (it knows
// panes only through views.Pane).

func (m Model) sessionsPane() *views.Sessions { return m.Pane(views.PaneSessions).(*views.Sessions) }

func (m Model) streamLive() *streamview.Model { return m.Pane(views.PaneStream).(*views.Stream).Live() }

// setActive shows pane id without loading it.
func (m *Model) setActive(id views.PaneID) { m.active, _ = m.paneIndex(id) }

// The panes' commands, by name (declared in views).
const (
	VerbSessions      Verb = "sessions"
	VerbSession       Verb = "session"
	VerbRuns          Verb = "runs"
	VerbRun           Verb = "run"
	VerbInbox         Verb = "inbox"
	VerbDelegations   Verb = "delegations"
	VerbSubscriptions Verb = "subscriptions"
	VerbConsumers     Verb = "consumers"
	VerbSandboxes     Verb = "sandboxes"
	VerbStream        Verb = "stream"
)

// parsed is the Command a line should parse to: verb, argument, then
// option key/value pairs in the command's declared order.
func parsed(v Verb, arg string, kv ...string) Command {
	c := Command{Verb: v, Args: views.Args{Arg: arg}}
	for i := 0; i+1 < len(kv); i += 2 {
		c.Opts[i/2] = views.Opt{Key: kv[i], Value: kv[i+1]}
	}
	return c
}

// changesMsg is a live-tail batch carrying changes, as the reader would
// deliver them.
func changesMsg(changes []views.Change) livefeed.BatchMsg {
	recs := make([]stream.Record, len(changes))
	for i, c := range changes {
		recs[i] = stream.Record{Table: c.Table, TableName: string(c.Table), EventName: c.Event, Keys: c.Keys, Old: c.Old, New: c.New, TTL: c.TTL}
	}
	return livefeed.BatchMsg{Records: recs}
}

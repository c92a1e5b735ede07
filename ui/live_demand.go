package ui

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// The live tail reads at full rate only the tables something on screen
// needs, and the others slowly (stream.Tailer.SetDemand). This file is the
// UI's whole side of that: after every update the root works out the
// wanted tables and, when they changed, tells the reader through
// Options.Demand.

// wantedTables is what the screen needs live now: the shown pane's table;
// the table the Stream pane is narrowed to (`:stream sessions`), shown or
// not; and every table while the Stream pane is shown unnarrowed.
func wantedTables(panes []*slot, active int) map[data.TableID]bool {
	want := map[data.TableID]bool{}
	for i, p := range panes {
		if p.demand == nil {
			continue
		}
		tables, all := p.demand.LiveTables(i == active)
		if all {
			for _, s := range data.Schemas() {
				want[s.ID] = true
			}
		}
		for _, t := range tables {
			want[t] = true
		}
	}
	return want
}

// demandCmd tells the reader the wanted tables when they changed since it
// was last told (nil otherwise, and without a demand hook).
func (l *liveTail) demandCmd(panes []*slot, active int) tea.Cmd {
	if l.demand == nil {
		return nil
	}
	want := wantedTables(panes, active)
	var ids []data.TableID
	var key []string
	for _, s := range data.Schemas() {
		if want[s.ID] {
			ids = append(ids, s.ID)
			key = append(key, string(s.ID))
		}
	}
	// A table no pane models (the Tables pane's items): the reader
	// follows it from now on (session.Demand).
	var extra []data.TableID
	for t := range want {
		if data.IsUnmodeled(t) {
			extra = append(extra, t)
		}
	}
	slices.Sort(extra)
	for _, t := range extra {
		ids = append(ids, t)
		key = append(key, string(t))
	}
	k := strings.Join(key, " ")
	if l.wanted != nil && k == l.demandSent {
		return nil
	}
	l.demandSent, l.wanted = k, want
	f := l.demand
	return func() tea.Msg {
		f(ids)
		return nil
	}
}

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
func (m Model) wantedTables() map[data.TableID]bool {
	want := map[data.TableID]bool{}
	for i, p := range m.panes {
		if p.demand == nil {
			continue
		}
		tables, all := p.demand.LiveTables(i == m.active)
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
func (m *Model) demandCmd() tea.Cmd {
	if m.live.demand == nil {
		return nil
	}
	want := m.wantedTables()
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
	if m.live.wanted != nil && k == m.live.demandSent {
		return nil
	}
	m.live.demandSent, m.live.wanted = k, want
	f := m.live.demand
	return func() tea.Msg {
		f(ids)
		return nil
	}
}

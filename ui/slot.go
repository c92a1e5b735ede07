package ui

import (
	"opsdeck/data"
	"opsdeck/views"
)

// slot is one registered pane and its optional capabilities, resolved
// once when the console is built (views/pane.go declares them). A nil
// handle is a capability the pane does not have: the root checks the
// handle, never the pane's type or id.
type slot struct {
	views.Pane
	sel        views.Selector
	marks      views.Marker
	filter     views.Filterable
	sort       views.Sortable
	export     views.Exporter
	back       views.Backer
	cancel     views.Canceller
	apply      views.Applier
	tail       views.RecordTail
	demand     views.LiveDemand
	poll       views.Poller
	scan       views.Scanner
	retime     views.Retimer
	theme      views.Themed
	scope      views.Scoper
	alerts     views.Alerter
	background views.Backgrounder
	reconnect  views.Reconnector
	replaced   views.Replacer
}

// newSlot resolves p's capabilities.
func newSlot(p views.Pane) *slot {
	s := &slot{Pane: p}
	s.sel, _ = p.(views.Selector)
	s.marks, _ = p.(views.Marker)
	s.filter, _ = p.(views.Filterable)
	s.sort, _ = p.(views.Sortable)
	s.export, _ = p.(views.Exporter)
	s.back, _ = p.(views.Backer)
	s.cancel, _ = p.(views.Canceller)
	s.apply, _ = p.(views.Applier)
	s.tail, _ = p.(views.RecordTail)
	s.demand, _ = p.(views.LiveDemand)
	s.poll, _ = p.(views.Poller)
	s.scan, _ = p.(views.Scanner)
	s.retime, _ = p.(views.Retimer)
	s.theme, _ = p.(views.Themed)
	s.scope, _ = p.(views.Scoper)
	s.alerts, _ = p.(views.Alerter)
	s.background, _ = p.(views.Backgrounder)
	s.reconnect, _ = p.(views.Reconnector)
	s.replaced, _ = p.(views.Replacer)
	return s
}

// The few questions the root asks of any pane, with the answer a pane
// without the capability gives by having nothing of the kind.

// shownTable is the table of the rows on screen; "" for a pane of no one
// table's rows.
func (s *slot) shownTable() data.TableID {
	if s.poll == nil {
		return ""
	}
	return s.poll.ShownTable()
}

// selected is the item under the cursor; none for a pane without one.
func (s *slot) selected() (data.Item, bool) {
	if s.sel == nil {
		return nil, false
	}
	return s.sel.Selected()
}

// detailOpen: a detail view covers the pane's rows.
func (s *slot) detailOpen() bool { return s.marks != nil && s.marks.DetailOpen() }

// currentScope is the scope the pane lists; zero for a pane of none.
func (s *slot) currentScope() data.Scope {
	if s.scope == nil {
		return data.Scope{}
	}
	return s.scope.CurrentScope()
}

// filterText is the pane's filter; "" for a pane without one.
func (s *slot) filterText() string {
	if s.filter == nil {
		return ""
	}
	return s.filter.Filter()
}

// setFilter narrows the pane's rows; a pane without a filter takes the
// line and shows the same (there is nothing it could narrow).
func (s *slot) setFilter(text string) error {
	if s.filter == nil {
		return nil
	}
	return s.filter.SetFilter(text)
}

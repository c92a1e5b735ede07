package views

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// The quota header's RUNNING count follows the live tail. The count comes
// from its own query (RUNNING sessions of the status index, this project's
// only), so a change is applied to it as a delta — counted before (old
// image) versus counted after (new image) — which is exact and costs no
// read. When the delta cannot be known (an image the stream view type does
// not carry) or the count's query is in flight (its answer may or may not
// include the change), the count is read again instead, debounced so a
// burst of changes costs one query.

// quotaDebounce is how long changes are gathered before the count is read
// again.
const quotaDebounce = time.Second

// quotaRefreshMsg is the debounced re-read; gen drops superseded ones.
type quotaRefreshMsg struct {
	pane PaneID
	gen  uint64
}

func (m quotaRefreshMsg) PaneID() PaneID { return m.pane }

// Apply updates the lists and the quota count.
func (p *Sessions) Apply(changes []Change) tea.Cmd {
	return tea.Batch(p.base.Apply(changes), p.applyQuota(changes))
}

func (p *Sessions) applyQuota(changes []Change) tea.Cmd {
	if p.project == "" || p.quota.req == 0 {
		return nil
	}
	reread := false
	for _, c := range changes {
		if c.Table != data.TableSessions {
			continue
		}
		after := p.countsAsRunning(c.New)
		if c.Old == nil && c.Event != "INSERT" {
			// What it was is unknown: only a read can tell.
			reread = true
			continue
		}
		before := p.countsAsRunning(c.Old)
		if before == after {
			continue
		}
		if p.quota.loading {
			p.quota.dirty = true
			continue
		}
		if after {
			p.quota.running++
		} else if p.quota.running > 0 {
			p.quota.running--
		}
	}
	if !reread {
		return nil
	}
	if p.quota.loading {
		p.quota.dirty = true
		return nil
	}
	return p.scheduleQuota()
}

// countsAsRunning is whether the quota query counts this item: in the
// RUNNING partition of the status index, of this project, and RUNNING as
// the SDK reads it.
func (p *Sessions) countsAsRunning(it data.Item) bool {
	if it == nil || !data.SessionsByStatus(data.SessionRunning).Matches(it) {
		return false
	}
	s := data.DecodeSession(it)
	return s.ProjectID == p.project && s.SDKStatus == data.SessionRunning
}

// scheduleQuota arms one debounced re-read (none if one is pending).
func (p *Sessions) scheduleQuota() tea.Cmd {
	if p.quota.pending {
		return nil
	}
	p.quota.pending = true
	p.quota.gen++
	msg := quotaRefreshMsg{pane: p.id, gen: p.quota.gen}
	return p.ctx.After(quotaDebounce, msg)
}

// onQuotaRefresh re-reads the count, keeping the shown one meanwhile.
func (p *Sessions) onQuotaRefresh(m quotaRefreshMsg) tea.Cmd {
	if m.gen != p.quota.gen || !p.quota.pending {
		return nil
	}
	p.quota.pending = false
	if p.quota.loading {
		p.quota.dirty = true
		return nil
	}
	return p.refreshQuota()
}

package views

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// The quota header's RUNNING count follows the live tail. The count comes
// from its own query (data.SessionsRunningInProject), so a change is
// applied to it as a delta — counted before (old image) versus counted
// after (new image) — which is exact and costs no read, once the change is
// placed after the count (data.ReadSpan.Place): a change the count already
// saw moves nothing, and one that cannot be placed shows the number as ≈
// until a re-read started late enough to see it. When the delta cannot be
// known (an image the stream view type does not carry) or the count's
// query is in flight (its answer may or may not include the change), the
// count is read again instead, debounced so a burst of changes costs one
// query.

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
	now := time.Now()
	for _, c := range changes {
		if c.Table == data.TableSessions {
			p.quota.recent.add(c, now)
		}
	}
	return p.placeQuota(changes)
}

// placeQuota moves the count by the changes that came after it: one the
// count already saw (made before it read) moves nothing; one that may or
// may not be in it makes the number approximate until a re-read, started
// late enough to see it.
func (p *Sessions) placeQuota(changes []Change) tea.Cmd {
	reread, settle := false, false
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
		switch p.quota.span.Place(c.Placed()) {
		case data.PlacedBefore:
			continue
		case data.PlacedUnknown:
			p.quota.approx, settle = true, true
			continue
		}
		if after {
			p.quota.running++
		} else if p.quota.running > 0 {
			p.quota.running--
		}
	}
	if !reread && !settle {
		return nil
	}
	if p.quota.loading {
		p.quota.dirty = true
		return nil
	}
	if settle {
		return p.scheduleQuotaIn(settleDelay)
	}
	return p.scheduleQuota()
}

// countsAsRunning is whether the quota's count counts this item: the
// count's own scope says, so the delta and the count cannot disagree.
func (p *Sessions) countsAsRunning(it data.Item) bool {
	return data.SessionsRunningInProject(p.project).Matches(it)
}

// scheduleQuota arms one debounced re-read (none if one is pending).
func (p *Sessions) scheduleQuota() tea.Cmd { return p.scheduleQuotaIn(quotaDebounce) }

// scheduleQuotaIn arms one re-read in d (none if one is pending).
func (p *Sessions) scheduleQuotaIn(d time.Duration) tea.Cmd {
	if p.quota.pending {
		return nil
	}
	p.quota.pending = true
	p.quota.gen++
	msg := quotaRefreshMsg{pane: p.id, gen: p.quota.gen}
	return p.ctx.After(d, msg)
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

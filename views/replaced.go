package views

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// A table's stream replaced by a new one (the table re-created, or its
// stream disabled and enabled again: stream.Health.Replaced). Rows read
// before come from the old table, or miss the changes made while no stream
// recorded them, and no record of the new stream will correct them: they
// are dropped at once — never shown as live — and read again. Other
// tables' lists keep their rows.

// Replaced drops and reloads every list of table t (a scan of t is
// dropped: it was of the old table).
func (b *base) Replaced(t data.TableID) tea.Cmd {
	if b.scan != nil && b.scanResult.Table == t {
		b.dropScan()
	}
	var cmds []tea.Cmd
	for _, l := range b.lists {
		if !l.hasScope || l.scope.Table != t {
			continue
		}
		started := l.ld.started
		l.reconnect()
		if started {
			cmds = append(cmds, l.load())
		}
	}
	return tea.Batch(cmds...)
}

// Replaced also reads the project's quota again when sessions' stream was
// replaced.
func (p *Sessions) Replaced(t data.TableID) tea.Cmd {
	cmd := p.base.Replaced(t)
	if t == data.TableSessions && p.project != "" && p.quota.req != 0 {
		cmd = tea.Batch(cmd, p.loadQuota())
	}
	return cmd
}

// Replaced marks the numbers of t estimates (changes may be missing) and
// counts again.
func (p *Overview) Replaced(t data.TableID) tea.Cmd {
	if !p.have && !p.counting {
		return nil
	}
	p.ov.MarkEstimated(t)
	if p.counting {
		// Its answer may predate the new table: count again after it.
		p.overflowTable(t)
		p.dirty = true
		return nil
	}
	return p.recount()
}

// overflowTable marks t's numbers estimates when the count in flight
// answers.
func (p *Overview) overflowTable(t data.TableID) {
	if p.overflow == nil {
		p.overflow = map[data.TableID]bool{}
	}
	p.overflow[t] = true
}

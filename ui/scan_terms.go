package ui

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// `:scan NAME TERMS…` for any table: the table by its id or physical name
// (a table no pane models is described first, so its items can be shown),
// and the comparison terms as the scan's filter (data.PlanScan). The scan
// itself is the one in scan.go: the cost dialog, default No.

// scanDescribedMsg is the description a scan of an unmodeled table waited
// for.
type scanDescribedMsg struct {
	args views.Args
	info data.TableInfo
	err  error
}

func (scanDescribedMsg) isScanMsg() {}

// runScan parses a :scan command's table, filter and terms and opens the
// cost dialog.
func (m Model) runScan(a views.Args) (tea.Model, tea.Cmd) {
	table := m.scanTable(a.Arg)
	if _, ok := data.Schema(table); !ok {
		st := m.ctx.Store
		if st == nil {
			m.setFlash("scan: no database connection", true)
			return m, nil
		}
		name := m.ctx.Tables.Name(table)
		m.setPending("describing "+inert.String(name)+" before the scan…", false)
		return m, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), views.DefaultReadTimeout)
			defer cancel()
			info, err := st.DescribeTable(ctx, name)
			return scanDescribedMsg{args: a, info: info, err: err}
		}
	}
	filter, err := scanFilter(table, a)
	if err != nil {
		m.setFlash(err.Error(), true)
		return m, nil
	}
	where, err := m.scanWhere(table, a.TermList())
	if err != nil {
		m.setFlash("scan: "+inert.String(err.Error())+" — usage: "+scanSpec.Usage, true)
		return m, nil
	}
	return m.openScan(table, scanSegments(a), filter, where)
}

// onScanDescribed registers the described table and goes on with the scan.
func (m Model) onScanDescribed(msg scanDescribedMsg) (tea.Model, tea.Cmd) {
	m.setFlash("", false)
	if msg.err != nil {
		m.setFlash("scan: "+data.Describe(msg.err), true)
		return m, nil
	}
	// Store.DescribeTable registered the schema (decoding the items needs it).
	if _, ok := data.Schema(msg.info.Schema.ID); !ok {
		m.setFlash(fmt.Sprintf("scan: %s cannot be browsed (no key schema)", inert.String(msg.info.Name)), true)
		return m, nil
	}
	return m.runScan(msg.args)
}

// scanTable is the table a :scan names: a modeled table by its id (the
// parser gave it in the schema's spelling) or its physical name, any other
// by its physical name.
func (m Model) scanTable(arg string) data.TableID {
	if _, ok := tableID(arg); ok {
		return data.TableID(arg)
	}
	return m.ctx.Tables.IDFor(arg)
}

// scanWhere is the terms as the scan's filter (zero for none).
func (m Model) scanWhere(table data.TableID, words []string) (data.Scope, error) {
	if len(words) == 0 {
		return data.Scope{}, nil
	}
	terms, rest, err := data.ParseTerms(words, m.act.now())
	if err != nil {
		return data.Scope{}, err
	}
	if len(rest) > 0 {
		return data.Scope{}, fmt.Errorf("%q is not a comparison", rest[0])
	}
	s, _ := data.Schema(table)
	return data.PlanScan(s, terms)
}

// whereText is the scan's terms as the dialog shows them.
func whereText(where data.Scope) string { return views.WhereText(where) }

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
func (x *scanExport) runScan(r *Model, a views.Args) tea.Cmd {
	table := r.scanTable(a.Arg)
	if _, ok := data.Schema(table); !ok {
		st := r.ctx.Store
		if st == nil {
			r.setFlash("scan: no database connection", true)
			return nil
		}
		name := r.ctx.Tables.Name(table)
		r.setPending("describing "+inert.String(name)+" before the scan…", false)
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), views.DefaultReadTimeout)
			defer cancel()
			info, err := st.DescribeTable(ctx, name)
			return scanDescribedMsg{args: a, info: info, err: err}
		}
	}
	filter, err := scanFilter(table, a)
	if err != nil {
		r.setFlash(err.Error(), true)
		return nil
	}
	where, err := r.scanWhere(table, a.TermList())
	if err != nil {
		r.setFlash("scan: "+inert.String(err.Error())+" — usage: "+scanSpec.Usage, true)
		return nil
	}
	return x.openScan(r, table, scanSegments(a), filter, where)
}

// onScanDescribed registers the described table and goes on with the scan.
func (x *scanExport) onScanDescribed(r *Model, msg scanDescribedMsg) tea.Cmd {
	r.setFlash("", false)
	if msg.err != nil {
		r.setFlash("scan: "+data.Describe(msg.err), true)
		return nil
	}
	// Store.DescribeTable registered the schema (decoding the items needs it).
	if _, ok := data.Schema(msg.info.Schema.ID); !ok {
		r.setFlash(fmt.Sprintf("scan: %s cannot be browsed (no key schema)", inert.String(msg.info.Name)), true)
		return nil
	}
	return x.runScan(r, msg.args)
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

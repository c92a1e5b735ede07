package ui

import tea "charm.land/bubbletea/v2"

// scanExport is the sub-model of the two ways rows leave their pages: the
// explicit, costed Scan of a whole table (scan.go; its state is its
// dialog's) and :export of a pane's rows to a file (export.go). Update
// handles their messages; the root only routes them here.
type scanExport struct {
	// export is the :export in progress, if any.
	export *exportJob
}

// Update handles a scan's estimate, progress and end, and an export's
// steps; handled is false for any other message.
func (x *scanExport) Update(r *Model, msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch msg := msg.(type) {
	case scanMsg:
		return x.onScan(r, msg), true
	case exportStepMsg:
		return x.onExportStep(r, msg), true
	}
	return nil, false
}

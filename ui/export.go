package ui

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/data/secret"
	"opsdeck/views"
)

// exportUsage is the one line a mistaken :export gets.
const exportUsage = ":export <file> [jsonl|csv|ddb] [overwrite] [reveal]"

// exportChunk is how many rows one step writes: a big export reports its
// progress (and can be cancelled) between steps.
var exportChunk = 2000

// exportJob is a running :export. The rows were gathered in Update; the
// steps (each a tea.Cmd, one at a time) own the file and the writer, and
// the root reads only what their messages carry.
type exportJob struct {
	id     uint64
	set    views.ExportSet
	path   string
	format export.Format
	over   bool
	mask   secret.Masker
	header []string
	what   string // "12 rows", "3 marked rows (1 hidden by the filter)"

	// whole: the pane's rows hold only the attributes its columns show
	// (a projected list), so a jsonl or ddb export reads each row's whole
	// item by key first; a row deleted since it was listed is left out
	// (gone counts them). CSV writes the cells as shown and reads nothing.
	whole   bool
	store   *data.Store
	timeout time.Duration
	gone    atomic.Int64

	file   *export.File
	w      *export.Writer
	cancel atomic.Bool
}

// exportStepMsg is one step's result.
type exportStepMsg struct {
	id      uint64
	pos     int  // rows written so far
	done    bool // complete and under its name
	path    string
	written int // rows written (a row whose kept item is unreadable is not)
	err     error
}

var exportSeq atomic.Uint64

// exportSpec is `:export`, a root command: it writes rows of the pane on
// screen.
var exportSpec = views.CommandSpec{
	Name:  string(VerbExport),
	Usage: exportUsage,
	Arg:   views.ArgRequired,
	Words: append(export.Formats(), "overwrite", "reveal"),
}

// runExport starts `:export <file> [format] [overwrite] [reveal]`.
func (x *scanExport) runExport(r *Model, a views.Args) tea.Cmd {
	if x.export != nil {
		r.setFlash("an export is running (ctrl+c cancels it)", true)
		return nil
	}
	bad := func(format string, a ...any) tea.Cmd {
		r.setFlash(fmt.Sprintf(format, a...)+" — usage: "+exportUsage, true)
		return nil
	}
	path := a.Arg
	format, formatSet := export.FormatFor(path), false
	for _, w := range a.Words {
		if f, ok := export.ParseFormat(w); ok && w != "" {
			if formatSet {
				return bad("two formats given")
			}
			format, formatSet = f, true
		}
	}
	over, reveal := a.HasWord("overwrite"), a.HasWord("reveal")
	if reveal && format == export.CSV {
		r.setFlash("reveal applies to jsonl and ddb: CSV writes the cells as shown, secrets masked", true)
		return nil
	}
	ex := r.panes[r.active].export
	if ex == nil {
		r.setFlash("export works in the table panes", true)
		return nil
	}
	set, err := ex.ExportRows()
	if err != nil {
		r.setFlash(err.Error(), true)
		return nil
	}
	j := &exportJob{id: exportSeq.Add(1), set: set, path: path, format: format,
		over: over, mask: secret.Default, header: set.Header}
	if reveal {
		j.mask = nil
	}
	if mk := r.panes[r.active].marks; format != export.CSV && mk != nil && mk.Partial() {
		if r.ctx.Store == nil {
			r.setFlash("no connection to read the whole rows for "+string(format), true)
			return nil
		}
		j.whole, j.store, j.timeout = true, r.ctx.Store, r.ctx.ReadTimeout
		if j.timeout <= 0 {
			j.timeout = singleTimeout
		}
	}
	j.what = plural(set.Len(), "row")
	if set.Marked {
		j.what = plural(set.Len(), "marked row")
		if set.Hidden > 0 {
			j.what += fmt.Sprintf(" (%d hidden by the filter)", set.Hidden)
		}
	}
	x.export = j
	if set.Len() > exportChunk {
		r.setPending(fmt.Sprintf("exporting %s… (ctrl+c cancels)", j.what), true)
	}
	return j.step(0)
}

// step writes rows [from, from+exportChunk) — creating the file first, and
// after the last row flushing it and giving it its name.
func (j *exportJob) step(from int) tea.Cmd {
	return func() tea.Msg {
		msg := exportStepMsg{id: j.id, pos: from}
		fail := func(err error) tea.Msg {
			if j.file != nil {
				j.file.Abort()
			}
			msg.err = err
			return msg
		}
		if j.cancel.Load() {
			return fail(errExportCancelled)
		}
		if j.file == nil {
			f, err := export.Create(j.path, j.over)
			if err != nil {
				return fail(err)
			}
			j.file = f
			w, err := export.NewWriter(f, j.format, j.header, j.mask)
			if err != nil {
				return fail(err)
			}
			j.w = w
		}
		end := min(from+exportChunk, j.set.Len())
		recs := j.set.Records(from, end)
		if j.whole {
			var err error
			if recs, err = j.wholeOf(recs); err != nil {
				return fail(err)
			}
		}
		for _, r := range recs {
			if err := j.w.Write(r); err != nil {
				return fail(err)
			}
		}
		msg.pos = end
		if end < j.set.Len() {
			return msg
		}
		if err := j.w.Flush(); err != nil {
			return fail(err)
		}
		if j.cancel.Load() {
			return fail(errExportCancelled)
		}
		if err := j.file.Commit(); err != nil {
			msg.err = err
			return msg
		}
		msg.done, msg.path, msg.written = true, j.file.Path, j.w.Count()
		return msg
	}
}

// wholeOf replaces each record's listed item by the whole item read now
// (BatchGetItem by key); records whose item no longer exists are dropped
// and counted in gone.
func (j *exportJob) wholeOf(recs []export.Record) ([]export.Record, error) {
	keys := make([]data.Item, len(recs))
	for i, r := range recs {
		keys[i] = data.KeyOf(j.set.Table, r.Item)
	}
	ctx, cancel := context.WithTimeout(context.Background(), j.timeout)
	defer cancel()
	items, _, err := j.store.BatchGet(ctx, j.set.Table, keys)
	if err != nil {
		return nil, fmt.Errorf("reading the whole rows: %s", data.Describe(err))
	}
	out := recs[:0]
	for i, r := range recs {
		if items[i] == nil {
			j.gone.Add(1)
			continue
		}
		r.Item = items[i]
		out = append(out, r)
	}
	return out, nil
}

var errExportCancelled = errors.New("export cancelled: no file written")

// onExportStep reports a step and starts the next.
func (x *scanExport) onExportStep(r *Model, msg exportStepMsg) tea.Cmd {
	j := x.export
	if j == nil || msg.id != j.id {
		return nil
	}
	switch {
	case msg.err != nil:
		x.export = nil
		var exists *export.ExistsError
		if errors.As(msg.err, &exists) {
			r.setFlash(fmt.Sprintf("%s exists: not replaced (add overwrite: :export %s … overwrite)", exists.Path, quoteArg(j.path)), true)
			return nil
		}
		var special *export.NotRegularError
		if errors.As(msg.err, &special) {
			r.setFlash("not exported: "+special.Error(), true)
			return nil
		}
		if errors.Is(msg.err, errExportCancelled) {
			r.setFlash(msg.err.Error(), false)
			return nil
		}
		r.setFlash("export failed, no file written: "+msg.err.Error(), true)
		return nil
	case msg.done:
		x.export = nil
		secrets := "secrets masked"
		if j.mask == nil && j.format != export.CSV {
			secrets = "secrets INCLUDED (reveal)"
		}
		what := j.what
		gone := int(j.gone.Load())
		if missing := j.set.Len() - msg.written - gone; missing > 0 {
			what = fmt.Sprintf("%d of %s (%d unreadable, left out)", msg.written, j.what, missing)
		}
		if gone > 0 {
			what += fmt.Sprintf(" (%d deleted since listed, left out)", gone)
		}
		r.setFlash(fmt.Sprintf("exported %s to %s (%s, %s)", what, msg.path, j.format, secrets), false)
		return nil
	}
	r.setPending(fmt.Sprintf("exporting %s… %d%% (%d written; ctrl+c cancels)", j.what, msg.pos*100/j.set.Len(), msg.pos), false)
	return j.step(msg.pos)
}

// cancelExport asks a running export to stop; its next step drops the file.
func (x *scanExport) cancelExport(r *Model) bool {
	if x.export == nil {
		return false
	}
	x.export.cancel.Store(true)
	r.setPending("cancelling the export…", true)
	return true
}

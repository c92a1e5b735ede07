package streamview

import (
	"encoding/json"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/stream"
	"opsdeck/views/detail"
)

// copySelected copies the selected record (the one compared, when the
// comparison is open) as JSON: its table, event, keys and images, with
// secrets masked unless this record's comparison has them revealed — the
// detail view's rule, one record at a time.
func (m *Model) copySelected() tea.Cmd {
	rec, ok := m.Selected()
	mask := m.mask
	if m.mode == modeDiff && m.diff != nil {
		rec, ok = m.diff.rec, true
		if m.diff.revealed {
			mask = nil
		}
	}
	if !ok {
		return nil
	}
	text, err := RecordJSON(rec, mask)
	if err != nil {
		return func() tea.Msg { return detail.CopiedMsg{Err: err} }
	}
	n, masked := len(text), mask != nil
	return tea.Batch(detail.CopyCmd(text), func() tea.Msg {
		return detail.CopiedMsg{Bytes: n, Masked: masked, RevealHint: "enter, then s, reveals them in the comparison"}
	})
}

// recordJSON is what c copies from the Stream pane.
type recordJSON struct {
	Table     string          `json:"table"`
	TableName string          `json:"tableName,omitempty"`
	Event     string          `json:"event"`
	Time      string          `json:"approximateCreationTime,omitempty"`
	Keys      json.RawMessage `json:"keys,omitempty"`
	Old       json.RawMessage `json:"oldImage,omitempty"`
	New       json.RawMessage `json:"newImage,omitempty"`
}

// RecordJSON renders a stream record as indented JSON, each image as the
// detail view copies an item (detail.JSONMasked: plain JSON, secrets
// replaced by mask; nil mask shows them).
func RecordJSON(r stream.Record, mask MaskFunc) (string, error) {
	out := recordJSON{Table: tableLabel(r), Event: eventLabel(r)}
	if r.TableName != "" && r.TableName != out.Table {
		out.TableName = r.TableName
	}
	if !r.ApproxTime.IsZero() {
		out.Time = r.ApproxTime.UTC().Format(time.RFC3339)
	}
	for _, part := range []struct {
		item data.Item
		dst  *json.RawMessage
	}{{r.Keys, &out.Keys}, {r.Old, &out.Old}, {r.New, &out.New}} {
		if part.item == nil {
			continue
		}
		text, err := detail.JSONMasked(part.item, mask)
		if err != nil {
			return "", err
		}
		*part.dst = json.RawMessage(text)
	}
	return detail.Indented(out)
}

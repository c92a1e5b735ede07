package vtable

import (
	"strings"
	"testing"
	"time"

	"opsdeck/themes"
)

// TestLabelsHoldUntilTheClockOrAChange: a live time column is drawn
// against the moment of the last change of rows or window (or the owner's
// LabelsAt), not the clock at each draw; NextChange counts from that
// moment, so labels already out of date ask for a wake at once.
func TestLabelsHoldUntilTheClockOrAChange(t *testing.T) {
	start := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	now := start
	label := func(t, at time.Time) string { return at.Sub(t).Truncate(time.Second).String() }
	every := func(t, at time.Time) time.Time { return at.Truncate(time.Second).Add(time.Second) }
	m := New([]Column{{Key: "id", Title: "ID", Width: 6}, {Key: "age", Title: "AGE", Width: 8, Relative: label}}, themes.Dark())
	m.SetNow(func() time.Time { return now })
	m.SetSize(30, 4)
	m.SetRows([]Row{{ID: "a", Cells: []Cell{{Text: "a"}, Cell{}.SortNum(float64(start.Unix()))}}})
	if v := m.View(); !strings.Contains(v, "0s") {
		t.Fatalf("first frame:\n%s", v)
	}
	now = start.Add(3 * time.Second)
	if v := m.View(); !strings.Contains(v, "0s") || strings.Contains(v, "3s") {
		t.Fatalf("the label moved without a tick or a change:\n%s", v)
	}
	if got := m.NextChange(now, every); !got.Equal(now) {
		t.Fatalf("labels 3 s out of date: next change %v, want now", got.Sub(start))
	}
	m.LabelsAt(now)
	if v := m.View(); !strings.Contains(v, "3s") {
		t.Fatalf("after LabelsAt:\n%s", v)
	}
	if got := m.NextChange(now, every); !got.Equal(start.Add(4 * time.Second)) {
		t.Fatalf("next change %v, want 4s", got.Sub(start))
	}
	now = start.Add(7 * time.Second)
	m.MoveDown(1) // the window is touched: labels follow the clock
	if v := m.View(); !strings.Contains(v, "7s") {
		t.Fatalf("after a move:\n%s", v)
	}
}

package terminal

import "testing"

func TestACopyReadsBackAsItsText(t *testing.T) {
	for _, text := range []string{"", "plain", "{\"k\":\"\x1b[31mred\"}", "ünïcode ✓"} {
		msg := Copy(text)().(Msg)
		got, ok := msg.Clipboard()
		if !ok || got != text {
			t.Errorf("Copy(%q) reads back as %q, %v", text, got, ok)
		}
	}
	if _, ok := (Msg{Seq: "\a"}).Clipboard(); ok {
		t.Error("the bell read as a clipboard copy")
	}
}

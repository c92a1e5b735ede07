package views

import "opsdeck/data"

// Jumps from a selected row to what it is related to. Each is a scope the
// owning pane shows (ShowScope); the root keeps the way back.

// JumpKind names a jump.
type JumpKind int

const (
	// JumpRelated: where a row's table's descriptor says it leads (a
	// session → its project, an event → its user's inbox of its type…).
	JumpRelated JumpKind = iota
	// JumpContext: a session → its browser context.
	JumpContext
	// JumpItem: a stream record → the item in its pane.
	JumpItem
)

// JumpFrom is the scope a jump of kind from a row of table leads to, and a
// few words for the status bar; ok false when the row names no such thing.
// Where a row leads is its table's descriptor's (data.Descriptor.Jumps).
func JumpFrom(kind JumpKind, table data.TableID, item data.Item) (sc data.Scope, what string, ok bool) {
	var j data.Jump
	switch kind {
	case JumpItem:
		sc, ok = data.ItemScope(table, item)
		return sc, "the item", ok
	case JumpContext:
		j = data.JumpContext
	default:
		j = data.JumpRelated
	}
	d, _ := data.Lookup(table)
	if to := d.Jumps[j]; to != nil {
		return to(item)
	}
	return data.Scope{}, "", false
}

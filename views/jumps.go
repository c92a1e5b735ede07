package views

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// Jumps from a selected row to what it is related to. Each is a scope the
// owning pane shows (ShowScope); the root keeps the way back.

// JumpKind names a jump.
type JumpKind int

const (
	// JumpRelated: a session, API key or context → its project (sessions,
	// quota, API keys, contexts); a sandbox → the other sandboxes of its
	// track; an event → the user's inbox filtered to its type; a run → its
	// user's runs.
	JumpRelated JumpKind = iota
	// JumpContext: a session → its browser context.
	JumpContext
	// JumpItem: a stream record → the item in its pane.
	JumpItem
)

// JumpFrom is the scope a jump of kind from a row of table leads to, and a
// few words for the status bar; ok false when the row names no such thing.
func JumpFrom(kind JumpKind, table data.TableID, item data.Item) (sc data.Scope, what string, ok bool) {
	str := func(a string) string {
		if v, ok := item[a].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return ""
	}
	switch kind {
	case JumpItem:
		sc, ok = data.ItemScope(table, item)
		return sc, "the item", ok
	case JumpContext:
		if c := str("contextId"); table == data.TableSessions && c != "" {
			return data.ContextByID(c), "the session's context", true
		}
		return data.Scope{}, "", false
	}
	switch table {
	case data.TableSessions, data.TableAPIKeys, data.TableContexts:
		if p := str("projectId"); p != "" {
			return data.SessionsByProject(p), "the project (quota, v: API keys, contexts)", true
		}
	case data.TableSandboxes:
		if t := str("allocated_to_track"); t != "" {
			return data.SandboxesByTrack(t), "the sandboxes of its track", true
		}
	case data.TableEvents:
		if u, t := str("user_id"), str("event_type"); u != "" && t != "" {
			return data.EventsByType(u, t+"#"), "the user's inbox, this type", true
		}
	case data.TableGraphRuns:
		if u, isUser := strings.CutPrefix(str("PK"), "USER#"); isUser && u != "" {
			return data.RunsByUser(u), "the user's runs", true
		}
	}
	return data.Scope{}, "", false
}

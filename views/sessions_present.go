package views

import (
	"time"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// How the Sessions pane's three tables look (present.go).

var sessionsPresenter = presenter{
	table: data.TableSessions, kind: "sessions", pane: PaneSessions,
	columns: sessionColumns, row: sessionRow,
	order:   map[string]string{"createdAt": "created", "expiresAt": "expires"},
	hides:   map[string]string{"projectId": "project"},
	summary: []string{"status", "projectId", "region", "expiresAt"},
}

func sessionColumns() []vtable.Column {
	return []vtable.Column{
		// Width 19 is a whole session id (sess_ + 14): the id is what on-call
		// copies and searches for, so the minimum never cuts one.
		{Key: "session", Title: "SESSION", Width: 19, Fit: true, Priority: 10},
		{Key: "status", Title: "STATUS", Width: 9, Priority: 9},
		{Key: "internal", Title: "INTERNAL", Width: 12, Priority: 4},
		{Key: "project", Title: "PROJECT", Width: 10, Fit: true, Priority: 6},
		{Key: "created", Title: "CREATED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "expires", Title: "EXPIRES", Width: 9, Priority: 8, Relative: Relative},
		{Key: "region", Title: "REGION", Width: 9, Priority: 2},
		{Key: "keepalive", Title: "KEEP", Width: 4, Priority: 1},
		{Key: "retries", Title: "RETRY", Width: 5, Align: vtable.Right, Priority: 3, Whole: true},
	}
}

// SessionListAttrs are what sessionRow reads: the Sessions list reads
// only these (whole.go), not the event histories and secrets. (Exported
// for the start-up benchmark's bare program, which reads the same.)
var SessionListAttrs = []string{"sessionId", "status", "internalStatus", "projectId", "createdAt", "expiresAt", "region", "keepAlive", "retryCount"}

func sessionRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	s, ok := r.(data.Session)
	if !ok {
		r = s // anything else is shown as an empty session
	}
	status := s.SDKStatus
	if status == "" {
		status = s.Status // unknown value: show what is stored
	}
	keep := ""
	if s.KeepAlive {
		keep = "yes"
	}
	expires, tag := timeCellOf(s.Meta, "expiresAt", s.ExpiresAt, now, th), ""
	// A session still RUNNING past its expiry is what on-call looks for.
	if status == data.SessionRunning && !s.ExpiresAt.IsZero() && s.ExpiresAt.Before(now) {
		tag, expires = "!", restyle(expires, errorCell("", th))
	}
	// r, not s: s would be copied into a new interface value, a 648-byte
	// allocation for every row of a load-all.
	if tag == "" && troubleOf(r, now) {
		// Expiring within the overview's window.
		tag, expires = "!", restyle(expires, warnCell("", th))
	}
	return vtable.Row{Tag: tag, Cells: []vtable.Cell{
		{Text: s.SessionID},
		statusCell(status, th),
		{Text: s.InternalStatus},
		{Text: s.ProjectID},
		timeCell(s.CreatedAt, now),
		expires,
		{Text: s.Region},
		{Text: keep},
		numCell(s.RetryCount),
	}}
}

var apiKeysPresenter = presenter{
	table: data.TableAPIKeys, kind: "API keys", pane: PaneSessions,
	columns: apiKeyColumns, row: apiKeyRow,
	summary: []string{"name", "status", "projectId"},
}

func apiKeyColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "key", Title: "KEY", Width: 14, Fit: true, Priority: 10},
		{Key: "name", Title: "NAME", Width: 10, Fit: true, Priority: 6},
		{Key: "status", Title: "STATUS", Width: 8, Priority: 9},
		{Key: "projects", Title: "PROJECTS", Width: 8, Align: vtable.Right, Priority: 4, Whole: true},
		{Key: "created", Title: "CREATED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "lastused", Title: "LAST USED", Width: 9, Priority: 8, Relative: Relative},
	}
}

func apiKeyRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	k, _ := r.(data.APIKey)
	return vtable.Row{Cells: []vtable.Cell{
		{Text: k.ID()},
		{Text: k.Name},
		statusCell(k.Status, th),
		intCell(int64(1 + len(k.ProjectIDs))),
		timeCell(k.CreatedAt, now),
		timeCell(k.LastUsedAt, now),
	}}
}

var contextsPresenter = presenter{
	table: data.TableContexts, kind: "contexts", pane: PaneSessions,
	columns: contextColumns, row: contextRow,
	hides:   map[string]string{"projectId": "project"},
	summary: []string{"status", "projectId"},
}

func contextColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "context", Title: "CONTEXT", Width: 14, Fit: true, Priority: 10},
		{Key: "status", Title: "STATUS", Width: 8, Priority: 9},
		{Key: "project", Title: "PROJECT", Width: 10, Fit: true, Priority: 6},
		{Key: "storage", Title: "STORAGE KEY", Width: 12, Fit: true, Priority: 4},
		{Key: "updated", Title: "UPDATED", Width: 9, Priority: 7, Relative: Relative},
	}
}

func contextRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	c, _ := r.(data.BrowserContext)
	return vtable.Row{Cells: []vtable.Cell{
		{Text: c.ContextID},
		statusCell(c.Status, th),
		{Text: c.ProjectID},
		{Text: c.StorageKey},
		timeCell(c.UpdatedAt, now),
	}}
}

func init() {
	registerPresenter(sessionsPresenter, apiKeysPresenter, contextsPresenter)
}

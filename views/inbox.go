package views

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Inbox lists one user's Zapier trigger events, newest first, narrowed by an
// event-type prefix or a status prefix through the matching GSI — never by
// filtering everything on the client.
type Inbox struct {
	base
	user, typePrefix, statusPrefix string
	terms                          []string // comparison terms (terms_panes.go)
}

// Every index the Inbox reads ends its sort key in the timestamp and is
// read newest first: AGE is the natural order of each.
var eventsPresenter = presenter{
	table: data.TableEvents, kind: "events", pane: PaneInbox,
	columns: eventColumns, row: eventRow,
	order: map[string]string{
		data.AttrEventSortKey: "age", data.AttrEventTypeKey: "age", data.AttrEventStatusKey: "age",
	},
	summary: []string{"event_type", "status", "retry_count"},
}

func eventColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "event", Title: "EVENT", Width: 12, Fit: true, Priority: 10},
		{Key: "type", Title: "TYPE", Width: 12, Fit: true, Priority: 9},
		{Key: "status", Title: "STATUS", Width: 9, Priority: 9},
		{Key: "age", Title: "AGE", Width: 9, Priority: 8, Relative: Relative},
		{Key: "retries", Title: "RETRY", Width: 5, Align: vtable.Right, Priority: 7, Whole: true},
		{Key: "lastretry", Title: "LAST RETRY", Width: 10, Priority: 3, Relative: Relative},
		{Key: "ttl", Title: "EXPIRES", Width: 9, Priority: 4, Relative: Relative},
	}
}

func eventRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	e, _ := r.(data.Event)
	retries, tag := numCell(e.RetryCount), ""
	if troubleOf(e, now) {
		// Failed with its retries exhausted.
		retries, tag = restyle(retries, errorCell("", th)), "!"
	}
	return vtable.Row{Tag: tag, Cells: []vtable.Cell{
		{Text: e.ID()},
		{Text: e.EventType},
		statusCell(e.Status, th),
		timeCell(e.Timestamp, now),
		retries,
		timeCell(e.LastRetryAt, now),
		timeCellOf(e.Meta, "ttl", e.TTL, now, th),
	}}
}

// NewInbox builds the pane; without a user it waits for :inbox.
func NewInbox(c *Context, userID, typePrefix, statusPrefix string) *Inbox {
	p := &Inbox{base: base{ctx: c, id: PaneInbox}}
	p.lists = []*list{newList(c, PaneInbox, eventsPresenter)}
	p.lists[0].hint = "no user selected — :inbox <userId> [type=<prefix>] [status=<prefix>]"
	if userID != "" {
		p.scope(userID, typePrefix, statusPrefix)
	}
	return p
}

func (p *Inbox) scope(userID, typePrefix, statusPrefix string) {
	p.scopeWhere(userID, typePrefix, statusPrefix, nil, data.EventsFor(userID, typePrefix, statusPrefix))
}

// scopeWhere sets the scope sc, built from the other arguments (terms
// included).
func (p *Inbox) scopeWhere(userID, typePrefix, statusPrefix string, terms []string, sc data.Scope) {
	p.user, p.typePrefix, p.statusPrefix, p.terms = userID, typePrefix, statusPrefix, terms
	// One store call chooses the index exactly as data.EventsFor describes
	// the scope (type → EventTypeIndex, with the status prefix as a
	// server-side FilterExpression; status alone → StatusIndex), so the
	// live tail's Matches and the query agree, and no row is ever narrowed
	// client-side.
	p.setScope(0, sc, nil)
}

// Show lists a user's events, optionally narrowed by prefixes and by
// comparison terms (a server-side filter).
func (p *Inbox) Show(userID, typePrefix, statusPrefix string, terms []string) tea.Cmd {
	sc, err := withTerms(data.EventsFor(userID, typePrefix, statusPrefix), terms, p.ctx)
	if err != nil {
		p.refuseTerms(":inbox", err)
		return nil
	}
	p.scopeWhere(userID, typePrefix, statusPrefix, terms, sc)
	return p.reload()
}

func (p *Inbox) Title() string {
	if t := p.lookupTitle(); t != "" {
		return t
	}
	if t, ok := p.scopedTitle("Inbox"); ok {
		return t
	}
	if p.user == "" {
		return "Inbox"
	}
	t := "Inbox · user " + p.user
	if p.typePrefix != "" {
		t += " · type " + data.PrefixLabel(p.typePrefix)
	}
	if p.statusPrefix != "" {
		t += " · status " + data.PrefixLabel(p.statusPrefix)
	}
	return t + termsLabel(p.terms)
}

// User is the user in scope.
func (p *Inbox) User() string { return p.user }

// PaneInbox lists one user's events of Zapier Triggers.
const PaneInbox PaneID = "inbox"

// eventStatuses are the documented event states.
var eventStatuses = []string{"received", "delivered", "failed", "retrying"}

func inboxPane() PaneSpec {
	return PaneSpec{
		ID: PaneInbox, Name: "Inbox", Short: "Inbox", DefaultKey: "3",
		New: func(c *Context, s Scopes) Pane { return NewInbox(c, s.InboxUser, s.InboxType, s.InboxStatus) },
		Commands: []CommandSpec{{
			// Both options may be given: the type prefix selects
			// EventTypeIndex and the status prefix then becomes a filter.
			Name: "inbox", Usage: ":inbox <userId> [type=<pfx>] [status=<pfx>] [terms]", Arg: ArgRequired,
			Terms: true, TermsTable: data.TableEvents,
			Opts: []OptSpec{{Key: "type", Seen: data.KindEventType}, {Key: "status", Values: eventStatuses}},
			Seen: data.KindInboxUser,
			Complete: func(p Pane) []string {
				if u := p.(*Inbox).User(); u != "" {
					return []string{u}
				}
				return nil
			},
			Run: func(p Pane, a Args) tea.Cmd {
				return p.(*Inbox).Show(a.Arg, a.Opt("type"), a.Opt("status"), a.TermList())
			},
		}, {
			// A whole sort key is the document's GetItem; an event id
			// alone is looked for in the user's partition.
			Name: "event", Usage: ":event <userId> <sortKey|eventId>", Arg: ArgRequired, Arg2: ArgRequired,
			Complete: func(p Pane) []string {
				if u := p.(*Inbox).User(); u != "" {
					return []string{u}
				}
				return nil
			},
			Complete2: func(p Pane) []string { return p.(*Inbox).Values(data.TableEvents, data.AttrEventID, completeMax) },
			Run:       func(p Pane, a Args) tea.Cmd { return p.(*Inbox).ShowEvent(a.Arg, a.Arg2) },
		}},
	}
}

// ShowEvent is `:event <userId> <sortKey or eventId>`: a whole sort key is
// the document's GetItem (Pattern 2); an event id alone is found in the
// user's partition, newest first, read on until it shows
// (data.EventLookup).
func (p *Inbox) ShowEvent(userID, keyOrID string) tea.Cmd {
	p.user, p.typePrefix, p.statusPrefix = userID, "", ""
	s := data.EventLookup(userID, keyOrID)
	missing := "no event " + keyOrID + " for user " + userID
	if s.IsGet() {
		missing = "no event with key " + keyOrID + " for user " + userID
	}
	return p.lookup(0, s, "Inbox · user "+userID+" · event "+keyOrID, missing)
}

func init() {
	registerPresenter(eventsPresenter)
	registerPane(30, inboxPane)
}

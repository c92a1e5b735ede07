package views

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/data/secret"
)

// Lookups by id: the command line's way to one item (or the few records
// under one key) of any table, each read through the scope its document
// names (its service's file, data/svc_*.go) and shown in the pane that owns the table.
// The looked-up list keeps its lookup title until another scope replaces
// it, and an id that is not there says so in the words of its table.

// completeMax bounds the values one command's completion offers from
// the rows shown.
const completeMax = 50

// shownValues are the values of attr in the rows shown, whichever table
// they are of (a project id is in sessions, API keys, contexts and
// projects alike), for completion.
func (b *base) shownValues(attr string) []string {
	return b.Values(b.active().scope.Table, attr, completeMax)
}

// lookup points list i of the pane at scope s, shown, titled and with the
// empty table's text for an id not found, and starts its read. A lookup
// narrowed by a filter term (an event by its id alone) reads on through
// empty pages until its item shows or the partition ends: the operator
// asked for that one item, and sees the wait and can cancel it.
func (b *base) lookup(i int, s data.Scope, title, missing string) tea.Cmd {
	b.setScope(i, s, nil)
	l := b.lists[i]
	l.title, l.missing = title, missing
	l.seek = s.Filter[0].Attr != ""
	l.refreshEmpty()
	return b.reload()
}

// lookupTitle is the title of the list shown when a lookup filled it, ""
// otherwise (an explicit scan's result is never a lookup).
func (b *base) lookupTitle() string {
	if b.scan != nil {
		return ""
	}
	return b.lists[b.cur].title
}

// ShowProjectRecord is `:project <projectId>`: the project's own record
// (GetItem on wallcrawler-projects) in the project sub-view, with the
// project in scope for the other sub-views and the quota header, as
// `:sessions <projectId>` would have it.
func (p *Sessions) ShowProjectRecord(projectID string) tea.Cmd {
	p.scopeProject(projectID)
	return tea.Batch(
		p.lookup(subProject, data.ProjectByID(projectID), "Project · "+projectID, "no project with id "+projectID),
		p.loadQuota())
}

// ShowAPIKey is `:apikey <apiKeyHash>`: one API key by its primary key
// (GetItem). No project is in scope: the key's own projectId says which.
// A raw key typed in place of the hash is looked up by its hash
// (data.APIKeyLookup) and shown only as the mask.
func (p *Sessions) ShowAPIKey(hashOrKey string) tea.Cmd {
	p.unscope()
	s, hashed := data.APIKeyLookup(hashOrKey)
	if hashed {
		return p.lookup(subAPIKeys, s, "API keys · key "+secret.Mask+" (by its SHA-256 "+s.PKValue+")",
			"no API key with the hash of the key typed ("+s.PKValue+")")
	}
	return p.lookup(subAPIKeys, s, "API keys · key "+hashOrKey, "no API key with hash "+hashOrKey)
}

// ShowContext is `:context <contextId>`: one browser context (GetItem).
func (p *Sessions) ShowContext(contextID string) tea.Cmd {
	p.unscope()
	return p.lookup(subContexts, data.ContextByID(contextID), "Contexts · context "+contextID, "no browser context with id "+contextID)
}

// unscope leaves the Sessions pane with no project, status or session in
// scope: every sub-view shows its hint until a lookup fills one.
func (p *Sessions) unscope() {
	p.project, p.status, p.sessionID = "", "", ""
	p.resetQuota(p.quota.gen)
	for _, l := range p.lists {
		l.clearScope()
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

// ShowDelegation is `:delegation <link>`: one delegation by its CID
// (GetItem).
func (p *Delegations) ShowDelegation(link string) tea.Cmd {
	return p.lookup(subDelegations, data.DelegationByLink(link), "Delegation · "+link, "no delegation with link "+link)
}

// ShowCustomerSubscriptions is `:subscriptions <customer>
// [provider=<did>]` (the customer index; with a provider, its sort key by
// equality — the query the service runs) and `:subscriptions
// provider=<did>` (the provider index).
func (p *Delegations) ShowCustomerSubscriptions(customer, provider string) tea.Cmd {
	switch {
	case customer == "" && provider == "":
		return nil
	case customer == "":
		s := data.SubscriptionsByProvider(provider)
		return p.lookup(subSubscriptions, s, "Subscriptions · "+s.Label, "no subscriptions with provider "+provider)
	case provider == "":
		return p.ShowSubscriptions(customer)
	}
	p.customer = customer
	s := data.SubscriptionsByCustomerProvider(customer, provider)
	return p.lookup(subSubscriptions, s, "Subscriptions · "+s.Label, "no subscriptions of customer "+customer+" with provider "+provider)
}

// ShowSubscription is `:subscription <subscription>`: its records, one per
// provider, by the base table's partition key — who the customer is.
func (p *Delegations) ShowSubscription(subscription string) tea.Cmd {
	return p.lookup(subSubscriptions, data.SubscriptionByID(subscription), "Subscription · "+subscription, "no subscription "+subscription)
}

// ShowProviderConsumers is `:consumers provider=<did>`: a provider's
// consumers (the provider index).
func (p *Delegations) ShowProviderConsumers(provider string) tea.Cmd {
	s := data.ConsumersByProvider(provider)
	return p.lookup(subConsumers, s, "Consumers · "+s.Label, "no consumers with provider "+provider)
}

// ShowSandbox is `:sandbox <sandbox_id>`: one sandbox (GetItem on PK
// "SBX#<id>", SK "META").
func (p *Sandboxes) ShowSandbox(sandboxID string) tea.Cmd {
	return p.lookup(0, data.SandboxByID(sandboxID), "Sandbox · "+sandboxID, "no sandbox with id "+sandboxID)
}

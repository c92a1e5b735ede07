package views

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/vtable"
)

// Sub-views of the Delegations pane, one per w3infra table.
const (
	subDelegations = iota
	subSubscriptions
	subConsumers
)

// Delegations shows the w3infra tables: delegations by audience,
// subscriptions by customer, consumers by consumer. An expired delegation is
// marked "!" and dimmed, and its EXPIRES cell says "expired …".
type Delegations struct {
	base
	audience, customer, consumer string
}

var delegationsPresenter = presenter{
	table: data.TableDelegations, kind: "delegations", pane: PaneDelegations,
	columns: delegationColumns, row: delegationRow,
	hides:   map[string]string{"audience": "audience"},
	summary: []string{"audience", "issuer", "expiration"},
}

func delegationColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "link", Title: "LINK", Width: 16, Fit: true, Priority: 10},
		{Key: "issuer", Title: "ISSUER", Width: 12, Fit: true, Priority: 7},
		{Key: "audience", Title: "AUDIENCE", Width: 12, Fit: true, Priority: 3},
		{Key: "expires", Title: "EXPIRES", Width: 16, Priority: 9, Clocked: true},
		{Key: "inserted", Title: "INSERTED", Width: 9, Priority: 6, Relative: Relative},
		{Key: "cause", Title: "CAUSE", Width: 10, Fit: true, Priority: 2},
	}
}

func delegationRow(r data.Record, now time.Time, th themes.Theme) vtable.Row {
	g, _ := r.(data.Delegation)
	exp := Relative(g.Expiration, now)
	expCell := timeKey(vtable.Cell{Text: exp}, g.Expiration)
	switch {
	case g.Expiration.IsZero() && g.Unreadable("expiration"):
		// Stored, but not a time: that is not "never".
		expCell = warnCell("unreadable", th).SortLast()
	case g.Expiration.IsZero():
		expCell = vtable.Cell{Text: "never"}.SortLast() // sorts last, as unreadable does
	}
	row := vtable.Row{}
	if g.Expired(now) {
		row.Tag, row.Dim = "!", true
		expCell = timeKey(errorCell("expired "+exp, th), g.Expiration)
	}
	row.Cells = []vtable.Cell{
		{Text: g.Link},
		{Text: g.Issuer},
		{Text: g.Audience},
		expCell,
		timeCell(g.InsertedAt, now),
		{Text: g.Cause},
	}
	return row
}

var subscriptionsPresenter = presenter{
	table: data.TableSubscriptions, kind: "subscriptions", pane: PaneDelegations,
	columns: subscriptionColumns, row: subscriptionRow,
	hides:   map[string]string{"customer": "customer", "provider": "provider"},
	summary: []string{"customer", "provider"},
}

func subscriptionColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "subscription", Title: "SUBSCRIPTION", Width: 16, Fit: true, Priority: 10},
		{Key: "provider", Title: "PROVIDER", Width: 12, Fit: true, Priority: 9},
		{Key: "customer", Title: "CUSTOMER", Width: 12, Fit: true, Priority: 4},
		{Key: "inserted", Title: "INSERTED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "cause", Title: "CAUSE", Width: 10, Fit: true, Priority: 3},
	}
}

func subscriptionRow(r data.Record, now time.Time, _ themes.Theme) vtable.Row {
	s, _ := r.(data.Subscription)
	return vtable.Row{Cells: []vtable.Cell{
		{Text: s.Subscription}, {Text: s.Provider}, {Text: s.Customer},
		timeCell(s.InsertedAt, now), {Text: s.Cause},
	}}
}

var consumersPresenter = presenter{
	table: data.TableConsumers, kind: "consumers", pane: PaneDelegations,
	columns: consumerColumns, row: consumerRow,
	hides:   map[string]string{"provider": "provider"},
	summary: []string{"consumer", "provider"},
}

func consumerColumns() []vtable.Column {
	return []vtable.Column{
		{Key: "consumer", Title: "CONSUMER", Width: 16, Fit: true, Priority: 5},
		{Key: "provider", Title: "PROVIDER", Width: 12, Fit: true, Priority: 9},
		{Key: "subscription", Title: "SUBSCRIPTION", Width: 14, Fit: true, Priority: 10},
		{Key: "inserted", Title: "INSERTED", Width: 9, Priority: 7, Relative: Relative},
		{Key: "cause", Title: "CAUSE", Width: 10, Fit: true, Priority: 3},
	}
}

func consumerRow(r data.Record, now time.Time, _ themes.Theme) vtable.Row {
	c, _ := r.(data.Consumer)
	return vtable.Row{Cells: []vtable.Cell{
		{Text: c.Consumer}, {Text: c.Provider}, {Text: c.Subscription},
		timeCell(c.InsertedAt, now), {Text: c.Cause},
	}}
}

// NewDelegations builds the pane. Each sub-view gets its scope when given;
// the first one given is shown.
func NewDelegations(c *Context, audience, customer, consumer string) *Delegations {
	p := &Delegations{base: base{ctx: c, id: PaneDelegations}}
	p.lists = []*list{
		newList(c, PaneDelegations, delegationsPresenter),
		newList(c, PaneDelegations, subscriptionsPresenter),
		newList(c, PaneDelegations, consumersPresenter),
	}
	p.lists[subDelegations].hint = "no audience selected — :delegations <audience DID>"
	p.lists[subSubscriptions].hint = "no customer selected — :subscriptions <customer DID>"
	p.lists[subConsumers].hint = "no consumer selected — :consumers <consumer DID>"
	show := -1
	if consumer != "" {
		p.scopeConsumers(consumer)
		show = subConsumers
	}
	if customer != "" {
		p.scopeSubscriptions(customer)
		show = subSubscriptions
	}
	if audience != "" || show < 0 {
		show = subDelegations
		if audience != "" {
			p.scopeDelegations(audience)
		}
	}
	p.cur = show
	return p
}

func (p *Delegations) scopeDelegations(audience string) {
	p.audience = audience
	a := audience
	p.setScope(subDelegations, data.DelegationsByAudience(a), nil)
}

func (p *Delegations) scopeSubscriptions(customer string) {
	p.customer = customer
	c := customer
	p.setScope(subSubscriptions, data.SubscriptionsByCustomer(c), nil)
}

func (p *Delegations) scopeConsumers(consumer string) {
	p.consumer = consumer
	c := consumer
	p.setScope(subConsumers, data.ConsumersByConsumer(c), nil)
}

// ShowDelegations lists delegations to an audience.
func (p *Delegations) ShowDelegations(audience string) tea.Cmd {
	p.scopeDelegations(audience)
	return p.reload()
}

// ShowSubscriptions lists a customer's subscriptions.
func (p *Delegations) ShowSubscriptions(customer string) tea.Cmd {
	p.scopeSubscriptions(customer)
	return p.reload()
}

// ShowConsumers lists a consumer's providers.
func (p *Delegations) ShowConsumers(consumer string) tea.Cmd {
	p.scopeConsumers(consumer)
	return p.reload()
}

func (p *Delegations) Title() string {
	if t := p.lookupTitle(); t != "" {
		return t
	}
	if t, ok := p.scopedTitle([]string{"Delegations", "Subscriptions", "Consumers"}[p.cur]); ok {
		return t
	}
	switch p.cur {
	case subSubscriptions:
		if p.customer != "" {
			return "Subscriptions · customer " + p.customer
		}
		return "Subscriptions"
	case subConsumers:
		if p.consumer != "" {
			return "Consumers · consumer " + p.consumer
		}
		return "Consumers"
	}
	if p.audience != "" {
		return "Delegations · audience " + p.audience + " (read-only: revocation is a UCAN invocation)"
	}
	return "Delegations"
}

// Values are the distinct string values of attr in the rows of the list
// shown, when it lists table (a query or a scan), at most limit of them:
// command completion offers them, so a DID that cannot be typed (a bidi
// override, an escape sequence) can still be asked for.
func (b *base) Values(table data.TableID, attr string, limit int) []string {
	l := b.active()
	if l.scope.Table != table {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	l.eachItem(func(it data.Item) bool {
		if v, ok := it[attr].(*types.AttributeValueMemberS); ok && v.Value != "" && !seen[v.Value] {
			seen[v.Value] = true
			out = append(out, v.Value)
		}
		return len(out) < limit
	})
	return out
}

// PaneDelegations lists w3infra's delegations, subscriptions and consumers.
const PaneDelegations PaneID = "delegations"

func delegationsPane() PaneSpec {
	values := func(t data.TableID, attr string) func(Pane) []string {
		return func(p Pane) []string { return p.(*Delegations).Values(t, attr, completeMax) }
	}
	return PaneSpec{
		ID: PaneDelegations, Name: "Delegations", Short: "Deleg", DefaultKey: "4",
		New: func(c *Context, s Scopes) Pane { return NewDelegations(c, s.Audience, s.Customer, s.Consumer) },
		Commands: []CommandSpec{
			{
				Name: "delegations", Usage: ":delegations <audience>", Arg: ArgRequired,
				Complete: values(data.TableDelegations, "audience"), Seen: data.KindAudience,
				Run: func(p Pane, a Args) tea.Cmd { return p.(*Delegations).ShowDelegations(a.Arg) },
			},
			{
				Name: "delegation", Usage: ":delegation <link>", Arg: ArgRequired,
				Complete: values(data.TableDelegations, "link"),
				Run:      func(p Pane, a Args) tea.Cmd { return p.(*Delegations).ShowDelegation(a.Arg) },
			},
			{
				// The customer and provider together are the query the
				// service runs; either alone reads its own index.
				Name: "subscriptions", Usage: ":subscriptions [customer] [provider=<did>]", Arg: ArgOptional,
				Opts: []OptSpec{{Key: "provider"}}, ArgOrOptNeeded: true,
				Complete: values(data.TableSubscriptions, "customer"), Seen: data.KindCustomer,
				Run: func(p Pane, a Args) tea.Cmd {
					return p.(*Delegations).ShowCustomerSubscriptions(a.Arg, a.Opt("provider"))
				},
			},
			{
				Name: "subscription", Usage: ":subscription <subscription>", Arg: ArgRequired,
				Complete: values(data.TableSubscriptions, "subscription"),
				Run:      func(p Pane, a Args) tea.Cmd { return p.(*Delegations).ShowSubscription(a.Arg) },
			},
			{
				Name: "consumers", Usage: ":consumers <consumer>|provider=<did>", Arg: ArgOptional,
				Opts: []OptSpec{{Key: "provider"}}, ArgOrOpt: "a consumer", ArgOrOptNeeded: true,
				Complete: values(data.TableConsumers, "consumer"), Seen: data.KindConsumer,
				Run: func(p Pane, a Args) tea.Cmd {
					if pr := a.Opt("provider"); pr != "" {
						return p.(*Delegations).ShowProviderConsumers(pr)
					}
					return p.(*Delegations).ShowConsumers(a.Arg)
				},
			},
		},
	}
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

func init() {
	registerPresenter(delegationsPresenter, subscriptionsPresenter, consumersPresenter)
	registerPane(40, delegationsPane)
}

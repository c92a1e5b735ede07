package data

import "time"

// Delegation is one w3infra `delegation` item (a UCAN delegation, keyed by
// its CID).
type Delegation struct {
	Meta
	Link       string // delegation CID, the partition key
	Cause      string // CID of the invocation that stored it
	Audience   string
	Issuer     string
	Expiration time.Time // unix seconds; zero when absent
	InsertedAt time.Time
	UpdatedAt  time.Time
}

// DecodeDelegation reads a delegation item. It never panics.
func DecodeDelegation(item Item) Delegation {
	d := newDecoder(TableDelegations, item)
	g := Delegation{
		Link:       d.str("link", true),
		Cause:      d.str("cause", false),
		Audience:   d.str("audience", true),
		Issuer:     d.str("issuer", false),
		Expiration: d.timeAttr("expiration", "N", false),
		InsertedAt: d.timeAttr("insertedAt", "S", false),
		UpdatedAt:  d.timeAttr("updatedAt", "S", false),
	}
	g.Meta = d.finish()
	return g
}

// Expired reports whether the delegation's expiration has passed. A
// delegation without an expiration never expires.
func (g Delegation) Expired(now time.Time) bool {
	return !g.Expiration.IsZero() && !now.Before(g.Expiration)
}

func (Delegation) Table() TableID { return TableDelegations }
func (g Delegation) Key() Item    { return KeyOf(TableDelegations, g.Raw) }
func (g Delegation) ID() string   { return g.Link }

// Subscription is one w3infra `subscription` item.
type Subscription struct {
	Meta
	Subscription string // partition key
	Provider     string // sort key
	Cause        string
	Customer     string
	InsertedAt   time.Time
	UpdatedAt    time.Time
}

// DecodeSubscription reads a subscription item. It never panics.
func DecodeSubscription(item Item) Subscription {
	d := newDecoder(TableSubscriptions, item)
	s := Subscription{
		Subscription: d.str("subscription", true),
		Provider:     d.str("provider", true),
		Cause:        d.str("cause", false),
		Customer:     d.str("customer", true),
		InsertedAt:   d.timeAttr("insertedAt", "S", false),
		UpdatedAt:    d.timeAttr("updatedAt", "S", false),
	}
	s.Meta = d.finish()
	return s
}

func (Subscription) Table() TableID { return TableSubscriptions }
func (s Subscription) Key() Item    { return KeyOf(TableSubscriptions, s.Raw) }
func (s Subscription) ID() string   { return s.Subscription + " @ " + s.Provider }

// Consumer is one w3infra `consumer` item (a space consuming a provider).
type Consumer struct {
	Meta
	Subscription string // partition key
	Provider     string // sort key
	Cause        string
	Consumer     string
	InsertedAt   time.Time
	UpdatedAt    time.Time
}

// DecodeConsumer reads a consumer item. It never panics.
func DecodeConsumer(item Item) Consumer {
	d := newDecoder(TableConsumers, item)
	c := Consumer{
		Subscription: d.str("subscription", true),
		Provider:     d.str("provider", true),
		Cause:        d.str("cause", false),
		Consumer:     d.str("consumer", true),
		InsertedAt:   d.timeAttr("insertedAt", "S", false),
		UpdatedAt:    d.timeAttr("updatedAt", "S", false),
	}
	c.Meta = d.finish()
	return c
}

func (Consumer) Table() TableID { return TableConsumers }
func (c Consumer) Key() Item    { return KeyOf(TableConsumers, c.Raw) }
func (c Consumer) ID() string   { return c.Consumer + " @ " + c.Provider }

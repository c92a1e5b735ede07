package data

// w3infra: UCAN delegations, subscriptions and consumers, declared whole
// here (see Descriptor).

const (
	TableDelegations   TableID = "delegations"
	TableSubscriptions TableID = "subscriptions"
	TableConsumers     TableID = "consumers"
)

// Index names, as the service created them.
const (
	IndexDelegationsByAudience   = "audience"
	IndexSubscriptionsByCustomer = "customer"
	IndexSubscriptionsByProvider = "provider"
	IndexConsumersByConsumer     = "consumer"
	IndexConsumersByProvider     = "provider"
)

// The ids w3infra's commands take.
const (
	KindAudience IDKind = "audience" // :delegations <audience>
	KindCustomer IDKind = "customer" // :subscriptions <customer>
	KindConsumer IDKind = "consumer" // :consumers <consumer>
)

func init() {
	Register(Descriptor{
		Order: 40,
		Schema: TableSchema{
			ID:           TableDelegations,
			Service:      "w3infra",
			NameTemplate: "delegation",
			PK:           KeyAttr{"link", TypeS},
			Attrs: map[string]string{
				"cause": "S", "link": "S", "audience": "S", "issuer": "S",
				"expiration": "N", "insertedAt": "S", "updatedAt": "S",
			},
			Indexes: []Index{
				{Name: IndexDelegationsByAudience, PK: KeyAttr{"audience", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"link"}}},
			},
		},
		Decode: func(it Item) Record { return DecodeDelegation(it) },
		Epoch:  map[string]EpochUnit{"expiration": EpochSeconds},
		IDs:    []IDAttr{{Kind: KindAudience, Attr: "audience"}},
	})
	Register(Descriptor{
		Order: 41,
		Schema: TableSchema{
			ID:           TableSubscriptions,
			Service:      "w3infra",
			NameTemplate: "subscription",
			PK:           KeyAttr{"subscription", TypeS},
			SK:           sk("provider", TypeS),
			Attrs: map[string]string{
				"subscription": "S", "provider": "S", "cause": "S", "customer": "S",
				"insertedAt": "S", "updatedAt": "S",
			},
			Indexes: []Index{
				{Name: IndexSubscriptionsByCustomer, PK: KeyAttr{"customer", TypeS}, SK: sk("provider", TypeS), Projection: Projection{Type: ProjectInclude, NonKey: []string{"cause", "subscription"}}},
				{Name: IndexSubscriptionsByProvider, PK: KeyAttr{"provider", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"customer"}}},
			},
		},
		Decode: func(it Item) Record { return DecodeSubscription(it) },
		IDs:    []IDAttr{{Kind: KindCustomer, Attr: "customer"}},
	})
	Register(Descriptor{
		Order: 42,
		Schema: TableSchema{
			ID:           TableConsumers,
			Service:      "w3infra",
			NameTemplate: "consumer",
			PK:           KeyAttr{"subscription", TypeS},
			SK:           sk("provider", TypeS),
			Attrs: map[string]string{
				"subscription": "S", "provider": "S", "cause": "S", "consumer": "S",
				"insertedAt": "S", "updatedAt": "S",
			},
			Indexes: []Index{
				{Name: IndexConsumersByConsumer, PK: KeyAttr{"consumer", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"provider", "subscription"}}},
				{Name: IndexConsumersByProvider, PK: KeyAttr{"provider", TypeS}, Projection: Projection{Type: ProjectInclude, NonKey: []string{"consumer"}}},
			},
		},
		Decode: func(it Item) Record { return DecodeConsumer(it) },
		IDs:    []IDAttr{{Kind: KindConsumer, Attr: "consumer"}},
	})
}

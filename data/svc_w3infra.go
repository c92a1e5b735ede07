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

// The access patterns: one scope constructor per query the console
// reads the service's tables by (and the Overview's counts).

// DelegationsByAudience: delegations to an audience (index audience,
// INCLUDE [link]: completed with BatchGetItem). No sort key: DynamoDB's
// order, stable but not meaningful.
func DelegationsByAudience(audience string) Scope {
	return labelled(indexScope(TableDelegations, IndexDelegationsByAudience, audience, ""), "audience "+audience)
}

// DelegationByLink: one delegation by its CID (GetItem).
func DelegationByLink(link string) Scope {
	return labelled(getScope(TableDelegations, link, ""), "delegation "+link)
}

// SubscriptionsByCustomer: a customer's subscriptions, by provider (index
// customer, INCLUDE: completed).
func SubscriptionsByCustomer(customer string) Scope {
	return SubscriptionsByCustomerProvider(customer, "")
}

// SubscriptionsByCustomerProvider: the customer index narrowed to one
// provider by its sort key (the query the service runs); an empty provider
// is every provider.
func SubscriptionsByCustomerProvider(customer, provider string) Scope {
	s := indexScope(TableSubscriptions, IndexSubscriptionsByCustomer, customer, "")
	label := "customer " + customer
	if provider != "" {
		s.SKOp, s.SKValue = SKEqual, provider
		label += " · provider " + provider
	}
	return labelled(s, label)
}

// SubscriptionsByProvider: a provider's subscriptions (index provider).
func SubscriptionsByProvider(provider string) Scope {
	return labelled(indexScope(TableSubscriptions, IndexSubscriptionsByProvider, provider, ""), "provider "+provider)
}

// SubscriptionByID: the records of one subscription key, one per provider
// (a Query on the base table by its partition key, the provider being the
// sort key): the document's provisional "find the customer of a given
// subscription".
func SubscriptionByID(subscription string) Scope {
	return labelled(baseScope(TableSubscriptions, subscription, ""), "subscription "+subscription)
}

// SubscriptionByKey: one subscription (GetItem).
func SubscriptionByKey(subscription, provider string) Scope {
	return labelled(getScope(TableSubscriptions, subscription, provider), "subscription "+subscription)
}

// ConsumersByConsumer: the providers a consumer (space) uses (index
// consumer, INCLUDE: completed).
func ConsumersByConsumer(consumer string) Scope {
	return labelled(indexScope(TableConsumers, IndexConsumersByConsumer, consumer, ""), "consumer "+consumer)
}

// ConsumersByProvider: a provider's consumers (index provider).
func ConsumersByProvider(provider string) Scope {
	return labelled(indexScope(TableConsumers, IndexConsumersByProvider, provider, ""), "provider "+provider)
}

// ConsumerByKey: one consumer record (GetItem).
func ConsumerByKey(subscription, provider string) Scope {
	return labelled(getScope(TableConsumers, subscription, provider), "consumer "+subscription)
}

package data

import "time"

// Zapier Triggers: the events table, declared whole here (see Descriptor).

const TableEvents TableID = "events"

// Index names, as the service created them.
const (
	IndexEventsByType   = "EventTypeIndex"
	IndexEventsByStatus = "StatusIndex"
)

// The ids the inbox's commands take.
const (
	KindInboxUser IDKind = "inbox-user" // :inbox <userId>
	KindEventType IDKind = "event-type" // :inbox <userId> type=<prefix>
)

func init() {
	Register(Descriptor{
		Order: 30,
		Schema: TableSchema{
			ID:           TableEvents,
			Service:      "Zapier Triggers",
			NameTemplate: "zapier-triggers-api-{env}-events",
			PK:           KeyAttr{"user_id", TypeS},
			SK:           sk("timestamp#event_id", TypeS),
			Attrs: map[string]string{
				"user_id": "S", "timestamp#event_id": "S", "event_id": "S", "event_type": "S",
				"payload": "M", "status": "S", "timestamp": "S", "ttl": "N", "retry_count": "N",
				"metadata": "M", "event_type#timestamp": "S", "status#timestamp": "S",
				"last_retry_at": "S", AttemptAttr: "S",
			},
			Indexes: []Index{
				{Name: IndexEventsByType, PK: KeyAttr{"user_id", TypeS}, SK: sk("event_type#timestamp", TypeS), Projection: Projection{Type: ProjectAll}},
				{Name: IndexEventsByStatus, PK: KeyAttr{"user_id", TypeS}, SK: sk("status#timestamp", TypeS), Projection: Projection{Type: ProjectAll}},
			},
			Stream:  StreamNewImage,
			TTLAttr: "ttl",
		},
		Decode: func(it Item) Record { return DecodeEvent(it) },
		// A failed event whose retries reached RetryMax: the Overview's
		// exhausted count, row by row.
		Trouble: func(o Trouble, _ time.Time) func(Item) (string, bool) {
			why := "retries exhausted (≥ " + itoaInt(o.RetryMax) + ")"
			return func(it Item) (string, bool) {
				if u := strAttr(it, "user_id"); u != "" && EventsExhausted(u, o.RetryMax).Matches(it) {
					return why, true
				}
				return "", false
			}
		},
		IDs: []IDAttr{{Kind: KindInboxUser, Attr: "user_id"}, {Kind: KindEventType, Attr: "event_type"}},
		Jumps: map[Jump]func(Item) (Scope, string, bool){
			JumpRelated: func(it Item) (Scope, string, bool) {
				if u, t := strAttr(it, "user_id"), strAttr(it, "event_type"); u != "" && t != "" {
					return EventsByType(u, t+"#"), "the user's inbox, this type", true
				}
				return Scope{}, "", false
			},
		},
	})
}

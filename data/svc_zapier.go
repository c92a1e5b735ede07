package data

import (
	"strconv"
	"strings"
	"time"
)

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

// The access patterns: one scope constructor per query the console
// reads the service's tables by (and the Overview's counts).

// EventsByUser: a user's events, newest first (base table).
func EventsByUser(userID string) Scope {
	return EventsFor(userID, "", "")
}

// EventsByType: a user's events whose event_type#timestamp begins with
// typePrefix (EventTypeIndex), newest first. "user.created#" excludes types
// that merely share the prefix ("user.created_v2").
func EventsByType(userID, typePrefix string) Scope {
	return EventsFor(userID, typePrefix, "")
}

// EventsByStatus: a user's events whose status#timestamp begins with
// statusPrefix (StatusIndex), newest first.
func EventsByStatus(userID, statusPrefix string) Scope {
	return EventsFor(userID, "", statusPrefix)
}

// EventsFor is the scope of `:inbox <user> [type=P] [status=P]`: the type
// index when a type prefix is given (the status prefix, if any, becomes a
// filter term on status#timestamp), else the status index, else the table.
// Every one is read newest first.
func EventsFor(userID, typePrefix, statusPrefix string) Scope {
	var s Scope
	switch {
	case typePrefix != "":
		s = indexScope(TableEvents, IndexEventsByType, userID, typePrefix)
		if statusPrefix != "" {
			s.Filter[0] = Cond{Attr: AttrEventStatusKey, Value: statusPrefix, Prefix: true}
		}
	case statusPrefix != "":
		s = indexScope(TableEvents, IndexEventsByStatus, userID, statusPrefix)
	default:
		s = baseScope(TableEvents, userID, "")
	}
	s.NewestFirst = true
	label := "user " + userID
	if typePrefix != "" {
		label += " · type " + PrefixLabel(typePrefix)
	}
	if statusPrefix != "" {
		label += " · status " + PrefixLabel(statusPrefix)
	}
	return labelled(s, label)
}

// PrefixLabel says what a key prefix selects: "user.created#" is exactly
// the type user.created (the "#" ends the type in event_type#timestamp),
// "user." every type that begins so ("user.*").
func PrefixLabel(prefix string) string {
	if t, exact := strings.CutSuffix(prefix, "#"); exact && t != "" {
		return t
	}
	return prefix + "*"
}

// EventByKey: one event by its full key (GetItem, the document's Pattern
// 2).
func EventByKey(userID, sortKey string) Scope {
	return labelled(getScope(TableEvents, userID, sortKey), "event "+sortKey)
}

// EventByID: a user's event by its event_id alone. The sort key is
// "<timestamp>#<event_id>" and no index is keyed by event_id, so without
// the timestamp the event is found by reading the user's partition (the
// document's Pattern 3, newest first) with the filter event_id = id: a
// Query whose pages can come back empty, costing the partition read up to
// the event — never a Scan.
func EventByID(userID, eventID string) Scope {
	s := baseScope(TableEvents, userID, "")
	s.NewestFirst = true
	s.Filter[0] = Cond{Attr: AttrEventID, Value: eventID}
	return labelled(s, "event "+eventID)
}

// EventLookup is `:event <userId> <sortKey or eventId>`: a whole sort key
// (it holds the '#' between timestamp and event id, which a UUID event id
// never does) is a GetItem; anything else is an event id (EventByID).
func EventLookup(userID, keyOrID string) Scope {
	if strings.Contains(keyOrID, eventKeySep) {
		return EventByKey(userID, keyOrID)
	}
	return EventByID(userID, keyOrID)
}

// EventsExhausted: a user's failed events whose retry_count has reached
// retryMax (StatusIndex, status#timestamp begins_with "failed#", filtered
// on the number).
func EventsExhausted(userID string, retryMax int) Scope {
	s := EventsByStatus(userID, EventFailed+"#")
	s.Filter[0] = Cond{Attr: "retry_count", Value: strconv.Itoa(retryMax), Cmp: CmpAtLeast, Num: true}
	return labelled(s, "user "+userID+" · failed · retries ≥ "+strconv.Itoa(retryMax))
}

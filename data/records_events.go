package data

import (
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Attribute names of the events table that contain '#' and so must always go
// through ExpressionAttributeNames.
const (
	AttrEventSortKey   = "timestamp#event_id"
	AttrEventTypeKey   = "event_type#timestamp"
	AttrEventStatusKey = "status#timestamp"
)

// AttrEventID is the event's own id, the part of the sort key after
// eventKeySep ("<timestamp>#<event_id>").
const (
	AttrEventID = "event_id"
	eventKeySep = "#"
)

// Event is one zapier-triggers-api-{env}-events item.
type Event struct {
	Meta
	UserID     string
	SortKey    string // "timestamp#event_id", the table's range key
	EventID    string
	EventType  string
	Status     string // received, delivered, failed, retrying
	Timestamp  time.Time
	TTL        time.Time
	RetryCount Number
	Payload    map[string]types.AttributeValue
	Metadata   map[string]types.AttributeValue
	// The two GSI sort keys as stored. They are denormalised copies and go
	// stale when a writer updates status without them (flagged).
	TypeKey     string // "event_type#timestamp"
	StatusKey   string // "status#timestamp"
	LastRetryAt time.Time
}

// DecodeEvent reads an event item. Besides types it checks that the two
// composite GSI keys agree with event_type and status: the seed requires
// status#timestamp to change whenever status does, and an event whose index
// key is stale is listed under the wrong status by StatusIndex.
func DecodeEvent(item Item) Event {
	d := newDecoder(TableEvents, item)
	e := Event{
		UserID:      d.str("user_id", true),
		SortKey:     d.str(AttrEventSortKey, true),
		EventID:     d.str("event_id", true),
		EventType:   d.str("event_type", true),
		Status:      d.str("status", true),
		Timestamp:   d.timeAttr("timestamp", "S", true),
		TTL:         d.timeAttr("ttl", "N", true),
		RetryCount:  d.count("retry_count", true),
		Payload:     d.mapAttr("payload", true),
		Metadata:    d.mapAttr("metadata", false),
		TypeKey:     d.str(AttrEventTypeKey, true),
		StatusKey:   d.str(AttrEventStatusKey, true),
		LastRetryAt: d.timeAttr("last_retry_at", "S", false),
	}
	if e.EventType != "" && e.TypeKey != "" && !strings.HasPrefix(e.TypeKey, e.EventType+"#") {
		d.flag(AttrEventTypeKey, e.EventType+"#<timestamp>", "S", "index key disagrees with event_type")
	}
	if e.Status != "" && e.StatusKey != "" && !strings.HasPrefix(e.StatusKey, e.Status+"#") {
		d.flag(AttrEventStatusKey, e.Status+"#<timestamp>", "S", "index key is stale: it disagrees with status")
	}
	if e.EventID != "" && e.SortKey != "" && !strings.HasSuffix(e.SortKey, "#"+e.EventID) {
		d.flag(AttrEventSortKey, "<timestamp>#"+Clip(e.EventID, 40), "S", "sort key does not end with event_id")
	}
	e.Meta = d.finish()
	return e
}

// StatusKeyFor returns the status#timestamp value an update to newStatus
// must write. The timestamp part is the event's own timestamp (kept from the
// current key when it has one), so StatusIndex stays in event order; see
// docs/SCHEMAS.md.
func (e Event) StatusKeyFor(newStatus string) string {
	if i := strings.IndexByte(e.StatusKey, '#'); i >= 0 {
		return newStatus + e.StatusKey[i:]
	}
	if ts, ok := e.Raw["timestamp"].(*types.AttributeValueMemberS); ok && ts.Value != "" {
		return newStatus + "#" + ts.Value
	}
	if i := strings.IndexByte(e.SortKey, '#'); i >= 0 {
		return newStatus + "#" + e.SortKey[:i]
	}
	return newStatus + "#"
}

func (Event) Table() TableID { return TableEvents }
func (e Event) Key() Item    { return KeyOf(TableEvents, e.Raw) }

// ID is the event_id, falling back to the sort key for malformed rows.
func (e Event) ID() string {
	if e.EventID != "" {
		return e.EventID
	}
	return e.SortKey
}

package data

// EpochUnit is the unit of a time stored as a number since the unix epoch.
type EpochUnit int

const (
	EpochSeconds EpochUnit = iota + 1
	EpochMillis
)

func (u EpochUnit) String() string {
	switch u {
	case EpochSeconds:
		return "seconds"
	case EpochMillis:
		return "milliseconds"
	}
	return "?"
}

// epochAttrs are the number attributes the services' documents give as
// unix times, with their unit (docs/SCHEMAS.md): a table's TTL attribute
// is seconds by DynamoDB's definition and is added from the schema.
var epochAttrs = map[TableID]map[string]EpochUnit{
	TableDelegations: {"expiration": EpochSeconds},
	// Seed note 3: every sandbox time is unix seconds.
	TableSandboxes: {
		"allocated_at": EpochSeconds, "created_at": EpochSeconds, "updated_at": EpochSeconds,
		"deletion_requested_at": EpochSeconds, "last_synced": EpochSeconds,
	},
}

// EpochAttrs lists the top-level attributes of a table that hold a unix
// time as a number, and the unit its document gives. An attribute not
// listed is never read as a time by its size: the unit would be a guess.
func EpochAttrs(table TableID) map[string]EpochUnit {
	out := map[string]EpochUnit{}
	if s, ok := Schema(table); ok && s.TTLAttr != "" {
		out[s.TTLAttr] = EpochSeconds
	}
	for k, u := range epochAttrs[table] {
		out[k] = u
	}
	return out
}

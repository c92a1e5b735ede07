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

// EpochAttrs lists the top-level attributes of a table that hold a unix
// time as a number, and the unit its document gives (its descriptor's
// Epoch, docs/SCHEMAS.md, and the TTL attribute). An attribute not
// listed is never read as a time by its size: the unit would be a guess.
func EpochAttrs(table TableID) map[string]EpochUnit {
	out := map[string]EpochUnit{}
	d, ok := Lookup(table)
	if !ok {
		return out
	}
	// A TTL attribute is seconds by DynamoDB's definition.
	if d.Schema.TTLAttr != "" {
		out[d.Schema.TTLAttr] = EpochSeconds
	}
	for k, u := range d.Epoch {
		out[k] = u
	}
	return out
}

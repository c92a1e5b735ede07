// Package data is opsdeck's DynamoDB layer. It knows nothing of the UI and
// returns plain Go values.
//
//   - schema.go describes the ten tables (keys, GSIs and projections,
//     streams, TTL) once, as data; Tables maps them to physical names.
//   - conn.go connects (Connect, ConnectLocal) following AWS conventions.
//   - records*.go decode items into typed records (Session, Event, Sandbox,
//     ...) that never panic and never drop anything: each embeds Meta, whose
//     Raw is the item as read and whose Problems say what was odd about it.
//   - store*.go is Store: one method per access pattern of the services,
//     each a paginated Query (Page, PageRequest, Cursor) returning whole
//     items, with BatchGet completing KEYS_ONLY and INCLUDE indexes.
//   - scan.go is the one explicit Scan (ScanTable) and its cost estimate.
//   - errors.go turns any error into one clear line (Describe) and
//     classifies it (IsThrottled, IsNotFound, ...).
//
// docs/SCHEMAS.md records every decision taken where the seeds are vague.
package data

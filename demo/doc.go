// Package demo builds the demo world: it creates the ten tables from
// data.Schemas(), seeds them with a few hundred realistic rows in every
// lifecycle state, and runs a traffic simulator that moves those rows through
// their lifecycles so every pane of the console has something to show.
//
// Entry points:
//
//   - CreateTables / DeleteTables: the tables exactly as the schemas describe
//     them (CreateOptions.StreamsOnAll, `--demo-streams all`, adds
//     NEW_AND_OLD_IMAGES streams to the tables whose seed has none; existing
//     tables are never modified).
//   - Seed: the rows (BatchWriteItem, unprocessed items resent with backoff),
//     returning a SeedReport with the tenants and DefaultScopes.
//   - Prepare: CreateTables (the documents' streams, or streams everywhere
//     with SeedOptions.StreamsOnAll), then Seed unless the world is already
//     there. What `opsdeck --demo` runs.
//   - Simulator: Step / Run, conditional writes only.
//
// The world (SeedOptions.Now anchors every relative time):
//
//   - Wallcrawler: four projects (proj_acme_scraper is the busiest and the
//     default scope, proj_northwind_qa sits exactly at its concurrency quota,
//     proj_legacy_crawler is INACTIVE), 2-3 API keys and 2-4 contexts each,
//     about 80 sessions in all nine internalStatus values, some expiring
//     within minutes, some written by the container (status=STOPPED, numeric
//     updatedAt).
//   - AppLens: users 12345, 48213, 77001, 90210; runs in UPLOADED,
//     PROCESSING (some stuck for longer than StuckAfter), COMPLETE, FAILED;
//     the seed's example item verbatim.
//   - Zapier: user-123 (the default Inbox: failed events, some out of
//     retries), user-12345 (with the seed's example verbatim), user-4821,
//     user-9066; every status, composite keys always consistent.
//   - w3infra: delegations to three audiences (some expired), five did:mailto
//     customers with their spaces, one space on two providers.
//   - Sandboxes: available, allocated (some past their own
//     lab_duration_hours), pending_deletion (some with failed deletions
//     counted in deletion_retry_count), stale; the
//     seed's four lifecycle examples (see sandboxExamples).
//   - Hostile tenants (HostileTenants): control sequences, OSC 52, bidi
//     overrides, invalid UTF-8 (in B attributes), wrong types, missing and
//     unknown attributes; one session of the default project and one event
//     of the default Inbox user carry escape sequences too. Further rows
//     (hostileClasses) cover what must be masked and shown true:
//     credentials stored as lists, maps, sets, numbers and binary, a
//     connectUrl stored as a map, tokens in opaque URLs, fragments and
//     headers (SeedReport.HostileSecrets lists every one), credentials in
//     the columns lists show (a session id, a run's failure reason, a
//     sandbox name and external id, a delegation's and a consumer's cause),
//     ids with invisible characters, numbers beyond int64, timestamps in
//     milliseconds and with offsets, and an item of about 350 KB.
//
// What DynamoDB Local does that matters here (verified against it):
//
//   - It enforces TTL, deleting expired items within a minute or so. Seeded rows
//     therefore expire in the future (except the Zapier seed's own example,
//     whose ttl is in 2025), and tests that read seeded rows back create
//     their tables with CreateOptions.SkipTTL.
//   - A wrong type or an empty string in any table or GSI key attribute is a
//     ValidationException, so malformed types are seeded in non-key
//     attributes only.
//   - S values reach it as JSON, and the SDK replaces invalid UTF-8 with
//     U+FFFD before sending; invalid bytes can only be stored in B values.
//
// Everything here writes, so every entry point refuses a read-only Conn and,
// unless told otherwise (AllowRemote), any endpoint that is not loopback:
// seeding fake tenants into a real AWS account is never what anyone wants.
package demo

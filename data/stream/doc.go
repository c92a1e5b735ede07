// Package stream tails DynamoDB Streams: one reader per table, one poller
// per shard, every change handed to a Sink exactly once and in order per key.
//
// How it reads: DescribeTable gives the stream ARN (no stream: Health
// "polling", the UI re-queries instead). DescribeStream, paged with
// ExclusiveStartShardId, gives the shards and their lineage. At start the
// leaf shards are read from LATEST; a shard found later (the child of one we
// were reading) from TRIM_HORIZON, and only after its parent was read to the
// end, so per-key order holds across a split. A closed shard (no
// NextShardIterator) sends the table reader looking for its children
// (ShardFilter CHILD_SHARDS, else a full describe), with backoff while none
// exist yet.
//
// The read budget, so that cost follows changes, not shards: a shard that
// delivered on its last poll is polled every PollInterval (250 ms; again as
// soon as allowed after a full batch), and keeps that pace for holdFast
// (3 s) after its last record, since writes come in bursts a second or so
// apart; then it backs off, doubling to IdlePollMax (1.5 s), and the idle
// shards of one table together make at most TableIdleRate (2) calls a
// second whatever their number. Tables no
// pane needs (Tailer.SetDemand) are read every SlowPollInterval (10 s), or
// not at all with Background RateOff ("paused", resuming where they
// stopped). Every GetRecords and GetShardIterator of the console takes a
// token from one bucket of MaxCallsPerSecond (50), handed to busy shards
// first, then idle ones, then slow tables', in turn within each.
// LimitExceededException and throttling back that shard off from 2 s to
// 30 s and report "throttled": never a retry storm. Against AWS (any
// endpoint not on this machine) a shard is shared with the service's own
// consumer, so it is read at most every 1.25 s (with a Lambda polling 4/s,
// the pair stays under the 5 reads/s a shard allows).
//
// Exactly once: each shard reader remembers the last sequence number it
// delivered (compared as big integers), resumes AFTER_SEQUENCE_NUMBER it
// whenever it needs a new iterator, and drops anything at or below it.
//
// No silent gap: until a shard has delivered its first record, the only
// position known for it is "LATEST when the reader took it" (iterators are
// opaque). If that iterator is lost (expired after a stall, refused), the
// shard is read again from TRIM_HORIZON, passing over records created more
// than a minute before that time (ApproximateCreationDateTime is rounded
// down, to the minute by DynamoDB Local); so a few records from just before
// the start may show, never a write made after it be skipped. Only when
// records were trimmed before they were read (24 h) does the reader say
// "gap", with the span of changes that may be missing (Health.GapFrom,
// GapTo).
//
// Faults: the SDK's own retries are switched off per call, so failures reach
// the reader, which backs off with jitter and reports "reconnecting", then
// "live" when a call succeeds again. ExpiredIterator (and DynamoDB Local's
// "Invalid ShardIterator") → a new iterator after the last delivered record
// (see "No silent gap" before the first); TrimmedDataAccess → TRIM_HORIZON
// and a "gap" notice naming its span; ResourceNotFound on a
// shard → rediscovery; stream disabled or table deleted → "off". "off" (and
// "polling", no stream) is never the end while the console runs: the table
// is checked again with backoff (RecheckMin to RecheckMax), and read again
// once it has a stream — the same stream resumes where each shard got to, a
// new one (table re-created, stream re-enabled) is read from TRIM_HORIZON,
// since everything in it happened while the console watched. A new stream,
// whether found after "off" or by a table check while the old one still
// answered (a stream disabled and enabled again within 100 ms, a server
// restarted and re-seeded within seconds), is reported as a gap with
// Health.Replaced, from when the old stream was last seen: changes made
// between the two are in neither, and rows read from the old table are not
// corrected by the new stream's records, so the UI reads them again.
//
// Where a change sits in time: a record carries ReadBy (the call that
// returned it had answered) and NotBy (the last call before it that read
// its shard to the end — short of its Limit and of DynamoDB's 1 MB cap — was
// sent then, or the LATEST position was taken), both by this machine's
// clock: the change was made between them. Counts place records against
// their own span with these (data.ReadSpan.Place).
//
// Big items: DynamoDB caps a GetRecords answer at 1 MB; DynamoDB Local does
// not (1,000 records of a 400 KB item were ~737 MB, which never arrived
// within the call timeout, and the same call was retried for ever). So
// every answer is capped (MaxResponseBytes) before the SDK decodes it, and
// each shard sizes its Limit to what can arrive: a quarter after an answer
// cut off or timed out, at most what keeps an answer of records this size
// under half the cap, doubling back while answers are small. Records carry
// their size (Record.Bytes) so the feed and the Stream pane bound their
// buffers by bytes as well as by count.
//
// What DynamoDB Local (2.x, the tests' server) does, found by probing it:
//   - A stream has exactly one shard ("shardId-000000017952…-7e39cb53", no
//     parent) and it did not roll over during our runs. So the lineage is
//     tested through streamtest.Front, which serves DynamoDB Local's real
//     records through synthetic shards that roll over and split.
//   - Sequence numbers are a counter padded to 21 digits
//     ("000000000000000000001"); with -sharedDb the counter is shared by
//     every stream of the server, so a new table's first record may be 491.
//   - Iterators are stateless ("<arn>|001|base64(shard|seq|millis)"): an old
//     iterator can be reused and yields the same records again, which is why
//     dedupe by sequence number is required. Whether they expire after 15
//     minutes as on AWS was not verified (too slow to probe).
//   - GetShardIterator for an unknown shard: ResourceNotFoundException
//     "Shard does not exist". GetRecords with a garbled iterator:
//     ValidationException "Invalid ShardIterator" (AWS would say
//     ExpiredIterator or the like; treated the same).
//   - AFTER_SEQUENCE_NUMBER past the end of the shard: HTTP 500
//     InternalFailure (treated as transient).
//   - A LATEST (or TRIM_HORIZON) iterator on an empty shard sits at the
//     shard's starting number. The first record usually gets a higher number
//     (the counter is shared, see above), and then that iterator fails with
//     TrimmedDataAccessException ("read past the oldest stream record").
//     Nothing was lost: it is the "No silent gap" case above (a re-read from
//     TRIM_HORIZON, from the reader's start on), without a "gap" notice.
//   - DescribeStream accepts ShardFilter CHILD_SHARDS without error.
//   - ApproximateCreationDateTime is truncated to the minute.
//   - Disabling the stream: DescribeTable keeps LatestStreamArn but drops
//     StreamSpecification; DescribeStream says DISABLED and the shard gets an
//     EndingSequenceNumber; GetRecords returns no NextShardIterator (closed).
//   - Deleting the table: DescribeTable says ResourceNotFound, while
//     DescribeStream and GetRecords on its stream still answer without error
//     (the shard reads as closed). The reader asks DescribeTable when a
//     stream ends, and every TableCheckInterval as a backstop.
//   - Restarted with the same -dbPath: same stream ARN, same shard id, same
//     sequence numbers and records; old iterators keep working.
package stream

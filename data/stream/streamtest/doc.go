// Package streamtest is TEST SUPPORT for the live tail, shared by the tests
// of data/stream and of the UI packages above it: an http.RoundTripper that
// sits in front of the real DynamoDB Local and injects the faults the
// reader must survive (expired iterators, trimmed data, a vanished shard,
// throttling, 500s, connection resets); Front, which serves the real
// server's records through synthetic shards that roll over and split as
// production's do; Meter, which measures (and can hold back) GetRecords
// answers; a ground-truth Writer with the exact check of the records
// received (VerifyExactly); and a Latency recorder for the write-to-record
// benchmarks.
//
// It is a plain package (not _test.go files) only so that tests in other
// packages can import it. Production code must never import it: nothing
// outside *_test.go files may name opsdeck/data/stream/streamtest, except
// main's demo_rolling.go, which is built only with -tags demorolling (make
// demo-rolling) and never into the ordinary binary.
//
// It deliberately does not import opsdeck/data/stream, so data/stream's own
// in-package tests can use it without an import cycle.
package streamtest

package stream

import (
	"testing"

	"opsdeck/data"
	"opsdeck/data/stream/streamtest"
)

// newWorkload is the shared ground-truth writer (streamtest.Writer) with
// every attribute type in its inserts, so the exact check below also covers
// the conversion of binary, list, bool and non-ASCII values.
func newWorkload(conn *data.Conn, tables data.Tables, seed uint64) *streamtest.Writer {
	w := streamtest.NewWriter(conn, tables, seed)
	w.AllTypes = true
	return w
}

// verifyExactly checks that the records got are the ground truth exactly
// (see streamtest.VerifyExactly), identifying each by shard and sequence
// number for the duplicate check.
func verifyExactly(t testing.TB, got []Record, wants []streamtest.Want) {
	t.Helper()
	gs := make([]streamtest.Got, len(got))
	for i, r := range got {
		gs[i] = streamtest.Got{ID: r.Shard + "/" + r.Seq, Want: streamtest.Want{
			Table: r.Table, Key: streamtest.Canon(r.Keys), Event: r.EventName,
			Old: streamtest.Canon(r.Old), New: streamtest.Canon(r.New),
		}}
	}
	streamtest.VerifyExactly(t, gs, wants)
}

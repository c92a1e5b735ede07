package action

import (
	"crypto/rand"
	"encoding/hex"

	"opsdeck/data"
)

// A lost response is the one failure where the truth is on the server: the
// write was applied, the answer never arrived, the SDK sent it again, and the
// retry's guard failed against our own write. Every transition therefore
// writes a token of its attempt with the change, and the executor looks for
// that token wherever the item comes back (ALL_OLD of a failed retry, or a
// re-read after an error) before it says what happened.

// AttemptAttr is the attribute every transition writes its attempt token to.
// It is a plain string the services never read: Wallcrawler, the Triggers
// API, the Sandbox Broker and AppLens decode their items into structs or
// dicts that ignore attributes they do not know, no key, index, TTL or
// stream filter uses it, and it costs about 50 bytes of the item.
const AttemptAttr = data.AttemptAttr

// newAttempt returns a token no other attempt will ever carry: 128 random
// bits, hex. It is also written to the audit line (":attempt"), which ties
// an item to the line that changed it.
func newAttempt() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on supported systems; if it did, a
		// fixed token would make recognition claim others' writes.
		panic("action: no randomness for an attempt token: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// carriesAttempt reports whether item holds this attempt's token: our write
// was applied to it.
func carriesAttempt(item data.Item, attempt string) bool {
	s, ok := str(item, AttemptAttr)
	return ok && attempt != "" && s == attempt
}

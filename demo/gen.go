package demo

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// gen produces realistic-looking identifiers and timestamps from one seeded
// random source, so the same seed always builds the same world.
type gen struct {
	r   *rand.Rand
	now time.Time
}

// The timestamp layouts each service actually uses. They differ on purpose:
// the console has to cope with all of them.
const (
	isoSeconds = "2006-01-02T15:04:05Z"        // Wallcrawler (Go), AppLens
	isoMicros  = "2006-01-02T15:04:05.000000Z" // Zapier (Python isoformat + "Z")
	isoMillis  = "2006-01-02T15:04:05.000Z"    // w3infra (JavaScript toISOString)
)

func (g *gen) intn(n int) int { return g.r.IntN(n) }

// between returns a random int in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func pick[T any](g *gen, xs []T) T { return xs[g.r.IntN(len(xs))] }

func (g *gen) hex(n int) string {
	const digits = "0123456789abcdef"
	var b strings.Builder
	for range n {
		b.WriteByte(digits[g.r.IntN(16)])
	}
	return b.String()
}

func (g *gen) alnum(n int) string {
	const digits = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	for range n {
		b.WriteByte(digits[g.r.IntN(len(digits))])
	}
	return b.String()
}

// uuid is a random (version 4) UUID in canonical form.
func (g *gen) uuid() string {
	h := g.hex(32)
	variant := "89ab"[g.r.IntN(4)]
	return fmt.Sprintf("%s-%s-4%s-%c%s-%s", h[0:8], h[8:12], h[13:16], variant, h[17:20], h[20:32])
}

// cid looks like a CIDv1 (dag-cbor, sha2-256) in base32: "bafyrei" + 52 chars.
func (g *gen) cid() string {
	const b32 = "abcdefghijklmnopqrstuvwxyz234567"
	var b strings.Builder
	b.WriteString("bafyrei")
	for range 52 {
		b.WriteByte(b32[g.r.IntN(len(b32))])
	}
	return b.String()
}

// didKey looks like an ed25519 did:key ("did:key:z6Mk" + base58btc).
func (g *gen) didKey() string {
	const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	var b strings.Builder
	b.WriteString("did:key:z6Mk")
	for range 44 {
		b.WriteByte(b58[g.r.IntN(len(b58))])
	}
	return b.String()
}

// publicIP is an address from ranges AWS really hands to Fargate tasks.
func (g *gen) publicIP() string {
	first := pick(g, []int{3, 18, 34, 44, 52, 54})
	return fmt.Sprintf("%d.%d.%d.%d", first, g.between(0, 255), g.between(0, 255), g.between(1, 254))
}

// jwt is a JWT-shaped token: base64url header, payload and signature. It is
// not signed by anything; it only has to look (and be masked) like one.
func (g *gen) jwt(subject string, exp int64) string {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	payload := enc.EncodeToString([]byte(fmt.Sprintf(`{"sub":%q,"iss":"wallcrawler","exp":%d,"jti":%q}`, subject, exp, g.hex(16))))
	sig := make([]byte, 32)
	for i := range sig {
		sig[i] = byte(g.r.IntN(256))
	}
	return header + "." + payload + "." + enc.EncodeToString(sig)
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// ago returns now minus d, truncated to the second (every service here
// stores at most second precision in its epoch fields).
func (g *gen) ago(d time.Duration) time.Time { return g.now.Add(-d).Truncate(time.Second) }

// jitter returns a duration in [lo, hi).
func (g *gen) jitter(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(g.r.Int64N(int64(hi-lo)))
}

func iso(t time.Time) string { return t.UTC().Format(isoSeconds) }

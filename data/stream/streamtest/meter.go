package streamtest

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// Meter sits in front of the real server and measures every GetRecords
// answer: how long it was and how much of it the client read. It can also
// stand in for the two ways a huge answer hurts: Block makes GetRecords
// fail (HTTP 500) so records pile up unread, and SlowAbove holds any answer
// longer than that many bytes until the request's context ends, as a server
// does that cannot send hundreds of MB within the call timeout.
type Meter struct {
	base      http.RoundTripper
	blocked   atomic.Bool
	slowAbove atomic.Int64

	mu      sync.Mutex
	answers []*Answer
}

// Answer is one GetRecords answer the server gave.
type Answer struct {
	Size int64 // bytes the server sent
	Read int64 // bytes the client read before closing
	Held bool  // held back (SlowAbove) until the client gave up
}

// NewMeter returns a Meter over a fresh transport.
func NewMeter() *Meter {
	return &Meter{base: http.DefaultTransport.(*http.Transport).Clone()}
}

// Client is an *http.Client over m.
func (m *Meter) Client() *http.Client { return &http.Client{Transport: m} }

// Block makes every GetRecords fail (true) or pass (false).
func (m *Meter) Block(on bool) { m.blocked.Store(on) }

// SlowAbove holds answers longer than n bytes until the client gives up
// (0: never).
func (m *Meter) SlowAbove(n int64) { m.slowAbove.Store(n) }

// Answers is a copy of what was measured so far.
func (m *Meter) Answers() []Answer {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Answer, len(m.answers))
	for i, a := range m.answers {
		out[i] = *a
	}
	return out
}

// RoundTrip forwards req and measures a GetRecords answer.
func (m *Meter) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".GetRecords") {
		return m.base.RoundTrip(req)
	}
	if m.blocked.Load() {
		drain(req)
		return ErrorResponse(req, Internal500), nil
	}
	resp, err := m.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	a := &Answer{Size: int64(len(body))}
	m.mu.Lock()
	m.answers = append(m.answers, a)
	m.mu.Unlock()
	if n := m.slowAbove.Load(); n > 0 && a.Size > n {
		a.Held = true
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	resp.Body = &meteredBody{r: bytes.NewReader(body), a: a, mu: &m.mu}
	return resp, nil
}

type meteredBody struct {
	r  *bytes.Reader
	a  *Answer
	mu *sync.Mutex
}

func (b *meteredBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.mu.Lock()
	b.a.Read += int64(n)
	b.mu.Unlock()
	return n, err
}

func (b *meteredBody) Close() error { return nil }

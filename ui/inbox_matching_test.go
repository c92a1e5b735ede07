package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	dbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
	"opsdeck/views"
)

// queryLog is an http.RoundTripper in front of the real server that keeps
// the body of every Query, so a test can see which index and which
// FilterExpression the console asked DynamoDB for.
type queryLog struct {
	mu      sync.Mutex
	queries []map[string]any
}

func (q *queryLog) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.Header.Get("X-Amz-Target"), ".Query") && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		var m map[string]any
		if json.Unmarshal(body, &m) == nil {
			q.mu.Lock()
			q.queries = append(q.queries, m)
			q.mu.Unlock()
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

func (q *queryLog) take() []map[string]any {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.queries
	q.queries = nil
	return out
}

// inboxRows walks every loaded row of the Inbox pane and returns their
// event ids.
func inboxRows(t *testing.T, m Model) []string {
	t.Helper()
	p := m.slotOf(views.PaneInbox)
	n := p.Status().Rows
	m, _ = press(t, m, "g")
	var ids []string
	for i := 0; i < n; i++ {
		it, ok := p.sel.Selected()
		if !ok {
			t.Fatalf("row %d not selectable", i)
		}
		ids = append(ids, attr(it, "event_id"))
		m, _ = press(t, m, "j")
	}
	slices.Sort(ids)
	return ids
}

// TestInboxTypeAndStatusNarrowOnTheServer: `:inbox u type=T status=S` is
// one EventTypeIndex query whose FilterExpression carries the status
// prefix — no row is narrowed client-side — and the rows it lists are
// exactly the items the pane's live-tail scope (data.EventsFor) matches,
// including items DynamoDB would filter out on type grounds.
func TestInboxTypeAndStatusNarrowOnTheServer(t *testing.T) {
	w := newActWorld(t)
	types := []string{"order.completed", "order.created", "user.created"}
	statuses := []string{"failed", "pending", "delivered", "failed_permanently"}
	var written []data.Item
	for i := 0; i < 40; i++ {
		ts := fixedNow.Add(-time.Duration(i) * time.Minute).UTC().Format("2006-01-02T15:04:05.000000Z")
		id := fmt.Sprintf("ev%02d", i)
		typ, st := types[i%len(types)], statuses[(i/3)%len(statuses)]
		it := data.Item{
			"user_id": sv(w.tenant), "timestamp#event_id": sv(ts + "#" + id), "event_id": sv(id),
			"event_type": sv(typ), "status": sv(st), "timestamp": sv(ts), "retry_count": nv(0),
			"event_type#timestamp": sv(typ + "#" + ts), "status#timestamp": sv(st + "#" + ts),
		}
		if i == 10 { // no status key at all (DynamoDB refuses one of the wrong type)
			delete(it, "status#timestamp")
		}
		w.put(data.TableEvents, it)
		written = append(written, it)
	}

	for _, tc := range []struct{ typ, status string }{
		{"order.", "fail"},
		{"order.completed#", "failed#"},
		{"user.", "pend"},
		// The first page of 4 (the newest order.created events) holds no
		// match: the pane follows such empty pages instead of showing none.
		{"order.", "failed_perm"},
	} {
		t.Run(tc.typ+"_"+tc.status, func(t *testing.T) {
			log := &queryLog{}
			o := w.withClient(log, true)
			o.PageSize = 4 // filtered pages come back short or empty
			m := start(t, o, 120, 40)
			log.take()
			m, _ = runLine(t, m, "inbox "+w.tenant+" type="+tc.typ+" status="+tc.status)
			p := m.slotOf(views.PaneInbox)
			if st := p.Status(); st.Rows == 0 || st.Err != "" {
				t.Fatalf("first load shows no rows: %+v", st)
			}
			m, _ = press(t, m, "L")
			if st := p.Status(); st.Err != "" || st.Loading || st.More {
				t.Fatalf("status %+v", st)
			}

			// What DynamoDB's key condition and begins_with filter keep:
			// string keys with both prefixes. The live tail's scope must
			// agree item by item.
			scope := data.EventsFor(w.tenant, tc.typ, tc.status)
			var want []string
			for _, it := range written {
				tk, tok := it["event_type#timestamp"].(*dbtypes.AttributeValueMemberS)
				sk, sok := it["status#timestamp"].(*dbtypes.AttributeValueMemberS)
				keep := tok && sok && strings.HasPrefix(tk.Value, tc.typ) && strings.HasPrefix(sk.Value, tc.status)
				if keep {
					want = append(want, attr(it, "event_id"))
				}
				if scope.Matches(it) != keep {
					t.Errorf("scope.Matches(%s) = %v, the query %v", attr(it, "event_id"), !keep, keep)
				}
			}
			slices.Sort(want)
			if len(want) == 0 || len(want) == len(written) {
				t.Fatalf("case narrows to %d of %d: not a test of narrowing", len(want), len(written))
			}
			if got := inboxRows(t, m); !slices.Equal(got, want) {
				t.Fatalf("rows %v\nscope matches %v", got, want)
			}

			qs := log.take()
			if len(qs) < 2 {
				t.Fatalf("%d queries for a 40-event partition at page size 4", len(qs))
			}
			for _, q := range qs {
				fe, _ := q["FilterExpression"].(string)
				vals, _ := json.Marshal(q["ExpressionAttributeValues"])
				if q["IndexName"] != "EventTypeIndex" || !strings.HasPrefix(fe, "begins_with(") ||
					!strings.Contains(string(vals), `{"S":"`+tc.status+`"}`) {
					t.Fatalf("query not narrowed on the server: index %v filter %q values %s", q["IndexName"], fe, vals)
				}
			}
		})
	}
}

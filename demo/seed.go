package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"opsdeck/data"
)

// SeedOptions tunes Seed.
type SeedOptions struct {
	// Now anchors every generated timestamp (sessions expiring "within
	// minutes", "stuck" runs, allocations past their window). Zero means
	// time.Now().
	Now time.Time
	// Rand drives every random choice; the same seed and Now build the same
	// rows. Nil means a fixed seed.
	Rand *rand.Rand
	// AllowRemote permits a non-loopback endpoint (see checkTarget).
	AllowRemote bool
	// StreamsOnAll (Prepare only) gives every table a stream, so every
	// pane of the demo is live. Off by default: the demo's tables then have
	// exactly the documents' streams (wallcrawler-sessions and the events
	// table), and the other panes poll as they do in production.
	StreamsOnAll bool
}

// DefaultRandSeed is the seed used when SeedOptions.Rand or SimOptions.Rand
// is nil.
const DefaultRandSeed = 20251111

func defaultRand(r *rand.Rand) *rand.Rand {
	if r != nil {
		return r
	}
	return rand.New(rand.NewPCG(DefaultRandSeed, DefaultRandSeed>>1))
}

// SeedReport says what Seed wrote, so the console can open on scopes that
// have something to show and tests can check the counts.
type SeedReport struct {
	Now time.Time
	// Counts is the number of rows written per table.
	Counts map[data.TableID]int
	// States counts rows per lifecycle state: sessions by internalStatus,
	// runs/events/sandboxes by status, delegations as "active"/"expired".
	States map[data.TableID]map[string]int

	// The tenants, each list sorted. Hostile tenants are listed separately.
	Projects   []string // Wallcrawler project ids (ACTIVE and INACTIVE)
	GraphUsers []string // AppLens user ids (without the USER# prefix)
	EventUsers []string // Zapier user_id values
	Audiences  []string // w3infra delegation audiences
	Customers  []string // w3infra subscription customers
	Consumers  []string // w3infra consumer (space) DIDs
	Providers  []string // w3infra providers
	Tracks     []string // sandbox tracks that own allocations

	Hostile  HostileTenants
	Defaults DefaultScopes
	// HostileSecrets are the credentials planted in hostile rows (binary
	// ones as their bytes), for tests that check none is ever shown.
	HostileSecrets []string

	// Notes records what the seed could not express as asked, and why
	// (for example what DynamoDB refuses to store).
	Notes []string
	// AlreadySeeded is set by Prepare when it found the demo world already
	// in place and wrote nothing.
	AlreadySeeded bool
}

// HostileTenants names the tenants whose rows are deliberately malformed or
// carry terminal control sequences, so they can be opened on purpose.
type HostileTenants struct {
	Project   string // Wallcrawler project
	GraphUser string // AppLens user id
	EventUser string // Zapier user_id
	Audience  string // w3infra delegation audience
	Customer  string // w3infra subscription customer
	// Consumer is a space DID with a bidi override and a clear-screen
	// sequence in it: it cannot be typed, only pasted.
	Consumer string
	Track    string // sandbox track
}

// DefaultScopes are the scopes the console opens each pane on in the demo.
type DefaultScopes struct {
	SessionsProject string // the busiest project
	SessionsStatus  string // RUNNING
	RunsUser        string // a user with a stuck PROCESSING run
	InboxUser       string // a user with failed events, some at max retries
	Audience        string // the audience with the most delegations
	Customer        string
	Consumer        string // a space provisioned with more than one provider
	SandboxStatus   string // available
	Track           string // a track owning an allocation past its window
}

// world is the demo data set before it is written.
type world struct {
	rows   map[data.TableID][]Item
	report SeedReport
}

func (w *world) add(id data.TableID, state string, it Item) {
	w.rows[id] = append(w.rows[id], it)
	w.report.Counts[id]++
	if state != "" {
		if w.report.States[id] == nil {
			w.report.States[id] = map[string]int{}
		}
		w.report.States[id][state]++
	}
}

func (w *world) note(format string, args ...any) {
	w.report.Notes = append(w.report.Notes, fmt.Sprintf(format, args...))
}

// buildWorld generates every row in memory. It writes nothing, so Prepare
// can recompute the report for a database seeded earlier.
func buildWorld(now time.Time, r *rand.Rand) *world {
	g := &gen{r: r, now: now.UTC()}
	w := &world{
		rows: map[data.TableID][]Item{},
		report: SeedReport{
			Now:    g.now,
			Counts: map[data.TableID]int{},
			States: map[data.TableID]map[string]int{},
		},
	}
	for _, sd := range registeredSeeds() {
		sd.fn(g, w)
	}
	for _, l := range [][]string{w.report.Projects, w.report.GraphUsers, w.report.EventUsers,
		w.report.Audiences, w.report.Customers, w.report.Consumers, w.report.Providers, w.report.Tracks} {
		sort.Strings(l)
	}
	return w
}

// Seed writes the demo world into tables (which must exist, see
// CreateTables) with BatchWriteItem and reports what it wrote. Rows are
// plain puts: seeding twice with the same Rand seed and Now rewrites the same
// keys.
func Seed(ctx context.Context, conn *data.Conn, tables data.Tables, opts SeedOptions) (SeedReport, error) {
	if err := checkTarget(conn, opts.AllowRemote); err != nil {
		return SeedReport{}, err
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	w := buildWorld(now, defaultRand(opts.Rand))
	for _, s := range data.Schemas() {
		if err := putAll(ctx, conn.DB, tables.Name(s.ID), w.rows[s.ID]); err != nil {
			return w.report, fmt.Errorf("seeding %s: %w", s.ID, err)
		}
	}
	return w.report, nil
}

func appendUnique(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

package demo

import (
	"context"
	"fmt"
	"time"

	"opsdeck/data"
)

// Prepare is what `opsdeck --demo` runs before opening the console: it
// creates every table (with the streams and TTL the seeds define — or a
// stream on every table with opts.StreamsOnAll) and seeds the demo world. Run it against
// an empty DynamoDB Local; run it again and it finds the world already there
// and writes nothing (the report is then rebuilt from the same plan and says
// AlreadySeeded). Then start a Simulator:
//
//	rep, err := demo.Prepare(ctx, conn, tables, demo.SeedOptions{})
//	sim := demo.NewSimulator(conn, tables, demo.SimOptions{Logf: debugLog})
//	go sim.Run(ctx)
func Prepare(ctx context.Context, conn *data.Conn, tables data.Tables, opts SeedOptions) (SeedReport, error) {
	if err := CreateTables(ctx, conn, tables, CreateOptions{StreamsOnAll: opts.StreamsOnAll, AllowRemote: opts.AllowRemote}); err != nil {
		return SeedReport{}, err
	}
	seeded, err := alreadySeeded(ctx, conn, tables)
	if err != nil {
		return SeedReport{}, err
	}
	if seeded {
		now := opts.Now
		if now.IsZero() {
			now = time.Now()
		}
		rep := buildWorld(now, defaultRand(opts.Rand)).report
		rep.AlreadySeeded = true
		rep.Notes = append(rep.Notes, "the demo world was already seeded; nothing was written and the counts are those of a fresh seed")
		return rep, nil
	}
	return Seed(ctx, conn, tables, opts)
}

// alreadySeeded looks for the seed's own sandbox example, which only Seed
// writes and which the simulator never moves. Sandboxes are the last table
// Seed fills, so finding it means the earlier tables are there too.
func alreadySeeded(ctx context.Context, conn *data.Conn, tables data.Tables) (bool, error) {
	ex := sandboxExamples()[sbxAllocated]
	s := &Simulator{conn: conn, tables: tables}
	it, err := s.get(ctx, data.TableSandboxes, sandboxKey(ex))
	if err != nil {
		return false, fmt.Errorf("checking for an earlier demo seed: %w", err)
	}
	return it != nil, nil
}

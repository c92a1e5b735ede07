package demo

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// CreateOptions tunes CreateTables.
type CreateOptions struct {
	// StreamsOnAll enables NEW_AND_OLD_IMAGES streams on the tables whose
	// seed defines none, so every pane of the demo is live. Tables that do
	// have a stream keep the seed's view type. Off by default: the default is
	// exactly what the seeds describe.
	StreamsOnAll bool
	// SkipTTL leaves TTL disabled. DynamoDB Local really deletes expired
	// items (within about a minute), so tests that read seeded rows back, some of
	// which are expired by design, turn it off.
	SkipTTL bool
	// AllowRemote permits a non-loopback endpoint (see checkTarget).
	AllowRemote bool
	// PollInterval is how often table status is polled while waiting for
	// ACTIVE; zero means 100ms, which suits DynamoDB Local.
	PollInterval time.Duration
}

// CreateTables creates every table of data.Schemas() under the physical names
// in tables and waits until each (and each of its indexes) is ACTIVE. A table
// that already exists is left exactly as it is, so calling it twice is safe.
func CreateTables(ctx context.Context, conn *data.Conn, tables data.Tables, opts CreateOptions) error {
	if err := checkTarget(conn, opts.AllowRemote); err != nil {
		return err
	}
	for _, s := range data.Schemas() {
		name := tables.Name(s.ID)
		in := CreateTableInput(s, name, opts.StreamsOnAll)
		_, err := conn.DB.CreateTable(ctx, in)
		var inUse *types.ResourceInUseException
		switch {
		case errors.As(err, &inUse):
			// Already there: never touch an existing table, just make sure it
			// is usable before seeding.
			if err := waitActive(ctx, conn, name, opts.PollInterval); err != nil {
				return err
			}
			continue
		case err != nil:
			return fmt.Errorf("creating table %s: %w", name, err)
		}
		if err := waitActive(ctx, conn, name, opts.PollInterval); err != nil {
			return err
		}
		if s.TTLAttr != "" && !opts.SkipTTL {
			_, err := conn.DB.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
				TableName: aws.String(name),
				TimeToLiveSpecification: &types.TimeToLiveSpecification{
					AttributeName: aws.String(s.TTLAttr),
					Enabled:       aws.Bool(true),
				},
			})
			if err != nil {
				return fmt.Errorf("enabling TTL on %s.%s: %w", name, s.TTLAttr, err)
			}
		}
	}
	return nil
}

// CreateTableInput is the CreateTable request for one schema. It is exported
// so tests (and anyone curious) can see exactly what the demo asks for.
func CreateTableInput(s data.TableSchema, name string, streamsOnAll bool) *dynamodb.CreateTableInput {
	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema:   keySchema(s.PK, s.SK),
	}
	// Every attribute used as a key anywhere must be defined exactly once,
	// with one type; DynamoDB rejects duplicates and unused definitions.
	defs := map[string]data.AttrType{}
	add := func(k *data.KeyAttr) {
		if k != nil {
			defs[k.Name] = k.Type
		}
	}
	add(&s.PK)
	add(s.SK)
	for _, ix := range s.Indexes {
		add(&ix.PK)
		add(ix.SK)
		gsi := types.GlobalSecondaryIndex{
			IndexName:  aws.String(ix.Name),
			KeySchema:  keySchema(ix.PK, ix.SK),
			Projection: &types.Projection{ProjectionType: types.ProjectionType(ix.Projection.Type)},
		}
		if ix.Projection.Type == data.ProjectInclude {
			gsi.Projection.NonKeyAttributes = append([]string(nil), ix.Projection.NonKey...)
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, gsi)
	}
	names := make([]string, 0, len(defs))
	for n := range defs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{
			AttributeName: aws.String(n),
			AttributeType: types.ScalarAttributeType(defs[n]),
		})
	}
	view := s.Stream
	if view == data.StreamNone && streamsOnAll {
		view = data.StreamNewAndOld
	}
	if view != data.StreamNone {
		in.StreamSpecification = &types.StreamSpecification{
			StreamEnabled:  aws.Bool(true),
			StreamViewType: types.StreamViewType(view),
		}
	}
	return in
}

func keySchema(pk data.KeyAttr, sk *data.KeyAttr) []types.KeySchemaElement {
	ks := []types.KeySchemaElement{{AttributeName: aws.String(pk.Name), KeyType: types.KeyTypeHash}}
	if sk != nil {
		ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(sk.Name), KeyType: types.KeyTypeRange})
	}
	return ks
}

// waitActive polls DescribeTable until the table and all its GSIs are ACTIVE.
// DynamoDB Local is ACTIVE at once; AWS can take a while, hence the poll.
func waitActive(ctx context.Context, conn *data.Conn, name string, every time.Duration) error {
	if every <= 0 {
		every = 100 * time.Millisecond
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		out, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		if err != nil {
			return fmt.Errorf("waiting for table %s: %w", name, err)
		}
		if tableActive(out.Table) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for table %s to become ACTIVE: %w", name, ctx.Err())
		case <-t.C:
		}
	}
}

func tableActive(td *types.TableDescription) bool {
	if td == nil || td.TableStatus != types.TableStatusActive {
		return false
	}
	for _, g := range td.GlobalSecondaryIndexes {
		if g.IndexStatus != "" && g.IndexStatus != types.IndexStatusActive {
			return false
		}
	}
	return true
}

// DeleteTables deletes every table of data.Schemas() under the names in
// tables, ignoring those that do not exist, and waits until they are gone.
func DeleteTables(ctx context.Context, conn *data.Conn, tables data.Tables, opts CreateOptions) error {
	if err := checkTarget(conn, opts.AllowRemote); err != nil {
		return err
	}
	every := opts.PollInterval
	if every <= 0 {
		every = 100 * time.Millisecond
	}
	for _, s := range data.Schemas() {
		name := tables.Name(s.ID)
		_, err := conn.DB.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			continue
		}
		if err != nil {
			return fmt.Errorf("deleting table %s: %w", name, err)
		}
		if err := waitGone(ctx, conn, name, every); err != nil {
			return err
		}
	}
	return nil
}

func waitGone(ctx context.Context, conn *data.Conn, name string, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		_, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("waiting for table %s to be deleted: %w", name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for table %s to be deleted: %w", name, ctx.Err())
		case <-t.C:
		}
	}
}

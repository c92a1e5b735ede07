package demo

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// describe returns the server's view of one table and its TTL setting.
func describe(t *testing.T, ctx context.Context, conn *data.Conn, name string) (*types.TableDescription, *types.TimeToLiveDescription) {
	t.Helper()
	out, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("describe %s: %v", name, err)
	}
	ttl, err := conn.DB.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	if err != nil {
		t.Fatalf("describe TTL %s: %v", name, err)
	}
	return out.Table, ttl.TimeToLiveDescription
}

func keyString(ks []types.KeySchemaElement) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = aws.ToString(k.AttributeName) + ":" + string(k.KeyType)
	}
	return strings.Join(parts, ",")
}

func wantKey(pk data.KeyAttr, sk *data.KeyAttr) string {
	s := pk.Name + ":HASH"
	if sk != nil {
		s += "," + sk.Name + ":RANGE"
	}
	return s
}

// checkTableMatchesSchema compares what DynamoDB Local reports against the
// schema description, attribute by attribute.
func checkTableMatchesSchema(t *testing.T, s data.TableSchema, td *types.TableDescription, ttl *types.TimeToLiveDescription, wantStream data.StreamView, wantTTL bool) {
	t.Helper()
	name := aws.ToString(td.TableName)
	if td.TableStatus != types.TableStatusActive {
		t.Errorf("%s: status %s, want ACTIVE", name, td.TableStatus)
	}
	if got, want := keyString(td.KeySchema), wantKey(s.PK, s.SK); got != want {
		t.Errorf("%s: key schema %s, want %s", name, got, want)
	}
	if td.BillingModeSummary == nil || td.BillingModeSummary.BillingMode != types.BillingModePayPerRequest {
		t.Errorf("%s: billing mode %+v, want PAY_PER_REQUEST", name, td.BillingModeSummary)
	}

	// Attribute definitions: exactly the key attributes, each with its type.
	wantDefs := map[string]string{s.PK.Name: string(s.PK.Type)}
	if s.SK != nil {
		wantDefs[s.SK.Name] = string(s.SK.Type)
	}
	for _, ix := range s.Indexes {
		wantDefs[ix.PK.Name] = string(ix.PK.Type)
		if ix.SK != nil {
			wantDefs[ix.SK.Name] = string(ix.SK.Type)
		}
	}
	gotDefs := map[string]string{}
	for _, d := range td.AttributeDefinitions {
		gotDefs[aws.ToString(d.AttributeName)] = string(d.AttributeType)
	}
	if !mapsEqual(gotDefs, wantDefs) {
		t.Errorf("%s: attribute definitions %v, want %v", name, gotDefs, wantDefs)
	}

	// GSIs: names, keys, projection type and INCLUDE lists.
	if len(td.GlobalSecondaryIndexes) != len(s.Indexes) {
		t.Errorf("%s: %d GSIs, want %d", name, len(td.GlobalSecondaryIndexes), len(s.Indexes))
	}
	for _, ix := range s.Indexes {
		var got *types.GlobalSecondaryIndexDescription
		for i := range td.GlobalSecondaryIndexes {
			if aws.ToString(td.GlobalSecondaryIndexes[i].IndexName) == ix.Name {
				got = &td.GlobalSecondaryIndexes[i]
			}
		}
		if got == nil {
			t.Errorf("%s: GSI %s missing", name, ix.Name)
			continue
		}
		if g, w := keyString(got.KeySchema), wantKey(ix.PK, ix.SK); g != w {
			t.Errorf("%s.%s: key schema %s, want %s", name, ix.Name, g, w)
		}
		if got.Projection == nil || string(got.Projection.ProjectionType) != string(ix.Projection.Type) {
			t.Errorf("%s.%s: projection %+v, want %s", name, ix.Name, got.Projection, ix.Projection.Type)
			continue
		}
		gotNK := slices.Sorted(slices.Values(got.Projection.NonKeyAttributes))
		wantNK := slices.Sorted(slices.Values(ix.Projection.NonKey))
		if !slices.Equal(gotNK, wantNK) {
			t.Errorf("%s.%s: INCLUDE %v, want %v", name, ix.Name, gotNK, wantNK)
		}
	}

	// Stream.
	gotStream := data.StreamNone
	if td.StreamSpecification != nil && aws.ToBool(td.StreamSpecification.StreamEnabled) {
		gotStream = data.StreamView(td.StreamSpecification.StreamViewType)
	}
	if gotStream != wantStream {
		t.Errorf("%s: stream %q, want %q", name, gotStream, wantStream)
	}
	if wantStream != data.StreamNone && aws.ToString(td.LatestStreamArn) == "" {
		t.Errorf("%s: stream enabled but no LatestStreamArn", name)
	}

	// TTL.
	enabled := ttl != nil && ttl.TimeToLiveStatus == types.TimeToLiveStatusEnabled
	if wantTTL {
		if !enabled || aws.ToString(ttl.AttributeName) != s.TTLAttr {
			t.Errorf("%s: TTL %+v, want ENABLED on %s", name, ttl, s.TTLAttr)
		}
	} else if enabled {
		t.Errorf("%s: TTL enabled on %s, want disabled", name, aws.ToString(ttl.AttributeName))
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

func TestCreateTablesMatchesSchemaExactly(t *testing.T) {
	ctx, conn, tables := testEnv(t)
	if err := CreateTables(ctx, conn, tables, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	schemas := data.Schemas()
	if len(schemas) != 10 {
		t.Fatalf("%d schemas, want the ten tables", len(schemas))
	}
	for _, s := range schemas {
		td, ttl := describe(t, ctx, conn, tables.Name(s.ID))
		checkTableMatchesSchema(t, s, td, ttl, s.Stream, s.TTLAttr != "")
	}

	// The seeds' stream settings, spelled out: only sessions and events.
	for id, want := range map[data.TableID]data.StreamView{
		data.TableSessions: data.StreamNewAndOld, data.TableEvents: data.StreamNewImage,
		data.TableDelegations: data.StreamNone, data.TableSandboxes: data.StreamNone,
	} {
		td, _ := describe(t, ctx, conn, tables.Name(id))
		got := data.StreamNone
		if td.StreamSpecification != nil && aws.ToBool(td.StreamSpecification.StreamEnabled) {
			got = data.StreamView(td.StreamSpecification.StreamViewType)
		}
		if got != want {
			t.Errorf("%s: stream %q, want %q", id, got, want)
		}
	}
}

func TestCreateTablesIsIdempotentAndLeavesExistingTablesAlone(t *testing.T) {
	ctx, conn, tables := testEnv(t)
	if err := CreateTables(ctx, conn, tables, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// A second call, this time asking for streams everywhere, must succeed
	// and change nothing: existing tables are never modified.
	if err := CreateTables(ctx, conn, tables, CreateOptions{StreamsOnAll: true}); err != nil {
		t.Fatalf("second CreateTables: %v", err)
	}
	for _, s := range data.Schemas() {
		td, ttl := describe(t, ctx, conn, tables.Name(s.ID))
		checkTableMatchesSchema(t, s, td, ttl, s.Stream, s.TTLAttr != "")
	}
}

func TestCreateTablesStreamsOnAll(t *testing.T) {
	ctx, conn, tables := testEnv(t)
	if err := CreateTables(ctx, conn, tables, CreateOptions{StreamsOnAll: true}); err != nil {
		t.Fatal(err)
	}
	checkStreamsOnAll(t, ctx, conn, tables)
}

func TestDeleteTablesRemovesEveryTableAndToleratesMissingOnes(t *testing.T) {
	ctx, conn, tables := testEnv(t)
	if err := CreateTables(ctx, conn, tables, CreateOptions{SkipTTL: true}); err != nil {
		t.Fatal(err)
	}
	if err := DeleteTables(ctx, conn, tables, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range data.Schemas() {
		_, err := conn.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(tables.Name(s.ID))})
		var nf *types.ResourceNotFoundException
		if !errors.As(err, &nf) {
			t.Errorf("%s still exists (err %v)", s.ID, err)
		}
	}
	if err := DeleteTables(ctx, conn, tables, CreateOptions{}); err != nil {
		t.Errorf("deleting absent tables: %v", err)
	}
}

func TestDemoRefusesRemoteAndReadOnlyTargets(t *testing.T) {
	db := dynamodb.New(dynamodb.Options{Region: "us-east-1"})
	ctx := context.Background()
	remote := &data.Conn{DB: db, Region: "eu-west-1"}
	tables, _ := data.ResolveTables("dev", nil)
	if err := CreateTables(ctx, remote, tables, CreateOptions{}); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("CreateTables on AWS: err %v, want a refusal", err)
	}
	if _, err := Seed(ctx, remote, tables, SeedOptions{}); err == nil || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("Seed on AWS: err %v, want a refusal", err)
	}
	ro := &data.Conn{DB: db, Endpoint: "http://127.0.0.1:1", ReadOnly: true}
	if err := CreateTables(ctx, ro, tables, CreateOptions{}); err != data.ErrReadOnly {
		t.Errorf("CreateTables read-only: err %v, want ErrReadOnly", err)
	}
	if err := checkTarget(&data.Conn{DB: db, Endpoint: "http://localhost:8000"}, false); err != nil {
		t.Errorf("localhost refused: %v", err)
	}
}

// checkStreamsOnAll checks every table against its schema as CreateTables
// makes it with StreamsOnAll: the seed's stream where there is one,
// NEW_AND_OLD_IMAGES elsewhere, TTL enabled where the schema has it.
func checkStreamsOnAll(t *testing.T, ctx context.Context, conn *data.Conn, tables data.Tables) {
	t.Helper()
	for _, s := range data.Schemas() {
		want := s.Stream
		if want == data.StreamNone {
			want = data.StreamNewAndOld
		}
		td, ttl := describe(t, ctx, conn, tables.Name(s.ID))
		checkTableMatchesSchema(t, s, td, ttl, want, s.TTLAttr != "")
	}
}

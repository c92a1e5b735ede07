package data

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

// The catalog: what the account holds (ListTables) and what one table is
// (DescribeTable and DescribeTimeToLive), for :tables and :table. A table
// no pane models is browsed through the schema built here
// (TableInfo.Schema, RegisterSchema).

// CatalogAPI is the part of the DynamoDB client the catalog calls;
// Conn.DB (*dynamodb.Client) is one.
type CatalogAPI interface {
	ListTables(context.Context, *dynamodb.ListTablesInput, ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error)
	DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error)
	DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error)
}

// ListTables lists every table name of the account and region, page
// after page (ListTables returns at most 100 a call), in DynamoDB's
// order (by name).
func ListTables(ctx context.Context, db CatalogAPI) ([]string, error) {
	return listTablesPaged(ctx, db, 0)
}

// listTablesPaged is ListTables with pages of at most limit names (0: the
// server's default), so a test can page through a few tables.
func listTablesPaged(ctx context.Context, db CatalogAPI, limit int32) ([]string, error) {
	var names []string
	var start *string
	for {
		in := &dynamodb.ListTablesInput{ExclusiveStartTableName: start}
		if limit > 0 {
			in.Limit = aws.Int32(limit)
		}
		out, err := db.ListTables(ctx, in)
		if err != nil {
			return names, &OpError{Op: "ListTables", Err: err}
		}
		names = append(names, out.TableNames...)
		if out.LastEvaluatedTableName == nil || *out.LastEvaluatedTableName == "" {
			return names, nil
		}
		start = out.LastEvaluatedTableName
	}
}

// TableInfo is what DescribeTable (and DescribeTimeToLive) say of one
// table. Every string is raw server data: sanitise before display.
type TableInfo struct {
	Name   string // physical name
	ARN    string
	Status string // ACTIVE, CREATING, UPDATING, DELETING, ...
	// Schema is the table as a TableSchema: ID is UnmodeledID(Name) (the
	// caller maps a modeled name with Tables.IDFor), keys, GSIs and LSIs
	// (Local) with their projections, stream view, TTL attribute.
	Schema TableSchema
	// StreamARN is the latest stream's ARN ("" when the table never had
	// one); Schema.Stream is its view type, StreamNone when it is off.
	StreamARN string
	// ItemCount and SizeBytes are approximate: AWS refreshes them about
	// every six hours.
	ItemCount, SizeBytes int64
	Created              time.Time
	// Billing is PAY_PER_REQUEST or PROVISIONED ("" when not said).
	Billing string
	// TTLStatus is DescribeTimeToLive's status (ENABLED, DISABLED, ...);
	// "" with TTLErr set when that call failed (refused by a policy, not
	// supported by the endpoint): the TTL attribute is then unknown, not
	// absent.
	TTLStatus string
	TTLErr    error
}

// DescribeTable describes one table by its physical name. The TTL is read
// with DescribeTimeToLive; its failure is kept in TTLErr, not returned.
func DescribeTable(ctx context.Context, db CatalogAPI, name string) (TableInfo, error) {
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	if err != nil {
		return TableInfo{Name: name}, &OpError{Op: "DescribeTable", Table: name, Err: err}
	}
	info := tableInfo(name, out.Table)
	ttl, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(name)})
	switch {
	case err != nil:
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		info.TTLErr = &OpError{Op: "DescribeTimeToLive", Table: name, Err: err}
	case ttl.TimeToLiveDescription != nil:
		d := ttl.TimeToLiveDescription
		info.TTLStatus = string(d.TimeToLiveStatus)
		if d.TimeToLiveStatus == types.TimeToLiveStatusEnabled || d.TimeToLiveStatus == types.TimeToLiveStatusEnabling {
			info.Schema.TTLAttr = aws.ToString(d.AttributeName)
		}
	}
	return info, nil
}

// IsUnsupported reports whether err is the server saying it does not know
// the operation (an emulator without DescribeTimeToLive).
func IsUnsupported(err error) bool {
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.ErrorCode() {
	case "UnknownOperationException", "UnsupportedOperation", "NotImplemented":
		return true
	}
	return false
}

// tableInfo converts a TableDescription (nil-safe).
func tableInfo(name string, t *types.TableDescription) TableInfo {
	info := TableInfo{Name: name}
	info.Schema = TableSchema{ID: UnmodeledID(name), NameTemplate: name}
	if t == nil {
		return info
	}
	info.ARN = aws.ToString(t.TableArn)
	info.Status = string(t.TableStatus)
	info.ItemCount = aws.ToInt64(t.ItemCount)
	info.SizeBytes = aws.ToInt64(t.TableSizeBytes)
	info.Created = aws.ToTime(t.CreationDateTime)
	if t.BillingModeSummary != nil {
		info.Billing = string(t.BillingModeSummary.BillingMode)
	} else if t.ProvisionedThroughput != nil && aws.ToInt64(t.ProvisionedThroughput.ReadCapacityUnits) > 0 {
		info.Billing = string(types.BillingModeProvisioned)
	}
	info.StreamARN = aws.ToString(t.LatestStreamArn)
	if ss := t.StreamSpecification; ss != nil && aws.ToBool(ss.StreamEnabled) {
		info.Schema.Stream = StreamView(ss.StreamViewType)
	}
	defs := map[string]AttrType{}
	for _, d := range t.AttributeDefinitions {
		defs[aws.ToString(d.AttributeName)] = AttrType(d.AttributeType)
	}
	info.Schema.PK, info.Schema.SK = keysOf(t.KeySchema, defs)
	info.Schema.Attrs = map[string]string{}
	for n, ty := range defs {
		info.Schema.Attrs[n] = string(ty)
	}
	for _, g := range t.GlobalSecondaryIndexes {
		pk, sk := keysOf(g.KeySchema, defs)
		info.Schema.Indexes = append(info.Schema.Indexes, Index{Name: aws.ToString(g.IndexName), PK: pk, SK: sk, Projection: projectionOf(g.Projection)})
	}
	for _, l := range t.LocalSecondaryIndexes {
		pk, sk := keysOf(l.KeySchema, defs)
		info.Schema.Indexes = append(info.Schema.Indexes, Index{Name: aws.ToString(l.IndexName), PK: pk, SK: sk, Projection: projectionOf(l.Projection), Local: true})
	}
	return info
}

// keysOf reads a key schema: the HASH key and the RANGE key (nil when
// none), typed by the attribute definitions (S when not defined).
func keysOf(ks []types.KeySchemaElement, defs map[string]AttrType) (pk KeyAttr, sk *KeyAttr) {
	for _, k := range ks {
		name := aws.ToString(k.AttributeName)
		ty := defs[name]
		if ty == "" {
			ty = TypeS
		}
		switch k.KeyType {
		case types.KeyTypeHash:
			pk = KeyAttr{Name: name, Type: ty}
		case types.KeyTypeRange:
			sk = &KeyAttr{Name: name, Type: ty}
		}
	}
	return pk, sk
}

func projectionOf(p *types.Projection) Projection {
	if p == nil {
		return Projection{Type: ProjectAll}
	}
	out := Projection{Type: ProjectionType(p.ProjectionType)}
	if out.Type == "" {
		out.Type = ProjectAll
	}
	if out.Type == ProjectInclude {
		out.NonKey = append([]string(nil), p.NonKeyAttributes...)
	}
	return out
}

// ListTables is the package function on the store's connection.
func (s *Store) ListTables(ctx context.Context) ([]string, error) {
	names, err := ListTables(ctx, s.conn.DB)
	return names, s.endpointed(err)
}

// DescribeTable is the package function on the store's connection. The
// schema's ID is the modeled table's where a pane models name in the
// store's env (Tables.IDFor); an unmodeled table's schema is registered
// (RegisterSchema, replacing an earlier description), so the table can
// be read, decoded and tailed by its id at once.
func (s *Store) DescribeTable(ctx context.Context, name string) (TableInfo, error) {
	info, err := DescribeTable(ctx, s.conn.DB, name)
	info.Schema.ID = s.tables.IDFor(name)
	if err == nil && IsUnmodeled(info.Schema.ID) {
		RegisterSchema(info.Schema)
	}
	return info, s.endpointed(err)
}

// endpointed adds the store's endpoint to an *OpError made without it.
func (s *Store) endpointed(err error) error {
	var oe *OpError
	if errors.As(err, &oe) && oe.Endpoint == "" && s.conn != nil {
		oe.Endpoint = s.conn.Target()
	}
	return err
}

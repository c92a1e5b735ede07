package demo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"opsdeck/data"
)

// SimOptions tunes the traffic simulator.
type SimOptions struct {
	// Rate is transitions per second for Run; zero means 2.
	Rate float64
	// Rand drives every choice; nil means a fixed seed. With the same seed
	// and the same database contents the simulator makes the same moves.
	Rand *rand.Rand
	// Now is the simulator's clock; nil means time.Now.
	Now func() time.Time
	// Logf receives one line per transition and per error; nil discards.
	// It must not write to the terminal while the UI owns it.
	Logf func(format string, args ...any)
	// AllowRemote permits a non-loopback endpoint (see checkTarget).
	AllowRemote bool
}

// Simulator moves the demo's real records through their lifecycles, one
// conditional write at a time, the way the five services would. It never
// overwrites an item blindly: every update and delete is conditioned on the
// values it read, and new items are put only if their key is free. When an
// operator (or anything else) changed the item in between, the condition
// fails and the simulator simply moves on.
//
// A Simulator is not safe for concurrent use: call Step or Run from one
// goroutine.
type Simulator struct {
	conn   *data.Conn
	tables data.Tables
	opts   SimOptions
	g      *gen
	now    func() time.Time
	logf   func(format string, args ...any)
	err    error // from the target check, reported by Step and Run

	// beforeWrite, when set (tests only), runs between reading an item and
	// the conditional write that depends on it, to stage a race.
	beforeWrite func(table data.TableID, key Item)
}

// StepReport describes one transition.
type StepReport struct {
	Kind  string       // e.g. "session.advance", "event.deliver"
	Table data.TableID // the table written (the first one, for two-table moves)
	ID    string       // the record's id (sessionId, event_id, runId, sandbox_id, link, ...)
	Key   Item         // the item's primary key
	From  string       // state before ("" for a new item)
	To    string       // state after ("deleted" for a delete)
	// Skipped is set when nothing was written: the item changed under us
	// (a condition failed) or there was nothing to move.
	Skipped bool
	Reason  string
}

func (r StepReport) String() string {
	if r.Skipped {
		return fmt.Sprintf("%s %s: skipped (%s)", r.Kind, r.ID, r.Reason)
	}
	return fmt.Sprintf("%s %s: %s → %s", r.Kind, r.ID, orNew(r.From), r.To)
}

func orNew(s string) string {
	if s == "" {
		return "(new)"
	}
	return s
}

// NewSimulator prepares a simulator over tables (which must exist and are
// normally seeded).
func NewSimulator(conn *data.Conn, tables data.Tables, opts SimOptions) *Simulator {
	s := &Simulator{conn: conn, tables: tables, opts: opts, now: opts.Now, logf: opts.Logf}
	if s.now == nil {
		s.now = time.Now
	}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	if s.opts.Rate <= 0 {
		s.opts.Rate = 2
	}
	s.g = &gen{r: defaultRand(opts.Rand), now: s.now().UTC()}
	s.err = checkTarget(conn, opts.AllowRemote)
	return s
}

// A transition kind and how often it is picked relative to the others.
type simKind struct {
	name   string
	weight float64
	run    func(s *Simulator, ctx context.Context) (StepReport, error)
}

// errNothingToDo says a kind found no record to move; Step then tries another.
var errNothingToDo = errors.New("nothing to do")

// Weights are tuned so that, at steady state, sessions end about as fast as
// they are created and the sandbox pool neither drains nor overflows.
var simKinds = []simKind{
	{"session.create", 1.2, (*Simulator).sessionCreate},
	{"session.advance", 5, (*Simulator).sessionAdvance},
	{"session.expire", 0.6, (*Simulator).sessionExpire},
	{"event.receive", 2, (*Simulator).eventReceive},
	{"event.deliver", 2.5, (*Simulator).eventDeliver},
	{"event.retry", 0.5, (*Simulator).eventRetry},
	{"run.upload", 0.6, (*Simulator).runUpload},
	{"run.advance", 1.4, (*Simulator).runAdvance},
	{"sandbox.provision", 0.4, (*Simulator).sandboxProvision},
	{"sandbox.allocate", 0.8, (*Simulator).sandboxAllocate},
	{"sandbox.mark", 0.6, (*Simulator).sandboxMark},
	{"sandbox.cleanup", 0.8, (*Simulator).sandboxCleanup},
	{"delegation.new", 0.5, (*Simulator).delegationNew},
	{"space.provision", 0.15, (*Simulator).spaceProvision},
}

// Step performs one transition: it picks a kind at random (by weight), and
// if that kind has nothing to move tries the others in random order. A
// condition failure is not an error: the report says Skipped.
func (s *Simulator) Step(ctx context.Context) (StepReport, error) {
	if s.err != nil {
		return StepReport{}, s.err
	}
	s.g.now = s.now().UTC()
	order := s.order()
	for _, k := range order {
		rep, err := k.run(s, ctx)
		if errors.Is(err, errNothingToDo) {
			continue
		}
		rep.Kind = k.name
		if err != nil {
			return rep, fmt.Errorf("%s: %w", k.name, err)
		}
		s.logf("%s", rep)
		return rep, nil
	}
	return StepReport{Kind: "idle", Skipped: true, Reason: "no record can move"}, nil
}

// do runs one named kind (tests use it to exercise each transition).
func (s *Simulator) do(ctx context.Context, name string) (StepReport, error) {
	if s.err != nil {
		return StepReport{}, s.err
	}
	s.g.now = s.now().UTC()
	for _, k := range simKinds {
		if k.name == name {
			rep, err := k.run(s, ctx)
			rep.Kind = name
			return rep, err
		}
	}
	return StepReport{}, fmt.Errorf("unknown transition %q", name)
}

// order is every kind, the first drawn by weight, the rest shuffled.
func (s *Simulator) order() []simKind {
	total := 0.0
	for _, k := range simKinds {
		total += k.weight
	}
	x := s.g.r.Float64() * total
	first := len(simKinds) - 1
	for i, k := range simKinds {
		if x < k.weight {
			first = i
			break
		}
		x -= k.weight
	}
	rest := make([]simKind, 0, len(simKinds)-1)
	for i, k := range simKinds {
		if i != first {
			rest = append(rest, k)
		}
	}
	s.g.r.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append([]simKind{simKinds[first]}, rest...)
}

// stepTimeout bounds one transition, so a server that stops answering
// cannot wedge Run.
const stepTimeout = 15 * time.Second

// maxErrorPause is the longest Run waits after repeated errors.
const maxErrorPause = 30 * time.Second

// Run performs Rate transitions per second until ctx ends. Errors are logged
// and do not stop it (the server may be briefly unreachable); after each
// consecutive error it waits twice as long before trying again (up to
// maxErrorPause), so a server that is gone is not hammered and the log is not
// flooded. It returns nil when ctx is cancelled, or the target check's error
// at once.
func (s *Simulator) Run(ctx context.Context) error {
	if s.err != nil {
		return s.err
	}
	every := time.Duration(float64(time.Second) / s.opts.Rate)
	t := time.NewTicker(every)
	defer t.Stop()
	var resumeAt time.Time
	pause := every
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if time.Now().Before(resumeAt) {
			continue
		}
		stepCtx, cancel := context.WithTimeout(ctx, stepTimeout)
		_, err := s.Step(stepCtx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			pause = min(pause*2, maxErrorPause)
			resumeAt = time.Now().Add(pause)
			s.logf("error: %v (next attempt in %v)", err, pause.Round(time.Millisecond))
		default:
			pause = every
		}
	}
}

// --- write helpers -------------------------------------------------------

func isConditionFailed(err error) bool {
	var ccf *types.ConditionalCheckFailedException
	return errors.As(err, &ccf)
}

// update runs one conditional UpdateItem. ok is false when the condition
// failed, i.e. the item is no longer as we saw it.
func (s *Simulator) update(ctx context.Context, id data.TableID, key Item, update, cond string, names map[string]string, vals Item) (ok bool, err error) {
	if s.beforeWrite != nil {
		s.beforeWrite(id, key)
	}
	in := &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.tables.Name(id)),
		Key:                       key,
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: vals,
	}
	if len(names) > 0 {
		in.ExpressionAttributeNames = names
	}
	_, err = s.conn.DB.UpdateItem(ctx, in)
	if isConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

// deleteIf deletes key when cond holds.
func (s *Simulator) deleteIf(ctx context.Context, id data.TableID, key Item, cond string, names map[string]string, vals Item) (bool, error) {
	if s.beforeWrite != nil {
		s.beforeWrite(id, key)
	}
	in := &dynamodb.DeleteItemInput{
		TableName:                 aws.String(s.tables.Name(id)),
		Key:                       key,
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeValues: vals,
	}
	if len(names) > 0 {
		in.ExpressionAttributeNames = names
	}
	_, err := s.conn.DB.DeleteItem(ctx, in)
	if isConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

// putNew writes a new item only if no item has its key.
func (s *Simulator) putNew(ctx context.Context, id data.TableID, it Item) (bool, error) {
	pk := data.MustSchema(id).PK.Name
	_, err := s.conn.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                aws.String(s.tables.Name(id)),
		Item:                     it,
		ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
		ExpressionAttributeNames: map[string]string{"#pk": pk},
	})
	if isConditionFailed(err) {
		return false, nil
	}
	return err == nil, err
}

func (s *Simulator) get(ctx context.Context, id data.TableID, key Item) (Item, error) {
	out, err := s.conn.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(s.tables.Name(id)), Key: key, ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, err
	}
	return out.Item, nil
}

// query returns up to limit items of one key condition.
func (s *Simulator) query(ctx context.Context, id data.TableID, index, cond string, names map[string]string, vals Item, limit int32, forward bool) ([]Item, error) {
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.tables.Name(id)),
		KeyConditionExpression:    aws.String(cond),
		ExpressionAttributeValues: vals,
		Limit:                     aws.Int32(limit),
		ScanIndexForward:          aws.Bool(forward),
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	if len(names) > 0 {
		in.ExpressionAttributeNames = names
	}
	out, err := s.conn.DB.Query(ctx, in)
	if err != nil {
		return nil, err
	}
	return out.Items, nil
}

// seenCond adds to cond a clause requiring attr to still hold the value we
// read (whatever its type), or to still be absent.
func seenCond(cond *[]string, names map[string]string, vals Item, attr string, seen Item) {
	ph := fmt.Sprintf("#c%d", len(names))
	names[ph] = attr
	if v, ok := seen[attr]; ok {
		vp := ":seen" + ph[1:]
		vals[vp] = v
		*cond = append(*cond, ph+" = "+vp)
	} else {
		*cond = append(*cond, "attribute_not_exists("+ph+")")
	}
}

// written is the report of a step whose last act was one conditional write.
// A failed condition (ok false, no error) means someone, often the operator,
// changed the item after we read it: the step is skipped, not failed, so the
// simulator never overwrites a concurrent change.
func written(rep StepReport, ok bool, err error) (StepReport, error) {
	if err != nil {
		return rep, err
	}
	if !ok {
		return skipped(rep, changedUnderUs), nil
	}
	return rep, nil
}

func skipped(rep StepReport, reason string) StepReport {
	rep.Skipped, rep.Reason = true, reason
	return rep
}

const changedUnderUs = "the item changed since it was read (condition failed)"

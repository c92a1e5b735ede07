package action

import (
	"context"
	"time"

	"opsdeck/data"
)

// Kind names one guarded transition. It is what the audit log records.
type Kind string

const (
	ReleaseSession      Kind = "release-session"
	RequeueEvent        Kind = "requeue-event"
	MarkEventDelivered  Kind = "mark-event-delivered"
	UnstickEvent        Kind = "unstick-event"
	MarkSandboxDeletion Kind = "mark-sandbox-deletion"
	ExpireSandbox       Kind = "expire-sandbox-allocation"
	MarkRunFailed       Kind = "mark-run-failed"
	DeactivateAPIKey    Kind = "deactivate-api-key"
	ReactivateAPIKey    Kind = "reactivate-api-key"
	DeactivateProject   Kind = "deactivate-project"
	ReactivateProject   Kind = "reactivate-project"
)

// Spec declares one action. Everything outside the action's own file reads
// it from here: the keymap's action keys and the help screen (Key,
// DefaultKey, Verb), the confirmation dialog (Title, Note, Then), read-only
// mode (Dangerous), the outcome messages and the audit log (Kind, Done), and
// the tests that keep README.md and docs/ACTIONS.md true. Adding an action is
// one entry in specs plus its target, check and build.
type Spec struct {
	Kind  Kind
	Table data.TableID // the table the action writes

	// Key is the keymap's name for the key that starts the action
	// ("release"), bound by default to DefaultKey ("x"). Actions may share
	// a key: the row's state picks the one that applies (D marks an
	// allocated sandbox for deletion inside its window and expires it
	// past the window), so
	// they must agree on DefaultKey.
	Key, DefaultKey string

	Title string // "Release session": the dialog's title and question
	Verb  string // "release session": the key's help ("mark for deletion / expire allocation" when shared)
	Done  string // "released": "released sess_1", "not released: …"

	// Dangerous: the action writes, so read-only mode does not offer it and
	// the confirm key may not be its key. Every action so far writes.
	Dangerous bool

	// Note is what happens beyond the write, in one sentence under the
	// dialog's guard.
	Note string

	// The plan. target is the human id of the item; check says, in the
	// action's own words, why it does not apply to the item as seen (nil
	// when it does; PlanFor makes it a *NotApplicableError); build writes the guard and the
	// update, and only fails on malformed items, so it gives the same answer
	// at plan and at execute time.
	target func(seen data.Item) string
	check  func(seen data.Item, now time.Time, o Options) error
	build  func(b *exprBuilder, seen data.Item, now time.Time, o Options) ([]Clause, []setOp, []Change, error)

	// Then, when set, is done after the conditional write succeeded.
	Then *Step
}

// Step is work an action does after its conditional write succeeded,
// outside the table (a release stopping the session's ECS task). It runs
// only when the write happened (also when a lost response was recognised),
// never after a refusal or an error. Its outcome is reported next to the
// write's and audited on a line of its own; it never changes the write's
// outcome: the row was written either way.
type Step struct {
	Name  string // the audit line's step ("stop-ecs-task")
	Title string // the dialog's line ("Stop the session's ECS task")
	// Describe says, for the dialog, what the step will do for the item as
	// seen, or why it will not be able to ("the item has no ecsTaskArn").
	Describe func(seen data.Item, o Options) string
	// Run does the step for the item as written (ALL_NEW, or the item read
	// back when the response was lost). It has its own deadline
	// (stepTimeout), even when the operator's context has ended: the write
	// it follows has happened.
	Run func(ctx context.Context, conn *data.Conn, p Plan, written data.Item) StepResult
}

// StepResult is the outcome of a Step.
type StepResult struct {
	Step string // Step.Name
	OK   bool
	// Message is the one line for the operator: what was done, or that it
	// was not and what to do instead (the exact command line).
	Message string
	// Sent is what the step sent (names and values), for its audit line.
	Sent map[string]string
	Err  error
}

// specs is every action, in the order help lists them.
var specs = append([]Spec{
	{
		Kind: ReleaseSession, Table: data.TableSessions,
		Key: "release", DefaultKey: "x",
		Title: "Release session", Verb: "release session", Done: "released",
		Dangerous: true,
		Note:      "Then the session's Fargate task is stopped, as Wallcrawler's release does; if that fails the session stays released and the message gives the stop-task command.",
		target:    sessionID, check: checkRelease, build: buildRelease,
		Then: stopTaskStep,
	},
	{
		Kind: RequeueEvent, Table: data.TableEvents,
		Key: "requeue", DefaultKey: "R",
		Title: "Requeue event", Verb: "requeue exhausted event", Done: "requeued",
		Dangerous: true,
		Note:      "The retry job reads failed events from StatusIndex (Pattern 5); with retry_count 0 it tries this one again and counts its own attempts.",
		target:    eventID, check: checkRequeueEvent, build: buildRequeueEvent,
	},
	{
		Kind: MarkEventDelivered, Table: data.TableEvents,
		Key: "mark_delivered", DefaultKey: "M",
		Title: "Mark event delivered", Verb: "mark delivered (resolved by hand)", Done: "marked delivered",
		Dangerous: true,
		Note:      "Nothing delivers it: delivered is terminal, for an event resolved by hand; the retry job no longer sees it.",
		target:    eventID, check: checkDeliverEvent, build: buildDeliverEvent,
	},
	{
		Kind: UnstickEvent, Table: data.TableEvents,
		Key: "unstick", DefaultKey: "U",
		Title: "Unstick event", Verb: "unstick retrying event", Done: "back to failed",
		Dangerous: true,
		Note:      "A retrying event whose worker died is seen by no one; back in failed, the retry job takes it up (retry_count kept).",
		target:    eventID, check: checkUnstickEvent, build: buildUnstickEvent,
	},
	{
		Kind: MarkSandboxDeletion, Table: data.TableSandboxes,
		Key: "mark_deletion", DefaultKey: "D",
		Title: "Mark sandbox for deletion", Verb: "mark for deletion", Done: "marked for deletion",
		Dangerous: true,
		Note:      sandboxCleanupNote,
		target:    sandboxID, check: checkMarkSandbox, build: buildMarkSandbox,
	},
	{
		Kind: ExpireSandbox, Table: data.TableSandboxes,
		Key: "mark_deletion", DefaultKey: "D",
		Title: "Expire sandbox allocation", Verb: "expire allocation", Done: "expired",
		Dangerous: true,
		Note:      "Past its window (the broker's 4 hours, or a shorter lab_duration_hours) the broker refuses a mark, so this is what its auto-expiry job does: " + sandboxCleanupNote,
		target:    sandboxID, check: checkExpireSandbox, build: buildExpireSandbox,
	},
	{
		Kind: MarkRunFailed, Table: data.TableGraphRuns,
		Key: "mark_failed", DefaultKey: "F",
		Title: "Mark run failed", Verb: "mark run failed", Done: "marked failed",
		Dangerous: true,
		Note:      "Only the run's metadata changes; its S3 artifacts stay as they are.",
		target:    runID, check: checkMarkRun, build: buildMarkRun,
	},
}, killSwitchSpecs...)

const sandboxCleanupNote = "The broker's cleanup job deletes the sandbox in the ENG CSP and then removes the row."

// Specs lists every action, in the order help lists them. The slice is a
// copy; the Specs in it are values.
func Specs() []Spec { return append([]Spec(nil), specs...) }

// Spec is the declaration of the action k.
func (k Kind) Spec() (Spec, bool) {
	if s := specOf(k); s != nil {
		return *s, true
	}
	return Spec{}, false
}

func specOf(k Kind) *Spec {
	for i := range specs {
		if specs[i].Kind == k {
			return &specs[i]
		}
	}
	return nil
}

// NotDone is a message about this action not happening: "not released:
// <why>". Every outcome that is not a success, or might not be, and says so
// plainly, starts this way.
func (s Spec) NotDone(why string) string { return "not " + s.Done + ": " + why }

// DelegationsReadOnly is why the Delegations pane offers no action: the
// status bar's answer to an action key there, and a line of the help
// screen (short enough for one line of an 80-column terminal).
const DelegationsReadOnly = "Delegations are read-only: revocation is a UCAN invocation, not a table write."

// NoActionReason says why no action is ever offered on a table's rows, for
// the tables that have a reason ("" otherwise).
func NoActionReason(t data.TableID) string { return noActions[t] }

var noActions = map[data.TableID]string{
	data.TableDelegations:   DelegationsReadOnly,
	data.TableSubscriptions: DelegationsReadOnly,
	data.TableConsumers:     DelegationsReadOnly,
}

package action

import "opsdeck/data"

// Kind names one guarded transition.
type Kind string

const (
	ReleaseSession       Kind = "release-session"
	RetryEvent           Kind = "retry-event"
	MarkSandboxDeletion  Kind = "mark-sandbox-deletion"
	RetrySandboxDeletion Kind = "retry-sandbox-deletion"
	MarkRunFailed        Kind = "mark-run-failed"
)

// Kinds lists every action, in the order the help screen shows them.
func Kinds() []Kind {
	return []Kind{ReleaseSession, RetryEvent, MarkSandboxDeletion, RetrySandboxDeletion, MarkRunFailed}
}

// DelegationsReadOnly is what the help screen says about the Delegations
// pane, which offers no action.
const DelegationsReadOnly = "Delegations are read-only here: revoking one is a signed UCAN " +
	"invocation to the upload service, not a table write, so opsdeck never edits these tables."

// Table is the table the action writes to.
func (k Kind) Table() data.TableID {
	switch k {
	case ReleaseSession:
		return data.TableSessions
	case RetryEvent:
		return data.TableEvents
	case MarkSandboxDeletion, RetrySandboxDeletion:
		return data.TableSandboxes
	case MarkRunFailed:
		return data.TableGraphRuns
	}
	return ""
}

// Title is the action's name for menus and dialogs ("Release session").
func (k Kind) Title() string {
	switch k {
	case ReleaseSession:
		return "Release session"
	case RetryEvent:
		return "Retry event"
	case MarkSandboxDeletion:
		return "Mark sandbox for deletion"
	case RetrySandboxDeletion:
		return "Retry sandbox deletion"
	case MarkRunFailed:
		return "Mark run failed"
	}
	return string(k)
}

// done is the past participle used in outcome messages ("released").
func (k Kind) done() string {
	switch k {
	case ReleaseSession:
		return "released"
	case RetryEvent:
		return "queued for retry"
	case MarkSandboxDeletion:
		return "marked for deletion"
	case RetrySandboxDeletion:
		return "queued for deletion again"
	case MarkRunFailed:
		return "marked failed"
	}
	return "done"
}

// Note is a sentence the confirmation dialog adds below the changes, about
// what happens beyond the table write.
func (k Kind) Note() string {
	switch k {
	case ReleaseSession:
		return "The service stops the ECS task when it sees the session leave RUNNING; opsdeck only writes the session row."
	case RetryEvent:
		return "The delivery worker picks the event up from StatusIndex (status#timestamp)."
	case MarkSandboxDeletion, RetrySandboxDeletion:
		return "The broker's cleanup job deletes the sandbox in the ENG CSP and then removes the row."
	case MarkRunFailed:
		return "Only the run's metadata changes; its S3 artifacts stay as they are."
	}
	return ""
}

// kindsFor lists the actions defined on a table.
func kindsFor(t data.TableID) []Kind {
	var out []Kind
	for _, k := range Kinds() {
		if k.Table() == t {
			out = append(out, k)
		}
	}
	return out
}

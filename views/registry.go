package views

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// PaneSpec is one pane as the root knows it: the tab bar, the pane keys,
// the help and the command line are all built from the Registry's specs.
type PaneSpec struct {
	ID PaneID
	// Name is the tab label; Short the label when the tab bar is tight.
	Name, Short string
	// DefaultKey switches to the pane; the keymap calls the binding
	// "pane_" + DefaultKey, so a config file rebinds it by that name.
	DefaultKey string
	// New builds the pane with its scope at start (no I/O: Init loads).
	New func(c *Context, s Scopes) Pane
	// Commands are the command-line commands this pane owns: running one
	// shows the pane.
	Commands []CommandSpec
	// OnDemand: the pane is reached by its commands and its key, not by
	// cycling with tab; its tab shows only while it is shown.
	OnDemand bool
	// ReadOnly: the pane lists rows no action is declared for (tables no
	// pane models): every action key says so and does nothing.
	ReadOnly bool
}

// registered are the panes' files' own registrations (registerPane, in
// their init), each with its place in the tab order: sessions 10, runs 20,
// inbox 30, delegations 40, sandboxes 50; the panes tables' descriptors
// declare (declared.go) follow at declaredOrder; Stream 900, Overview 1000.
var registered []struct {
	order int
	spec  func() PaneSpec
}

// registerPane adds a pane at order in the tab bar. spec is called when
// the registry is built, not in init: the specs' constructors may reach
// PaneID.Name, which reads the registry.
func registerPane(order int, spec func() PaneSpec) {
	registered = append(registered, struct {
		order int
		spec  func() PaneSpec
	}{order, spec})
}

// declaredOrder places the declared panes: after the modeled ones, before
// the Stream pane, in their descriptors' order.
const declaredOrder = 100

// built is the registry as last built, for the data registry's generation
// it was built from: a descriptor registered later (a test's table)
// builds it again.
type built struct {
	gen   uint64
	specs []PaneSpec
}

var (
	builtReg atomic.Pointer[built]
	buildMu  sync.Mutex
)

// Registry lists every pane in tab order: the pane files' registrations
// and a pane for each table whose descriptor declares one. Adding a pane
// is a file (or folder) in views registering itself, or a data.PaneDecl.
func Registry() []PaneSpec {
	gen := data.RegistryGeneration()
	if b := builtReg.Load(); b != nil && b.gen == gen {
		return b.specs
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	type entry struct {
		order int
		spec  PaneSpec
	}
	var all []entry
	for _, r := range registered {
		all = append(all, entry{r.order, r.spec()})
	}
	for _, d := range data.Descriptors() {
		if d.Pane != nil {
			all = append(all, entry{declaredOrder + d.Order, declaredSpec(d)})
		}
	}
	slices.SortStableFunc(all, func(a, b entry) int { return a.order - b.order })
	specs := make([]PaneSpec, len(all))
	for i, e := range all {
		specs[i] = e.spec
	}
	builtReg.Store(&built{gen: gen, specs: specs})
	return specs
}

// Spec is the registry entry of pane id.
func Spec(id PaneID) (PaneSpec, bool) {
	for _, s := range Registry() {
		if s.ID == id {
			return s, true
		}
	}
	return PaneSpec{}, false
}

// Scopes is what each pane lists at start (flags of main). Empty fields
// leave a pane waiting for a command (Runs, Inbox, Delegations) or at its
// default (Sessions: status RUNNING; Sandboxes: status available).
type Scopes struct {
	ProjectID     string // Sessions by project (wins over SessionStatus)
	SessionStatus string // Sessions by status (default RUNNING)

	UserID string // Runs by user
	RunID  string // Runs: one run (when UserID is empty)

	InboxUser   string
	InboxType   string // event-type prefix (EventTypeIndex)
	InboxStatus string // status prefix (StatusIndex)

	Audience string // Delegations by audience
	Customer string // Subscriptions by customer
	Consumer string // Consumers by consumer

	SandboxStatus string // default available
	SandboxTrack  string // wins over SandboxStatus
	SandboxKey    string // wins over SandboxTrack

	// StreamTable narrows the Stream pane to one table ("" = every table).
	StreamTable data.TableID
	// StreamBuffer is how many records the Stream pane keeps
	// (streamview.DefaultBuffer when 0); Location the time zone of its
	// time column (Local when nil; tests fix it).
	StreamBuffer int
	Location     *time.Location

	// Overview configures the overview pane (watched users, windows,
	// alerts).
	Overview OverviewOptions
}

// ArgRule says whether a command takes a positional argument.
type ArgRule int

const (
	ArgNone ArgRule = iota
	ArgOptional
	ArgRequired
)

// CommandSpec is one command of the command line, as data: the parser,
// the completion, the help's usage lines and "did you mean" all read it.
// A pane declares the commands it owns in its PaneSpec; the root's own
// (:q, :audit, :scan) are declared in ui.
type CommandSpec struct {
	Name    string
	Aliases []string
	// Usage is the help line, and follows every error about the command.
	Usage string
	Arg   ArgRule
	// Arg2, when not ArgNone, is a second positional argument after the
	// first (`:event <userId> <sortKey|eventId>`): two keys of one item.
	Arg2 ArgRule
	// ArgOrOptNeeded: the argument and every option are optional, but the
	// command needs at least one of them (`:subscriptions [customer]
	// [provider=<did>]`).
	ArgOrOptNeeded bool
	// TableArg: the argument names a table. It is completed with the
	// table names, given in the schema's spelling, and refused when no
	// table has that name.
	TableArg bool
	// AnyTable: with TableArg, a name no pane models is taken too, as the
	// physical name of a table to browse (`:scan orders`).
	AnyTable bool
	// Opts are the key=value options accepted, in order.
	Opts []OptSpec
	// OneOpt: at most one option, because each selects its own index.
	OneOpt bool
	// Terms: comparison terms (field=value, field<value, … — data.ParseTerm)
	// are accepted after the argument, up to MaxTerms; a word of the form
	// key=value whose key is one of Opts stays that option. The parser
	// validates each term and keeps it as typed in Args.Terms; Run reads
	// them with data.ParseTerms against its own clock.
	Terms bool
	// TermsTable, when set, is the modeled table the terms filter: a term
	// on an attribute its schema does not document is refused (a typo
	// would silently match nothing).
	TermsTable data.TableID
	// Jumps: running the command is a jump — b returns to the pane and
	// scope shown before it (`:tables`, `:table`).
	Jumps bool
	// ArgOrOpt, when set, names the positional argument ("a project id")
	// that may not be given together with an option.
	ArgOrOpt string
	// Words are the keywords accepted after the argument, in any order,
	// each at most once (asc|desc; a format, overwrite, reveal): the
	// parser keeps them, lower-cased, in Args.Words; which ones exclude
	// each other is for Run to say. Completion offers them.
	Words []string
	// Complete offers argument values from what the owning pane shows
	// (ids on screen); nil offers none.
	Complete func(p Pane) []string
	// Complete2 offers values of the second positional argument (Arg2).
	Complete2 func(p Pane) []string
	// Seen is the kind of id the argument is: completion also offers the
	// values of that kind the console has read so far (Context.Seen),
	// whichever pane read them. SeenNone: none.
	Seen IDKind
	// Run does the command on the owning pane, which the root shows.
	// Nil for the root's commands (ui runs those).
	Run func(p Pane, a Args) tea.Cmd
}

// OptSpec is one key=value option of a command.
type OptSpec struct {
	Key string
	// Values are the documented values: completion offers them, and one
	// typed in another case is given in theirs ("running" → RUNNING).
	// Anything else passes exactly as typed.
	Values []string
	// Check validates a value (nil: any). Its error is shown with the
	// command's usage.
	Check func(v string) error
	// Seen is the kind of id the value is (CommandSpec.Seen).
	Seen IDKind
}

// MaxOpts is the most options one command line carries (Args.Opts).
const MaxOpts = 2

// MaxWords is the most keywords one command line carries (Args.Words).
const MaxWords = 3

// MaxTerms is the most comparison terms one command line carries
// (Args.Terms).
const MaxTerms = 8

// TermList is the comparison terms given, in the order typed.
func (a Args) TermList() []string {
	var out []string
	for _, t := range a.Terms {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// HasWord reports whether keyword w was given.
func (a Args) HasWord(w string) bool {
	for _, x := range a.Words {
		if x != "" && x == w {
			return true
		}
	}
	return false
}

// Opt is one option as given.
type Opt struct{ Key, Value string }

// Args is a parsed, validated command line's arguments. It is comparable,
// so tests compare whole parses.
type Args struct {
	Arg string
	// Arg2 is the second positional argument, for commands that take one.
	Arg2 string
	// Words are the CommandSpec.Words given, in the order typed.
	Words [MaxWords]string
	// Opts in the order the command declares them (not as typed).
	Opts [MaxOpts]Opt
	// Terms are the comparison terms (CommandSpec.Terms), as typed.
	Terms [MaxTerms]string
}

// Opt is the value of option k ("" when not given).
func (a Args) Opt(k string) string {
	for _, o := range a.Opts {
		if o.Key == k {
			return o.Value
		}
	}
	return ""
}

// FirstOpt is the one option given to a OneOpt command ("", "" for none).
func (a Args) FirstOpt() (k, v string) { return a.Opts[0].Key, a.Opts[0].Value }

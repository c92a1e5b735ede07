package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// Verb is a command's name, in its canonical spelling.
type Verb string

// The root's own commands (rootCommands); the panes' are declared with
// the panes (views.Registry).
const (
	VerbAudit    Verb = "audit"
	VerbMessages Verb = "messages"
	VerbSort     Verb = "sort"
	VerbExport   Verb = "export"
	VerbScan     Verb = "scan"
	VerbQuit     Verb = "q"
)

// Command is one parsed and validated command line. Args holds only what
// the command's spec accepts, so its Run can trust it.
type Command struct {
	Verb Verb
	views.Args
}

// command is one entry of the command line: its syntax, and who runs it —
// the pane that declared it (shown first), or the root (root).
type command struct {
	views.CommandSpec
	pane views.PaneID
	root func(m Model, a views.Args) (tea.Model, tea.Cmd)
	// rootComplete offers a root command's argument values (nil: none).
	rootComplete func(m Model) []string
}

// commands lists every command, the panes' in tab order then the root's:
// the parser, completion, help and "did you mean" all read it.
func commands() []command {
	var out []command
	for _, p := range views.Registry() {
		for _, c := range p.Commands {
			out = append(out, command{CommandSpec: c, pane: p.ID})
		}
	}
	return append(out, rootCommands()...)
}

// rootCommands are the commands no pane owns.
func rootCommands() []command {
	return append(whereCommands(), []command{
		{CommandSpec: sortSpec, root: func(m Model, a views.Args) (tea.Model, tea.Cmd) { return m.runSort(a) },
			rootComplete: sortCompletions},
		{CommandSpec: exportSpec, root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
			cmd := m.scan.runExport(&m, a)
			return m, cmd
		}},
		{CommandSpec: views.CommandSpec{Name: string(VerbAudit), Usage: ":audit [n]", Arg: views.ArgOptional},
			root: func(m Model, a views.Args) (tea.Model, tea.Cmd) { return m.openAudit(a.Arg) }},
		{CommandSpec: views.CommandSpec{Name: string(VerbMessages), Usage: ":messages"},
			root: func(m Model, _ views.Args) (tea.Model, tea.Cmd) { return m.openMessages() }},
		{CommandSpec: views.CommandSpec{Name: string(VerbWhoAmI), Usage: ":whoami"},
			root: func(m Model, _ views.Args) (tea.Model, tea.Cmd) { return m.openWhoAmI() }},
		{CommandSpec: views.CommandSpec{Name: string(VerbLogin), Usage: ":login"},
			root: func(m Model, _ views.Args) (tea.Model, tea.Cmd) { return m.openLogin() }},
		{CommandSpec: views.CommandSpec{Name: string(VerbQuit), Aliases: []string{"quit", "q!"}, Usage: ":q"},
			root: func(m Model, _ views.Args) (tea.Model, tea.Cmd) {
				cmd := m.act.requestQuit(&m, "")
				return m, cmd
			}},
		{CommandSpec: markSpec, root: runMark},
		{CommandSpec: views.CommandSpec{Name: "goto", Usage: ":goto related|context|back (keys o, O, b)", Arg: views.ArgRequired,
			Complete: func(views.Pane) []string { return []string{"related", "context", "back"} }},
			root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
				switch a.Arg {
				case "related":
					return m.gotoRelated()
				case "context":
					return m.gotoContext()
				case "back":
					return m.jumpBack()
				}
				m.setFlash("goto: want related, context or back — :goto related|context|back", true)
				return m, nil
			}},
		// Last, so that the help's command paragraph at 80×24 keeps :q in view.
		{CommandSpec: scanSpec, root: func(m Model, a views.Args) (tea.Model, tea.Cmd) {
			cmd := m.scan.runScan(&m, a)
			return m, cmd
		}},
	}...)
}

func specFor(word string) (command, bool) {
	w := strings.ToLower(word)
	for _, c := range commands() {
		if c.Name == w || slices.Contains(c.Aliases, w) {
			return c, true
		}
	}
	return command{}, false
}

// ParseCommand parses what the operator typed after ':'. Errors are one line,
// already sanitised for display, and say what would have been right.
func ParseCommand(line string) (Command, error) {
	toks, raws, err := tokenize(line)
	if err != nil {
		return Command{}, err
	}
	if len(toks) == 0 {
		return Command{}, fmt.Errorf("empty command (try :sessions, :runs <userId>, :q)")
	}
	spec, ok := specFor(toks[0])
	if !ok {
		msg := fmt.Sprintf("unknown command \"%s\"", inert.String(toks[0]))
		if s := suggest(toks[0]); s != "" {
			msg += fmt.Sprintf(" (did you mean :%s?)", s)
		} else {
			msg += " (? lists the commands)"
		}
		return Command{}, fmt.Errorf("%s", msg)
	}
	args, err := parseArgs(spec.CommandSpec, toks[1:], raws[1:])
	if err != nil {
		return Command{}, err
	}
	return Command{Verb: Verb(spec.Name), Args: args}, nil
}

// parseArgs checks a command's words against its spec.
// raws[i] is toks[i] with its quotes kept, for comparison terms: a quoted
// value is a string (id="100"), which the unquoted word cannot say.
func parseArgs(spec views.CommandSpec, toks, raws []string) (views.Args, error) {
	var a views.Args
	usage := func(format string, x ...any) error {
		return fmt.Errorf("%s — usage: %s", fmt.Sprintf(format, x...), spec.Usage)
	}
	given := map[string]string{}
	var first string // the first option given
	nTerms := 0
	for i, t := range toks {
		if isTerm, err := addTerm(spec, &a, &nTerms, raws[i]); err != nil {
			return a, usage("%s", err.Error())
		} else if isTerm {
			continue
		}
		if k, v, isOpt := strings.Cut(t, "="); isOpt && isOptKey(k) {
			k = strings.ToLower(k)
			i := slices.IndexFunc(spec.Opts, func(o views.OptSpec) bool { return o.Key == k })
			if i < 0 {
				if len(spec.Opts) == 0 {
					return a, usage(":%s takes no options (got \"%s\")", spec.Name, inert.String(t))
				}
				return a, usage("unknown option \"%s\" for :%s", inert.String(k), spec.Name)
			}
			if v == "" {
				return a, usage("%s= needs a value", k)
			}
			if _, twice := given[k]; twice {
				return a, usage("%s= given twice", k)
			}
			if spec.OneOpt && first != "" {
				return a, usage("give %s= or %s=, not both: each is served by its own index", first, k)
			}
			o := spec.Opts[i]
			if o.Check != nil {
				if err := o.Check(v); err != nil {
					return a, usage("%s", err.Error())
				}
			}
			given[k] = canonical(o.Values, v)
			if first == "" {
				first = k
			}
			continue
		}
		// Keywords follow the argument, or stand alone on a command
		// that takes none (`:overview envs`).
		if (a.Arg != "" || spec.Arg == views.ArgNone) && len(spec.Words) > 0 {
			if err := addWord(spec, &a, t); err != nil {
				return a, usage("%s", err.Error())
			}
			continue
		}
		if spec.Arg == views.ArgNone {
			return a, usage(":%s takes no argument \"%s\"", spec.Name, inert.String(t))
		}
		if a.Arg != "" && spec.Arg2 != views.ArgNone && a.Arg2 == "" {
			a.Arg2 = t
			continue
		}
		if a.Arg != "" {
			return a, usage("too many arguments (\"%s\")", inert.String(t))
		}
		a.Arg = t
	}
	if spec.Arg == views.ArgRequired && a.Arg == "" {
		return a, usage(":%s needs an argument", spec.Name)
	}
	if spec.Arg2 == views.ArgRequired && a.Arg2 == "" {
		return a, usage(":%s needs a second argument", spec.Name)
	}
	if spec.ArgOrOptNeeded && a.Arg == "" && first == "" {
		return a, usage(":%s needs an argument or an option", spec.Name)
	}
	if spec.ArgOrOpt != "" && a.Arg != "" && first != "" {
		return a, usage("give %s or %s=, not both", spec.ArgOrOpt, first)
	}
	if spec.TableArg && a.Arg != "" {
		id, ok := tableID(a.Arg)
		switch {
		case !ok && spec.AnyTable && physicalName(a.Arg):
			id = data.TableID(a.Arg) // a physical name: the command resolves it
		case !ok:
			return a, usage("unknown table \"%s\" (tab completes table names)", inert.String(a.Arg))
		}
		a.Arg = string(id)
	}
	n := 0
	for _, o := range spec.Opts {
		if v, ok := given[o.Key]; ok {
			if n == len(a.Opts) {
				return a, usage("at most %d options", len(a.Opts))
			}
			a.Opts[n] = views.Opt{Key: o.Key, Value: v}
			n++
		}
	}
	return a, nil
}

// addWord keeps keyword t of a command that takes Words.
func addWord(spec views.CommandSpec, a *views.Args, t string) error {
	w := strings.ToLower(t)
	if !slices.Contains(spec.Words, w) {
		return fmt.Errorf("unknown word \"%s\" (expected %s)", inert.String(t), strings.Join(spec.Words, ", "))
	}
	for i, x := range a.Words {
		switch x {
		case w:
			return fmt.Errorf("%s given twice", w)
		case "":
			a.Words[i] = w
			return nil
		}
	}
	return fmt.Errorf("at most %d words after the argument", len(a.Words))
}

// isOptKey tells "status=RUNNING" (an option) from an id that merely contains
// '=' somewhere (base64 ids do): only the option names of some verb count.
func isOptKey(k string) bool {
	k = strings.ToLower(k)
	for _, c := range commands() {
		for _, o := range c.Opts {
			if o.Key == k {
				return true
			}
		}
	}
	return false
}

// canonical is val in the spelling of the documented value it names
// (case aside); anything else exactly as typed.
func canonical(known []string, val string) string {
	for _, k := range known {
		if strings.EqualFold(k, val) {
			return k
		}
	}
	return val
}

func tableID(s string) (data.TableID, bool) {
	for _, id := range data.TableIDs() {
		if strings.EqualFold(string(id), s) {
			return id, true
		}
	}
	return "", false
}

func tableNames() []string {
	var out []string
	for _, id := range data.TableIDs() {
		out = append(out, string(id))
	}
	return out
}

func verbNames() []string {
	var out []string
	for _, c := range commands() {
		out = append(out, c.Name)
	}
	return out
}

// suggest returns the verb the operator most likely meant: a unique verb
// starting with what was typed, or one edit away.
func suggest(word string) string {
	w := strings.ToLower(word)
	var best string
	bestD := 3
	for _, c := range commands() {
		name := c.Name
		if len(w) >= 2 && strings.HasPrefix(name, w) {
			return name
		}
		if d := editDistance(w, name); d < bestD {
			best, bestD = name, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// tokenize splits on spaces; double quotes group a value that contains
// spaces (tenant data can), and \" escapes a quote inside them. raws are
// the same words with their quotes kept as typed (a comparison term's
// quoted value is a string: data.ParseTerm reads the quotes).
func tokenize(line string) (toks, raws []string, err error) {
	var cur, raw strings.Builder
	inQuote, have := false, false
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case inQuote && r == '\\' && i+1 < len(rs) && rs[i+1] == '"':
			cur.WriteRune('"')
			raw.WriteString(`\"`)
			i++
		case r == '"':
			inQuote = !inQuote
			have = true
			raw.WriteRune(r)
		case !inQuote && unicode.IsSpace(r):
			if have {
				toks, raws = append(toks, cur.String()), append(raws, raw.String())
				cur.Reset()
				raw.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			raw.WriteRune(r)
			have = true
		}
	}
	if inQuote {
		return nil, nil, fmt.Errorf("unterminated quote")
	}
	if have {
		toks, raws = append(toks, cur.String()), append(raws, raw.String())
	}
	return toks, raws, nil
}

// Usage lists every command's usage, for the help screen.
func Usage() []string {
	var out []string
	for _, c := range commands() {
		out = append(out, c.Usage)
	}
	return out
}

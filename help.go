package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"charm.land/bubbles/v2/key"

	"opsdeck/ui"
)

// version is set at build time (the Makefile passes
// -ldflags "-X main.version=…", from git describe); a plain `go build`
// leaves "dev", and versionText adds the commit Go recorded, if any.
var version = "dev"

// versionText is what --version prints.
func versionText() string {
	v := version
	if v == "dev" {
		if info, ok := debug.ReadBuildInfo(); ok {
			var rev, dirty string
			for _, s := range info.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					if s.Value == "true" {
						dirty = ", modified"
					}
				}
			}
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if rev != "" {
				v += " (" + rev + dirty + ")"
			}
		}
	}
	return fmt.Sprintf("opsdeck %s %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// helpExamples are the command lines an on-call engineer starts with.
var helpExamples = [][2]string{
	{"opsdeck --demo", "try it: DynamoDB Local, the demo world and live traffic"},
	{"opsdeck --profile prod-ro --region eu-west-1 --env prod --read-only", "look at production without the power to write"},
	{"opsdeck --endpoint-url http://127.0.0.1:8000 --env dev", "a DynamoDB Local you run yourself"},
	{"opsdeck --config ~/ops/opsdeck.yaml --theme light", "another config file, the light theme"},
	{"opsdeck --debug-log /tmp/opsdeck.log", "every AWS call and the start-up timeline in a file"},
	{"opsdeck iam-policy read-only --env prod --account 123456789012", "print the env's least-privilege IAM policy (operator: with the writes)"},
}

// writeHelp is --help: what opsdeck is, the flags, examples, the keys and
// the commands. It is generated from the flag set, the keymap and the
// command table, so it lists what actually works.
func writeHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintln(w, "opsdeck — a terminal console for the five DynamoDB-backed services: live state,")
	fmt.Fprintln(w, "a live tail of every table's changes, and guarded one-key fixes.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: opsdeck [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Flags:")
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if name != "" {
			head += " " + name
		}
		fmt.Fprintln(w, head)
		for _, l := range strings.Split(usage, "\n") {
			fmt.Fprintln(w, "      "+l)
		}
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, "      (default %s)\n", f.DefValue)
		}
	})
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Examples:")
	for _, e := range helpExamples {
		fmt.Fprintf(w, "  %s\n      %s\n", e[0], e[1])
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Keys (rebind them in the config file's keys: section):")
	for _, group := range ui.DefaultKeys().FullHelp() {
		for _, b := range group {
			writeKey(w, b)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands (press : in the console; tab completes):")
	for _, u := range ui.Usage() {
		fmt.Fprintln(w, "  "+u)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Filter (press /): words that must all match — text, !text (without), ~regex,")
	fmt.Fprintln(w, "  field=value, field!=value, field~regex; a field is a column (key or title) or an")
	fmt.Fprintln(w, "  attribute; quote spaces: name=\"a b\".")
	fmt.Fprintf(w, "Sort: %s then a column's number (again reverses, 0 the natural order), or :sort.\n", ui.DefaultKeys().SortColumn.Help().Key)
}

func writeKey(w io.Writer, b key.Binding) {
	h := b.Help()
	if h.Key == "" || !b.Enabled() {
		return
	}
	fmt.Fprintf(w, "  %-12s %s\n", h.Key, h.Desc)
}

// helpOut is where --help and --version write (tests replace it).
var helpOut io.Writer = os.Stdout

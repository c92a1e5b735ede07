package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestHelpListsFlagsExamplesKeysAndCommands(t *testing.T) {
	var out bytes.Buffer
	defer func(w io.Writer) { helpOut = w }(helpOut)
	helpOut = &out
	for _, arg := range []string{"--help", "-h"} {
		out.Reset()
		if rc := run([]string{arg}); rc != 0 {
			t.Fatalf("%s: exit %d", arg, rc)
		}
		text := out.String()
		for _, want := range []string{
			"Usage: opsdeck [flags]",
			"--profile string", "--read-only", "--version", "--demo-rate float", "(default 2)",
			"Examples:", "opsdeck --demo",
			"Keys", "enter        open detail", "#            sort by column #", "space        mark row, move down",
			"x            release session", // an action key, from the declarations
			"Commands", ":export <file> [jsonl|csv|ddb] [overwrite] [reveal]", ":sort [column [asc|desc]]",
			"Filter (press /)",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: help lacks %q", arg, want)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	defer func(w io.Writer, v string) { helpOut, version = w, v }(helpOut, version)
	helpOut, version = &out, "v1.2.3-test"
	if rc := run([]string{"--version"}); rc != 0 {
		t.Fatalf("exit %d", rc)
	}
	if got := out.String(); !strings.HasPrefix(got, "opsdeck v1.2.3-test ") {
		t.Errorf("--version printed %q", got)
	}
}

package ddblocal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseJavaMajor(t *testing.T) {
	cases := []struct {
		out  string
		want int
		ok   bool
	}{
		{`openjdk version "17.0.15" 2025-04-15`, 17, true},
		{`openjdk version "21" 2023-09-19`, 21, true},
		{`java version "1.8.0_392"`, 8, true},
		{`openjdk version "11.0.2" 2019-01-15`, 11, true},
		{"Picked up JAVA_TOOL_OPTIONS: -Xmx1g\nopenjdk version \"22.0.1\"", 22, true},
		{`command not found`, 0, false},
		{``, 0, false},
	}
	for _, c := range cases {
		got, ok := parseJavaMajor(c.out)
		if got != c.want || ok != c.ok {
			t.Errorf("parseJavaMajor(%q) = %d,%v want %d,%v", c.out, got, ok, c.want, c.ok)
		}
	}
}

func TestFindJavaMissingSaysWhatToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	_, err := FindJava(context.Background())
	if !errors.Is(err, ErrNoJava) || !strings.Contains(err.Error(), "openjdk-17-jre-headless") {
		t.Fatalf("want ErrNoJava with an install hint, got %v", err)
	}
}

func TestFindJavaTooOld(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho 'java version \"1.8.0_392\"' >&2\n"
	if err := os.WriteFile(filepath.Join(bin, "java"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("JAVA_HOME", home)
	_, err := FindJava(context.Background())
	if !errors.Is(err, ErrNoJava) || !strings.Contains(err.Error(), "Java 8") || !strings.Contains(err.Error(), "openjdk-17-jre-headless") {
		t.Fatalf("want a too-old error naming Java 8 and the fix, got %v", err)
	}
}

package ddblocal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// MinJava is the oldest Java that runs this DynamoDB Local release.
const MinJava = 17

// JavaHint is the one-line instruction printed when Java is missing or old.
const JavaHint = "install a Java 17+ runtime, e.g. `apt-get install openjdk-17-jre-headless` on Debian"

// ErrNoJava is wrapped by the error FindJava returns when no usable Java exists.
var ErrNoJava = errors.New("no Java 17+ runtime found")

// FindJava locates a java binary ($JAVA_HOME/bin/java, else java on PATH)
// and checks that it is version 17 or newer.
func FindJava(ctx context.Context) (string, error) {
	java := ""
	if home := os.Getenv("JAVA_HOME"); home != "" {
		cand := filepath.Join(home, "bin", "java")
		if fi, err := os.Stat(cand); err == nil && !fi.IsDir() {
			java = cand
		}
	}
	if java == "" {
		p, err := exec.LookPath("java")
		if err != nil {
			return "", fmt.Errorf("%w: `java` is not on PATH and $JAVA_HOME is not set: %s", ErrNoJava, JavaHint)
		}
		java = p
	}
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: `%s -version` failed (%v): %s", ErrNoJava, java, err, JavaHint)
	}
	major, ok := parseJavaMajor(string(out))
	if !ok {
		return "", fmt.Errorf("%w: cannot read the version from `%s -version` (%q): %s", ErrNoJava, java, firstLine(string(out)), JavaHint)
	}
	if major < MinJava {
		return "", fmt.Errorf("%w: %s is Java %d, DynamoDB Local needs %d+: %s", ErrNoJava, java, major, MinJava, JavaHint)
	}
	return java, nil
}

var javaVersionRE = regexp.MustCompile(`version "([0-9]+)(?:\.([0-9]+))?`)

// parseJavaMajor reads the major version from `java -version` output:
// `openjdk version "17.0.15"` is 17, the old `java version "1.8.0_392"` is 8.
func parseJavaMajor(out string) (int, bool) {
	m := javaVersionRE.FindStringSubmatch(out)
	if m == nil {
		return 0, false
	}
	major, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, false
	}
	if major == 1 && m[2] != "" {
		major, err = strconv.Atoi(m[2])
		if err != nil {
			return 0, false
		}
	}
	return major, true
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

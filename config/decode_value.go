// The decoder's value readers: one method per kind of scalar a section
// holds (strings, names, regions, URLs, themes, booleans, bounded integers,
// durations and floats, lists, one-of choices), each naming the line of a bad
// value. Split from decode.go, which walks the file's sections: the sections
// say where a value goes, these say what a valid one is.

package config

import (
	"fmt"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// scalar demands a non-null scalar: `env:` with nothing after it is more
// likely a mistake than a wish for the default.
func (d *decoder) scalar(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", d.errf(n, "%s must be a single value, not %s", what, describe(n))
	}
	if isNull(n) {
		return "", d.errf(n, "%s has no value (delete the line to use the default)", what)
	}
	return n.Value, nil
}

func (d *decoder) str(n *yaml.Node, what string, dst *string) error {
	s, err := d.scalar(n, what)
	if err != nil {
		return err
	}
	// A profile or key named 1 is text to us; true/false is not.
	if n.Tag != "!!str" && n.Tag != "!!int" && n.Tag != "!!float" {
		return d.errf(n, "%s must be text, not %s (quote it if you mean %q)", what, describe(n), s)
	}
	if strings.TrimSpace(s) == "" {
		return d.errf(n, "%s is empty", what)
	}
	if strings.ContainsFunc(s, isControl) {
		return d.errf(n, "%s contains control characters", what)
	}
	*dst = s
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// nameChars reports whether s is between lo and hi bytes of letters,
// digits, '_', '-' and '.', the characters of DynamoDB table names. (A
// regular expression with {3,255} compiles into 255 copies of the class:
// milliseconds of every start-up.)
func nameChars(s string, lo, hi int) bool {
	if len(s) < lo || len(s) > hi {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
		if !ok {
			return false
		}
	}
	return true
}

// Env names become part of table names, so they must be valid there: 1 to
// 64 of the table name characters.

func (d *decoder) envName(n *yaml.Node, what string, dst *string) error {
	var s string
	if err := d.str(n, what, &s); err != nil {
		return err
	}
	if !nameChars(s, 1, 64) {
		return d.errf(n, "%s %q: use letters, digits, '_', '-' or '.' (it goes into table names)", what, s)
	}
	*dst = s
	return nil
}

var regionRE = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`)

func (d *decoder) region(n *yaml.Node, dst *string) error { return d.regionNamed(n, "region", dst) }

func (d *decoder) regionNamed(n *yaml.Node, what string, dst *string) error {
	var s string
	if err := d.str(n, what, &s); err != nil {
		return err
	}
	if !ValidRegion(s) {
		return d.errf(n, "%s %q does not look like an AWS region (e.g. us-east-1)", what, s)
	}
	*dst = s
	return nil
}

// ValidRegion reports whether s has the shape of an AWS region name
// (us-east-1, eu-central-2, us-gov-west-1). Whether the region exists is
// for AWS to say.
func ValidRegion(s string) bool { return regionRE.MatchString(s) }

func (d *decoder) endpointURL(n *yaml.Node, dst *string) error {
	return d.endpointURLNamed(n, "endpoint_url", dst)
}

func (d *decoder) endpointURLNamed(n *yaml.Node, what string, dst *string) error {
	var s string
	if err := d.str(n, what, &s); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		shown := fmt.Sprintf("%q", s)
		if strings.Contains(s, "@") { // may carry a password: do not echo it
			shown = "(value not shown: it contains user information)"
		}
		return d.errf(n, "%s %s must be an http:// or https:// URL with a host", what, shown)
	}
	*dst = s
	return nil
}

func (d *decoder) theme(n *yaml.Node, dst *string) error {
	var s string
	if err := d.str(n, "theme", &s); err != nil {
		return err
	}
	if !slices.Contains(Themes, s) {
		return d.errf(n, "theme %q: want one of %s", s, strings.Join(Themes, ", "))
	}
	*dst = s
	return nil
}

// boolean accepts only YAML 1.2 booleans (true/false): "yes", "on" or
// "1" are errors rather than guesses.
func (d *decoder) boolean(n *yaml.Node, what string, dst *bool) error {
	s, err := d.scalar(n, what)
	if err != nil {
		return err
	}
	if n.Tag != "!!bool" {
		return d.errf(n, "%s must be true or false, not %q", what, s)
	}
	b, err := strconv.ParseBool(strings.ToLower(s))
	if err != nil {
		return d.errf(n, "%s must be true or false, not %q", what, s)
	}
	*dst = b
	return nil
}

// intIn reads a whole number within [lo, hi]. Every number in the file has
// such a range: a value far outside it is a typo or a misunderstanding, and
// some would hurt (a Stream buffer of 10⁸ records is allocated at start and
// takes the machine's memory with it). unit and why finish the message.
//
// A whole number written as 1e4 or 10000.0 is still a whole number and is
// accepted; hexadecimal and octal forms are refused rather than guessed
// (strconv's base 0 would read 010 as 8).
func (d *decoder) intIn(n *yaml.Node, what string, lo, hi int64, unit, why string, dst *int) error {
	s, err := d.scalar(n, what)
	if err != nil {
		return err
	}
	outOfRange := func(got string) error {
		return d.errf(n, "%s %s is out of range: use %d to %d %s (%s)", what, got, lo, hi, unit, why)
	}
	var v int64
	switch n.Tag {
	case "!!int":
		digits := strings.ReplaceAll(s, "_", "")
		if !decimalRE.MatchString(digits) {
			return d.errf(n, "%s %q: write it as a decimal number", what, s)
		}
		v, err = strconv.ParseInt(strings.TrimPrefix(digits, "+"), 10, 64)
		if err != nil { // more digits than int64 holds
			return outOfRange(s)
		}
	case "!!float":
		f, ok := new(big.Float).SetString(strings.ReplaceAll(s, "_", ""))
		if !ok || !f.IsInt() {
			return d.errf(n, "%s must be a whole number of %s, not %s", what, unit, s)
		}
		i, acc := f.Int64()
		if acc != big.Exact {
			return outOfRange(s)
		}
		v = i
	default:
		return d.errf(n, "%s must be a whole number of %s, not %s", what, unit, describe(n))
	}
	if v < lo || v > hi {
		return outOfRange(strconv.FormatInt(v, 10))
	}
	*dst = int(v)
	return nil
}

var decimalRE = regexp.MustCompile(`^[+-]?[0-9]+$`)

// durationIn reads a duration with a unit, within [lo, hi].
func (d *decoder) durationIn(n *yaml.Node, what string, lo, hi time.Duration, why string, dst *time.Duration) error {
	s, err := d.scalar(n, what)
	if err != nil {
		return err
	}
	if n.Tag != "!!str" {
		// A bare 250 could mean ms or s; make the unit explicit.
		return d.errf(n, "%s must be a duration with a unit, like 250ms or 5s, not %q", what, s)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return d.errf(n, "%s %q is not a duration (like 250ms, 5s or 1m)", what, s)
	}
	if v < lo || v > hi {
		return d.errf(n, "%s %s is out of range: use %s to %s (%s)", what, s, lo, hi, why)
	}
	*dst = v
	return nil
}

func (d *decoder) stringList(n *yaml.Node, what string, each func(item *yaml.Node) error) error {
	n = resolve(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return d.errf(n, "%s must be a list like [a, b], not %s", what, describe(n))
	}
	for _, item := range n.Content {
		if err := each(resolve(item)); err != nil {
			return err
		}
	}
	return nil
}

// floatIn reads a number within [lo, hi].
func (d *decoder) floatIn(n *yaml.Node, what string, lo, hi float64, unit, why string, dst *float64) error {
	s, err := d.scalar(n, what)
	if err != nil {
		return err
	}
	if n.Tag != "!!int" && n.Tag != "!!float" {
		return d.errf(n, "%s must be a number of %s, not %s", what, unit, describe(n))
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil || math.IsNaN(v) || strings.HasPrefix(strings.TrimLeft(s, "+-"), "0x") || strings.HasPrefix(strings.TrimLeft(s, "+-"), "0o") {
		return d.errf(n, "%s %q: write it as a decimal number", what, s)
	}
	if v < lo || v > hi {
		return d.errf(n, "%s %s is out of range: use %s to %s %s (%s)", what, s,
			strconv.FormatFloat(lo, 'f', -1, 64), strconv.FormatFloat(hi, 'f', -1, 64), unit, why)
	}
	*dst = v
	return nil
}

// oneOf reads one of a fixed set of words.
func (d *decoder) oneOf(n *yaml.Node, what string, allowed []string, dst *string) error {
	var s string
	if err := d.str(n, what, &s); err != nil {
		return err
	}
	if !slices.Contains(allowed, s) {
		return d.errf(n, "%s %q: want one of %s", what, s, strings.Join(allowed, ", "))
	}
	*dst = s
	return nil
}

// describe names a node's shape for error messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!bool":
			return "a boolean"
		case "!!int", "!!float":
			return "a number"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}

// Over 400 lines on purpose: the strict decoder of the one config file, a
// method per section, every error naming its line.

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

// decoder walks the yaml.Node tree by hand rather than unmarshalling into
// structs: that is what lets every error, and every tables/keys entry, carry
// its line number.
type decoder struct {
	path string
	c    *Config
}

func (d *decoder) errf(n *yaml.Node, format string, args ...any) error {
	return &Error{Path: d.path, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

// resolve follows aliases (*anchor) to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// pairs iterates a mapping's key/value pairs, rejecting non-string keys and
// duplicates (yaml.v3 only catches those when decoding into Go values).
func (d *decoder) pairs(n *yaml.Node, what string, fn func(k, v *yaml.Node) error) error {
	n = resolve(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.errf(n, "%s must be a mapping (key: value lines), not %s", what, describe(n))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			return d.errf(k, "%s: keys must be plain names", what)
		}
		if prev, dup := seen[k.Value]; dup {
			return d.errf(k, "%s: %q is set twice (first on line %d)", what, k.Value, prev)
		}
		seen[k.Value] = k.Line
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) top(doc *yaml.Node) error {
	root := doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil
		}
		root = root.Content[0]
	}
	c := d.c
	return d.pairs(root, "the config file", func(k, v *yaml.Node) error {
		c.Lines[k.Value] = k.Line
		switch k.Value {
		case "env":
			return d.envName(v, "env", &c.Env)
		case "profile":
			return d.str(v, "profile", &c.Profile)
		case "region":
			return d.region(v, &c.Region)
		case "endpoint_url":
			return d.endpointURL(v, &c.EndpointURL)
		case "theme":
			return d.theme(v, &c.Theme)
		case "read_only":
			return d.boolean(v, "read_only", &c.ReadOnly)
		case "protected":
			return d.protected(v)
		case "envs":
			return d.envs(v)
		case "tables":
			return d.tables(v)
		case "keys":
			return d.keys(v)
		case "actions":
			return d.actions(v)
		case "stream":
			return d.stream(v)
		case "watch":
			return d.watch(v)
		case "overview":
			return d.overview(v)
		case "alerts":
			return d.alerts(v)
		}
		return d.errf(k, "unknown key %q (known: %s)", k.Value, strings.Join(topKeys, ", "))
	})
}

var topKeys = []string{"env", "profile", "region", "endpoint_url", "theme", "read_only", "protected", "envs", "tables", "keys", "actions", "stream", "watch", "overview", "alerts"}

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

func (d *decoder) protected(n *yaml.Node) error {
	d.c.Protected = nil
	return d.stringList(n, "protected", func(item *yaml.Node) error {
		var env string
		if err := d.envName(item, "protected entry", &env); err != nil {
			return err
		}
		d.c.Protected = append(d.c.Protected, env)
		return nil
	})
}

func (d *decoder) envs(n *yaml.Node) error {
	return d.pairs(n, "envs", func(k, v *yaml.Node) error {
		var name string
		if err := d.envName(k, "envs key", &name); err != nil {
			return err
		}
		e := EnvConfig{Line: k.Line}
		err := d.pairs(v, "envs."+name, func(k2, v2 *yaml.Node) error {
			var b bool
			what := "envs." + name + "." + k2.Value
			switch k2.Value {
			case "read_only":
				if err := d.boolean(v2, what, &b); err != nil {
					return err
				}
				e.ReadOnly = &b
			case "protected":
				if err := d.boolean(v2, what, &b); err != nil {
					return err
				}
				e.Protected = &b
			case "profile":
				return d.str(v2, what, &e.Profile)
			case "region":
				return d.regionNamed(v2, what, &e.Region)
			case "endpoint_url":
				return d.endpointURLNamed(v2, what, &e.EndpointURL)
			case "color":
				return d.color(v2, what, &e.Color)
			default:
				return d.errf(k2, "envs.%s: unknown key %q (known: %s)", name, k2.Value, strings.Join(envKeys, ", "))
			}
			return nil
		})
		if err != nil {
			return err
		}
		d.c.Envs[name] = e
		return nil
	})
}

var envKeys = []string{"read_only", "protected", "profile", "region", "endpoint_url", "color"}

var hexColorRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// color reads a colour: "#rgb", "#rrggbb" or an ANSI number 0-255. Colour
// names are refused rather than guessed: terminals disagree on them.
func (d *decoder) color(n *yaml.Node, what string, dst *string) error {
	s, err := d.scalar(n, what)
	if err != nil {
		return err
	}
	if n.Tag == "!!int" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v > 255 || !decimalRE.MatchString(s) {
			return d.errf(n, "%s %s: an ANSI colour number is 0 to 255", what, s)
		}
		*dst = strconv.Itoa(v)
		return nil
	}
	if n.Tag != "!!str" || !hexColorRE.MatchString(s) {
		return d.errf(n, "%s %q: write a colour as \"#rrggbb\" (quoted: # starts a comment) or an ANSI number 0-255", what, s)
	}
	*dst = strings.ToLower(s)
	return nil
}

// DynamoDB's own rule for table names: 3 to 255 of its characters.

func (d *decoder) tables(n *yaml.Node) error {
	return d.pairs(n, "tables", func(k, v *yaml.Node) error {
		id := k.Value
		var name string
		if err := d.str(v, "tables."+id, &name); err != nil {
			return err
		}
		if !nameChars(name, 3, 255) {
			return d.errf(v, "tables.%s: %q is not a valid DynamoDB table name (3-255 of letters, digits, '_', '-', '.')", id, name)
		}
		d.c.Tables[id] = name
		d.c.TableLines[id] = k.Line
		return nil
	})
}

func (d *decoder) keys(n *yaml.Node) error {
	return d.pairs(n, "keys", func(k, v *yaml.Node) error {
		action := k.Value
		spec := KeySpec{Line: k.Line}
		add := func(item *yaml.Node) error {
			var key string
			if err := d.str(item, "keys."+action, &key); err != nil {
				return err
			}
			spec.Keys = append(spec.Keys, key)
			return nil
		}
		// Both `quit: q` and `quit: [q, ctrl+c]` read naturally.
		var err error
		if v.Kind == yaml.ScalarNode && !isNull(v) {
			err = add(v)
		} else {
			err = d.stringList(v, "keys."+action, add)
		}
		if err != nil {
			return err
		}
		if len(spec.Keys) == 0 {
			return d.errf(k, "keys.%s: no keys given (an action with no key could never run)", action)
		}
		d.c.Keys[action] = spec
		return nil
	})
}

func (d *decoder) actions(n *yaml.Node) error {
	return d.pairs(n, "actions", func(k, v *yaml.Node) error {
		switch k.Value {
		case "retry_max":
			return d.intIn(v, "actions.retry_max", Limits.RetryMax[0], Limits.RetryMax[1], "retries",
				"0 would call every failed event exhausted and offer Requeue on it; the delivery worker gives up long before 100", &d.c.Actions.RetryMax)
		case "stale_run_minutes":
			return d.intIn(v, "actions.stale_run_minutes", Limits.StaleRunMinutes[0], Limits.StaleRunMinutes[1], "minutes",
				"an analysis Lambda can run for 15 minutes, so a quieter run may still be alive", &d.c.Actions.StaleRunMinutes)
		}
		return d.errf(k, "actions: unknown key %q (known: retry_max, stale_run_minutes)", k.Value)
	})
}

var streamKeys = []string{"poll_interval", "idle_poll_max", "table_idle_rate", "slow_interval", "background",
	"max_calls_per_second", "throttle_backoff", "throttle_backoff_max", "etiquette", "buffer", "fallback_interval"}

func (d *decoder) stream(n *yaml.Node) error {
	c := &d.c.Stream
	lines := map[string]*yaml.Node{}
	err := d.pairs(n, "stream", func(k, v *yaml.Node) error {
		lines[k.Value] = v
		d.c.Lines["stream."+k.Value] = k.Line
		switch k.Value {
		case "poll_interval":
			return d.durationIn(v, "stream.poll_interval", Limits.PollInterval[0], Limits.PollInterval[1],
				"a shard read more often than 4 times a second leaves no room for a second reader: AWS allows 5 reads a second per shard", &c.PollInterval)
		case "idle_poll_max":
			return d.durationIn(v, "stream.idle_poll_max", Limits.IdlePollMax[0], Limits.IdlePollMax[1],
				"a write to an idle table waits up to this long to be shown", &c.IdlePollMax)
		case "table_idle_rate":
			return d.floatIn(v, "stream.table_idle_rate", Limits.TableIdleRate[0], Limits.TableIdleRate[1], "reads a second",
				"it is what every idle table costs, whatever its shard count", &c.TableIdleRate)
		case "slow_interval":
			return d.durationIn(v, "stream.slow_interval", Limits.SlowInterval[0], Limits.SlowInterval[1],
				"a table no pane shows is read this often; iterators expire after 15 minutes", &c.SlowInterval)
		case "background":
			return d.oneOf(v, "stream.background", Backgrounds, &c.Background)
		case "max_calls_per_second":
			return d.floatIn(v, "stream.max_calls_per_second", Limits.MaxCallsPerSec[0], Limits.MaxCallsPerSec[1], "reads a second",
				"the ceiling of the whole console's stream reads", &c.MaxCallsPerSec)
		case "throttle_backoff":
			return d.durationIn(v, "stream.throttle_backoff", Limits.ThrottleBackoff[0], Limits.ThrottleBackoff[1],
				"a refused shard must give way to the service's own consumer", &c.ThrottleBackoff)
		case "throttle_backoff_max":
			return d.durationIn(v, "stream.throttle_backoff_max", Limits.ThrottleMax[0], Limits.ThrottleMax[1],
				"iterators expire after 15 minutes", &c.ThrottleMax)
		case "etiquette":
			return d.oneOf(v, "stream.etiquette", Etiquettes, &c.Etiquette)
		case "buffer":
			return d.intIn(v, "stream.buffer", Limits.StreamBuffer[0], Limits.StreamBuffer[1], "records",
				"the Stream pane allocates them at start", &c.Buffer)
		case "fallback_interval":
			return d.durationIn(v, "stream.fallback_interval", Limits.FallbackInterval[0], Limits.FallbackInterval[1],
				"each refresh is a Query billed to the table", &c.FallbackInterval)
		}
		return d.errf(k, "stream: unknown key %q (known: %s)", k.Value, strings.Join(streamKeys, ", "))
	})
	if err != nil {
		return err
	}
	// Pairs that only make sense in one order, reported at the line of the
	// one that was set (the later one when both were).
	order := []struct {
		lo, hi   string
		loV, hiV time.Duration
		what     string
	}{
		{"poll_interval", "idle_poll_max", c.PollInterval, c.IdlePollMax, "an idle shard is never polled faster than a busy one"},
		{"idle_poll_max", "slow_interval", c.IdlePollMax, c.SlowInterval, "a table no pane shows is never read faster than an idle one on screen"},
		{"throttle_backoff", "throttle_backoff_max", c.ThrottleBackoff, c.ThrottleMax, "the pause doubles from the first up to the second"},
	}
	for _, o := range order {
		if o.hiV >= o.loV {
			continue
		}
		at := lines[o.hi]
		if at == nil || (lines[o.lo] != nil && lines[o.lo].Line > at.Line) {
			at = lines[o.lo]
		}
		return d.errf(at, "stream.%s %s is below stream.%s %s: %s", o.hi, o.hiV, o.lo, o.loV, o.what)
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

// The strict decoder of the one config file: the walk over its sections,
// a method per section, every error naming its line. The readers of single
// values the sections share are in decode_value.go.

package config

import (
	"fmt"
	"regexp"
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

package views

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"opsdeck/data"
	"opsdeck/themes"
	"opsdeck/views/inert"
)

// The schema view of `:table NAME`: what DescribeTable says of the table
// (keys, indexes with their projections, stream, TTL, approximate counts),
// which pane models it, and the commands that list its items. A plan that
// found no key condition is said above it: the keys that would make the
// read a Query, and the explicit scan.

// schemaLines renders the description, one string per line (raw: the
// caller makes each inert and fits it to the width).
func schemaLines(in data.TableInfo, tables data.Tables) []string {
	s := in.Schema
	var out []string
	head := in.Name
	var facts []string
	for _, f := range []string{in.Status, in.Billing} {
		if f != "" {
			facts = append(facts, f)
		}
	}
	if !in.Created.IsZero() {
		facts = append(facts, "created "+in.Created.UTC().Format("2006-01-02"))
	}
	if len(facts) > 0 {
		head += "  ·  " + strings.Join(facts, " · ")
	}
	out = append(out, head,
		fmt.Sprintf("  ~%s items · ~%s (approximate: DynamoDB refreshes these about every six hours)",
			groupDigits(in.ItemCount), byteSize(in.SizeBytes)),
		"", "Keys")
	out = append(out, "  partition  "+keyText(s.PK))
	if s.SK != nil {
		out = append(out, "  sort       "+keyText(*s.SK))
	} else {
		out = append(out, "  sort       (none: one item per partition key)")
	}
	out = append(out, "", "Indexes")
	if len(s.Indexes) == 0 {
		out = append(out, "  (none)")
	}
	for _, ix := range s.Indexes {
		kind := "GSI"
		if ix.Local {
			kind = "LSI"
		}
		keys := keyText(ix.PK)
		if ix.SK != nil {
			keys += " / " + keyText(*ix.SK)
		}
		proj := string(ix.Projection.Type)
		if ix.Projection.Type == data.ProjectInclude {
			proj += ": " + strings.Join(ix.Projection.NonKey, ", ")
		}
		out = append(out, fmt.Sprintf("  %s  %s  %s  · projection %s", ix.Name, kind, keys, proj))
	}
	out = append(out, "")
	if s.Stream != data.StreamNone {
		out = append(out, "Stream     "+string(s.Stream)+" (the list follows it live)")
	} else {
		out = append(out, "Stream     off (a list of this table is polled)")
	}
	switch {
	case s.TTLAttr != "":
		out = append(out, "TTL        "+s.TTLAttr+" ("+orText(in.TTLStatus, "enabled")+")")
	case in.TTLErr != nil:
		out = append(out, "TTL        unknown: "+data.Describe(in.TTLErr))
	default:
		out = append(out, "TTL        "+orText(in.TTLStatus, "off"))
	}
	out = append(out, "")
	id := tables.IDFor(in.Name)
	if p, ok := PaneOf(id); ok && !data.IsUnmodeled(id) {
		out = append(out, "Modeled by the "+p.Name()+" pane: its rows open there, with its columns and actions.")
	} else {
		out = append(out, "Not modeled by any pane: its rows are listed read-only, columns from their attributes.")
	}
	out = append(out, "",
		"List items  :table "+in.Name+" "+keyHint(s)+" [field<op>value ...]",
		"            ops = != < <= > >= ^= (begins with) a..b (between) · now, now-1h · index=NAME",
		"Scan        :scan "+in.Name+" [field<op>value ...]  (reads the whole table; asks first)")
	return out
}

// keyHint is the key condition that makes a Query on the base table.
func keyHint(s data.TableSchema) string {
	h := s.PK.Name + "=<value>"
	if s.SK != nil {
		h += " [" + s.SK.Name + "<op>value]"
	}
	return h
}

func keyText(k data.KeyAttr) string { return k.Name + " (" + string(k.Type) + ")" }

func orText(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return strings.ToLower(s)
}

// groupDigits writes n with thousands separators (1,234,567).
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// schemaView is the scrollable schema text.
type schemaView struct {
	lines   []string
	problem string // a plan's refusal, shown first (error colour)
	scroll  int
}

// render draws the view into w × h: every line inert, cut to the width.
func (v *schemaView) render(w, h int, th themes.Theme) string {
	var all []string
	if v.problem != "" {
		for _, l := range WrapWords(v.problem, max(w-1, 10)) {
			all = append(all, th.Error.Render(inert.Line(l, w)))
		}
		all = append(all, "")
	}
	for i, l := range v.lines {
		st := lipgloss.NewStyle()
		if i == 0 || l == "Keys" || l == "Indexes" {
			st = th.Title
		}
		all = append(all, st.Render(inert.Line(l, w)))
	}
	v.scroll = min(max(v.scroll, 0), max(len(all)-h, 0))
	end := min(v.scroll+h, len(all))
	shown := all[v.scroll:end]
	for len(shown) < h {
		shown = append(shown, "")
	}
	return strings.Join(shown, "\n")
}

// update scrolls.
func (v *schemaView) update(msg tea.Msg, ctx *Context) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return
	}
	km := ctx.Keys
	switch {
	case key.Matches(k, km.Up):
		v.scroll--
	case key.Matches(k, km.Down):
		v.scroll++
	case key.Matches(k, km.PageUp):
		v.scroll -= max(ctx.Height-1, 1)
	case key.Matches(k, km.PageDown):
		v.scroll += max(ctx.Height-1, 1)
	case key.Matches(k, km.Top):
		v.scroll = 0
	}
}

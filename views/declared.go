package views

import (
	tea "charm.land/bubbletea/v2"

	"opsdeck/data"
)

// Declared is the list pane of a table whose descriptor declares one
// (data.PaneDecl): one list of the table, scoped by the declaration's
// command, shown with the table's presenter (or the generic one). A
// service's table gets a pane this way without a pane file of its own.
type Declared struct {
	base
	decl  data.PaneDecl
	arg   string // the argument the list is scoped by ("" before a command)
	label string
}

// declaredPane is the pane id of table t's declared pane; "" when its
// descriptor declares none.
func declaredPane(t data.TableID) PaneID {
	if d, ok := data.Lookup(t); ok && d.Pane != nil {
		return PaneID("declared:" + string(t))
	}
	return ""
}

// newDeclared builds the pane of d, waiting for its command.
func newDeclared(c *Context, d data.Descriptor) *Declared {
	id := declaredPane(d.Schema.ID)
	p := &Declared{base: base{ctx: c, id: id}, decl: *d.Pane}
	p.lists = []*list{newList(c, id, mustPresenter(d.Schema.ID))}
	p.lists[0].hint = "nothing selected — " + p.usage() + " lists " + d.Pane.Name
	return p
}

func (p *Declared) usage() string {
	return ":" + p.decl.Command + " <" + p.decl.ArgName + ">"
}

// Show lists the table by the declaration's scope for arg.
func (p *Declared) Show(arg string) tea.Cmd {
	p.arg = arg
	s := p.decl.By(arg)
	p.label = s.Label
	p.setScope(0, s, nil)
	return p.reload()
}

// ShowItem is the declaration's lookup: one item by its id.
func (p *Declared) ShowItem(id string) tea.Cmd {
	return p.lookup(0, p.decl.Lookup(id), p.decl.Name+" · "+id, "no "+p.decl.LookupArg+" "+id)
}

func (p *Declared) Title() string {
	if t := p.lookupTitle(); t != "" {
		return t
	}
	if t, ok := p.scopedTitle(p.decl.Name); ok {
		return t
	}
	if p.arg == "" {
		return p.decl.Name
	}
	return p.decl.Name + " · " + p.label
}

// declaredSpec is the registry entry of d's declared pane.
func declaredSpec(d data.Descriptor) PaneSpec {
	decl := *d.Pane
	cmds := []CommandSpec{{
		Name: decl.Command, Usage: ":" + decl.Command + " <" + decl.ArgName + ">", Arg: ArgRequired, Seen: decl.Seen,
		Run: func(p Pane, a Args) tea.Cmd { return p.(*Declared).Show(a.Arg) },
	}}
	if decl.LookupCommand != "" && decl.Lookup != nil {
		cmds = append(cmds, CommandSpec{
			Name: decl.LookupCommand, Usage: ":" + decl.LookupCommand + " <" + decl.LookupArg + ">", Arg: ArgRequired,
			Complete: func(p Pane) []string { return p.(*Declared).ids(completeMax) },
			Run:      func(p Pane, a Args) tea.Cmd { return p.(*Declared).ShowItem(a.Arg) },
		})
	}
	return PaneSpec{
		ID: declaredPane(d.Schema.ID), Name: decl.Name, Short: decl.Short, DefaultKey: decl.Key,
		New:      func(c *Context, _ Scopes) Pane { return newDeclared(c, d) },
		Commands: cmds,
	}
}

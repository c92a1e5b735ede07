package ui

// The words of actions: which tables an action applies to, why none does
// here, the target and title a dialog names, one-line reasons.

import (
	"errors"
	"slices"
	"strings"

	"opsdeck/data"
	"opsdeck/data/action"
	"opsdeck/data/secret"
	"opsdeck/views"
	"opsdeck/views/inert"
)

// specTables names the tables the actions write: "api-keys or projects".
func specTables(specs []action.Spec) string {
	var names []string
	for _, s := range specs {
		if !slices.Contains(names, string(s.Table)) {
			names = append(names, string(s.Table))
		}
	}
	return strings.Join(names, " or ")
}

// paneTables are the tables whose rows the pane can show.
func paneTables(id views.PaneID) []data.TableID {
	var out []data.TableID
	for _, t := range data.TableIDs() {
		if p, ok := views.ScanPane(t); ok && p == id {
			out = append(out, t)
		}
	}
	return out
}

// noActionsOn says why no action is offered on the shown table's rows, or,
// before the pane shows any, on the pane's tables when none has an action
// and they share one reason ("" when actions may apply).
func noActionsOn(shown data.TableID, tables []data.TableID) string {
	if shown != "" {
		return action.NoActionReason(shown)
	}
	why := ""
	for _, t := range tables {
		r := action.NoActionReason(t)
		if r == "" || (why != "" && r != why) {
			return ""
		}
		why = r
	}
	return why
}

func reasonOf(err error) string {
	var na *action.NotApplicableError
	if errors.As(err, &na) {
		return na.Reason
	}
	return err.Error()
}

// targetOf names a row that has no plan: the record's own id.
func targetOf(table data.TableID, it data.Item) string {
	if r := data.Decode(table, it); r != nil && r.ID() != "" {
		return r.ID()
	}
	return "(row without an id)"
}

// plansTitle is the dialog's title: the action's name, or the verbs of
// the actions a bulk mixes ("Mark for deletion / retry deletion").
func plansTitle(plans []action.Plan) string {
	if len(plans) == 0 {
		return ""
	}
	first := plans[0].Spec()
	verbs := []string{first.Verb}
	for _, p := range plans[1:] {
		if v := p.Spec().Verb; !slices.Contains(verbs, v) {
			verbs = append(verbs, v)
		}
	}
	if len(verbs) == 1 {
		return first.Title
	}
	return upperFirst(strings.Join(verbs, " / "))
}

// oneLine is a sanitised single line for the status bar. Results quote
// values found in the item, so credentials in them are masked first.
func oneLine(s string) string {
	s, _ = secret.Text(s)
	return inert.String(strings.ReplaceAll(s, "\n", " "))
}

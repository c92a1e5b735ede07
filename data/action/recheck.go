package action

import (
	"time"

	"opsdeck/data"
)

// While a confirmation dialog is open, a stream record (or a refresh) may
// bring a newer image of the target. These two let the dialog react without
// sending anything: Check says whether confirming would still pass, in the
// words Execute would use; Refresh rebuilds the plan on the newer image.

// Check evaluates the plan's guard against a newer image of the item (nil or
// empty: the item was deleted). It returns nil when every clause still
// holds, else the refusal a write would get now.
func (p Plan) Check(current data.Item) *Refusal {
	if len(current) > 0 {
		if _, failing := firstFailing(p.Guard, current); !failing {
			return nil
		}
	}
	return refusal(p.Spec(), p.Guard, current)
}

// Refresh plans the same action on a newer image of the item, keeping the
// plan's options and operator: the dialog then shows the new before-values
// and the operator confirms what is really there. The error says why the
// action no longer applies (the same reasons PlanFor gives).
func (p Plan) Refresh(current data.Item, now time.Time) (Plan, error) {
	if p.spec == nil {
		return PlanFor(p.Kind, current, now, p.opts)
	}
	return plan(p.spec, current, now, p.opts)
}

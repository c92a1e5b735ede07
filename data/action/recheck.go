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
// empty: the item was deleted). When a clause no longer holds it returns
// false with the failure kind and the message a write would get now.
func (p Plan) Check(current data.Item) (ok bool, why Failure, message string) {
	if len(current) > 0 {
		if _, failing := firstFailing(p.Guard, current); !failing {
			return true, "", ""
		}
	}
	_, why, message = explainFailure(p.Kind, p.Guard, current)
	return false, why, message
}

// Refresh plans the same action on a newer image of the item, keeping the
// plan's options and operator: the dialog then shows the new before-values
// and the operator confirms what is really there. The error says why the
// action no longer applies (the same reasons PlanFor gives).
func (p Plan) Refresh(current data.Item, now time.Time) (Plan, error) {
	return PlanFor(p.Kind, current, now, p.opts)
}

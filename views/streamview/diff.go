package streamview

import (
	"sort"

	"opsdeck/data"
)

// ChangedAttrs lists, sorted, the top-level attributes that differ between
// two images: added, removed, or changed in value or type. Nested maps and
// lists are compared deeply, and sets (SS, NS, BS) as sets (data.EqualValues),
// so a change deep inside userMetadata marks userMetadata while a re-ordered
// string set marks nothing. Either image may be nil (an INSERT has no old
// image, a REMOVE no new one). Panes use it to highlight the cells a MODIFY touched.
func ChangedAttrs(old, new data.Item) []string {
	var out []string
	for name, ov := range old {
		nv, ok := new[name]
		if !ok || !data.EqualValues(ov, nv) {
			out = append(out, name)
		}
	}
	for name := range new {
		if _, ok := old[name]; !ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

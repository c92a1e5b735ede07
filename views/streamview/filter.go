package streamview

import (
	"strings"

	"opsdeck/data"
	"opsdeck/data/export"
	"opsdeck/data/secret"
)

// recordRow is a record as the filter reads it: its cells, and fields by
// column title (TABLE, EVENT, KEY, TIME, SUMMARY) or by attribute of the
// new image, else the old one, else the keys — masked, so a filter cannot
// probe a secret.
type recordRow struct {
	e    *entry
	mask MaskFunc
}

func (r recordRow) Hay() string { return r.e.hay }

func (r recordRow) Field(name string) (string, bool) {
	for i, t := range colTitles {
		if strings.EqualFold(t, name) {
			return r.e.cols[i], true
		}
	}
	rec := r.e.rec
	for _, img := range []data.Item{rec.New, rec.Old, rec.Keys} {
		av, ok := img[name]
		if !ok {
			continue
		}
		if r.mask != nil {
			av, _ = secret.Value(r.mask, []string{name}, av)
		}
		return export.Text(av), true
	}
	return "", false
}

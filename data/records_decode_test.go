package data

import (
	"slices"
	"testing"
)

// Unknown attributes are flagged in name order whatever the map's order,
// and a decoder reused from the pool carries nothing of the item before.
func TestUnknownAttributesAreFlaggedInNameOrder(t *testing.T) {
	odd := sessionItem("sess_odd", "p", "RUNNING", baseTime, 1_800_000_000)
	for _, name := range []string{"zeta", "alpha", "mu", "beta", "omega", "kappa"} {
		odd[name] = str("x")
	}
	clean := sessionItem("sess_clean", "p", "RUNNING", baseTime, 1_800_000_000)

	var first []Problem
	for round := 0; round < 20; round++ {
		s := DecodeSession(odd)
		var unknown []string
		for _, p := range s.Problems {
			if p.Note == "attribute not in the schema (kept in Raw)" {
				unknown = append(unknown, p.Attr)
			}
		}
		want := []string{"alpha", "beta", "kappa", "mu", "omega", "zeta"}
		if !slices.Equal(unknown, want) {
			t.Fatalf("round %d: unknown attributes flagged as %v, want %v", round, unknown, want)
		}
		if round == 0 {
			first = s.Problems
		}
		if c := DecodeSession(clean); len(c.Problems) != 0 {
			t.Fatalf("round %d: a clean session after an odd one has problems %v", round, c.Problems)
		}
	}
	if len(first) != 6 || first[0].Attr != "alpha" {
		t.Errorf("the first record's problems changed under later decodes: %v", first)
	}
}

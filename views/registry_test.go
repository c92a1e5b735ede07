package views

import (
	"testing"

	"opsdeck/keymap"
	"opsdeck/themes"
)

// TestRegistryIsConsistent: every pane is built by its entry with the id
// the entry names; ids, keys and command names are unique; and every
// command's options fit Args.
func TestRegistryIsConsistent(t *testing.T) {
	c := &Context{Theme: themes.Dark(), Keys: keymap.Default()}
	ids, keys, names := map[PaneID]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range Registry() {
		if s.ID == "" || s.Name == "" || s.Short == "" || s.DefaultKey == "" || s.New == nil {
			t.Fatalf("incomplete entry %+v", s)
		}
		if ids[s.ID] || keys[s.DefaultKey] {
			t.Fatalf("%s: id or key %q used twice", s.ID, s.DefaultKey)
		}
		ids[s.ID], keys[s.DefaultKey] = true, true
		if p := s.New(c, Scopes{}); p == nil || p.ID() != s.ID {
			t.Fatalf("%s: New built %v", s.ID, p)
		}
		if s.ID.Name() != s.Name {
			t.Fatalf("%s: Name() %q", s.ID, s.ID.Name())
		}
		for _, cmd := range s.Commands {
			for _, n := range append([]string{cmd.Name}, cmd.Aliases...) {
				if names[n] {
					t.Fatalf("command %q declared twice", n)
				}
				names[n] = true
			}
			if cmd.Run == nil || cmd.Usage == "" {
				t.Fatalf(":%s has no Run or no usage", cmd.Name)
			}
			if !cmd.OneOpt && len(cmd.Opts) > MaxOpts {
				t.Fatalf(":%s accepts %d options together; Args holds %d", cmd.Name, len(cmd.Opts), MaxOpts)
			}
		}
	}
	// Every table's presenter names a pane of the registry.
	for _, p := range allPresenters() {
		if !ids[p.pane] {
			t.Fatalf("table %s is shown by pane %q, which is not registered", p.table, p.pane)
		}
	}
}

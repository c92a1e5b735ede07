package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryTimerComesFromTheContext: the tests drive the console without
// the wall clock because every timer of the root and the panes is made by
// views.Context.After, which they point at uitest.Timer. A tea.Tick or
// tea.Every made anywhere else would make settle wait for real, and one
// that re-arms itself (a clock) would never let it return.
func TestEveryTimerComesFromTheContext(t *testing.T) {
	const allowed = "../views/context.go"
	fset := token.NewFileSet()
	found := 0
	for _, root := range []string{".", "../views"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "uitest") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			tea := ""
			for _, imp := range f.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == "charm.land/bubbletea/v2" {
					tea = "bubbletea"
					if imp.Name != nil {
						tea = imp.Name.Name
					}
				}
			}
			if tea == "" {
				return nil
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Tick" && sel.Sel.Name != "Every") {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == tea {
					if filepath.ToSlash(path) == allowed {
						found++
					} else {
						t.Errorf("%s: %s.%s: make timers with views.Context.After", fset.Position(sel.Pos()), tea, sel.Sel.Name)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found == 0 {
		t.Fatalf("no tea.Tick in %s: this test no longer looks in the right place", allowed)
	}
}

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"testing"
)

// maxFuncLines is the longest a function outside tests may be, from its
// "func" line to its closing brace: one that does not fit is doing more than
// one thing, and its parts want names (docs/development.md).
const maxFuncLines = 80

// TestNoFunctionIsLongerThan80Lines walks every Go file of the repository
// but tests and testdata, and fails for each function (or method) longer
// than maxFuncLines.
func TestNoFunctionIsLongerThan80Lines(t *testing.T) {
	lengths := funcLengths(t)
	for _, name := range slices.Sorted(maps.Keys(lengths)) {
		if n := lengths[name]; n > maxFuncLines {
			t.Errorf("%s is %d lines, over %d: split it into functions that each do one thing", name, n, maxFuncLines)
		}
	}
}

// funcLengths is, for every function declared outside tests, its length in
// lines, by "path name" (a method's name is Type.Name); a function literal
// outside any function is "path func literal at line N".
func funcLengths(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	eachSource(t, parser.SkipObjectResolution, func(path string, fset *token.FileSet, f *ast.File) {
		lines := func(n ast.Node) int { return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1 }
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				// A function written as a package variable's value counts
				// too, named by where it starts.
				ast.Inspect(decl, func(n ast.Node) bool {
					if fl, ok := n.(*ast.FuncLit); ok {
						out[fmt.Sprintf("%s func literal at line %d", path, fset.Position(fl.Pos()).Line)] = lines(fl)
						return false
					}
					return true
				})
				continue
			}
			if fd.Body == nil {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = receiverName(fd.Recv.List[0].Type) + "." + name
			}
			out[fmt.Sprintf("%s %s", path, name)] = lines(fd)
		}
	})
	if len(out) == 0 {
		t.Fatal("found no functions: is the test run from the repository's root?")
	}
	return out
}

// receiverName is the type a method is declared on, without * or type
// parameters.
func receiverName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverName(x.X)
	case *ast.IndexExpr:
		return receiverName(x.X)
	case *ast.IndexListExpr:
		return receiverName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

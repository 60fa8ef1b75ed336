package main

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the import path of this repository's root.
const module = "github.com/neonform/neonform"

// docs/architecture.md's table of packages is the contract between them: each
// row's last column says which packages of ours that package may import. It is
// checked against the code, both ways: a package that imports one its row does
// not name breaks the contract, and a row that names one its package does not
// import, or a package without a row, makes the page untrue. Imports are read
// as the go command reads them for this platform (go/build), test files left
// out.
func TestArchitectureImportTableIsTrue(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := importTable(t, string(doc))
	imports := packageImports(t)
	for pkg, imported := range imports {
		row, ok := rows[pkg]
		if !ok {
			t.Errorf("package %s has no row in docs/architecture.md's table of packages", pkg)
			continue
		}
		for _, imp := range imported {
			if !row.allows(imp) {
				t.Errorf("%s imports %s, which its row in docs/architecture.md does not name (it names %s)", pkg, imp, row)
			}
		}
		for _, named := range row.names {
			if !slices.Contains(imported, named) {
				t.Errorf("docs/architecture.md says %s imports %s, which it does not", pkg, named)
			}
		}
	}
	for pkg := range rows {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("docs/architecture.md has a row for %s, which is no package", pkg)
		}
	}
}

// importRow is the last column of a row: the packages it names, whether
// `internal/...` (any internal package) or "everything" is allowed.
type importRow struct {
	names      []string
	internal   bool
	everything bool
}

func (r importRow) allows(pkg string) bool {
	return r.everything || slices.Contains(r.names, pkg) || r.internal && strings.HasPrefix(pkg, "internal/")
}

func (r importRow) String() string {
	out := strings.Join(r.names, ", ")
	if r.internal {
		out += " and internal/..."
	}
	if out == "" {
		return "nothing"
	}
	return out
}

var (
	backticked    = regexp.MustCompile("`([^`]+)`")
	parenthetical = regexp.MustCompile(`\([^()]*\)`)
)

// importTable reads the table under "## Packages": by package, the packages
// of ours its row says it may import. A remark in brackets says why, and names
// nothing.
func importTable(t *testing.T, doc string) map[string]importRow {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Packages\n")
	if !ok {
		t.Fatal(`docs/architecture.md has no "## Packages" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]importRow{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		pkg := backticked.FindStringSubmatch(cells[0])
		if len(cells) < 3 || pkg == nil {
			t.Fatalf("a row of docs/architecture.md's table is not | `package` | job | may import |: %s", line)
		}
		may := cells[len(cells)-1]
		for parenthetical.MatchString(may) {
			may = parenthetical.ReplaceAllString(may, "")
		}
		var row importRow
		row.everything = strings.HasPrefix(may, "everything")
		for _, m := range backticked.FindAllStringSubmatch(may, -1) {
			if m[1] == "internal/..." {
				row.internal = true
				continue
			}
			row.names = append(row.names, m[1])
		}
		rows[pkg[1]] = row
	}
	if len(rows) == 0 {
		t.Fatal("docs/architecture.md's table of packages has no rows")
	}
	return rows
}

// packageImports is, for every package of the repository with files other
// than tests, the packages of ours it imports ("main" is the root).
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if dir != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		p, err := build.Default.ImportDir(dir, 0)
		var none *build.NoGoError
		switch {
		case errors.As(err, &none):
			return nil
		case err != nil:
			return err
		case len(p.GoFiles) == 0:
			return nil // tests alone
		}
		name := filepath.ToSlash(dir)
		if name == "." {
			name = "main"
		}
		var ours []string
		for _, imp := range p.Imports {
			if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
				ours = append(ours, rest)
			}
		}
		out[name] = ours
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

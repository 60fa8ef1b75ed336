package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// TestExamplesAreValid loads every configuration under examples/, alone and with
// each of its variable files: what the README and docs/ tell people to run must work, with
// no error and no warning. (TestFormatIdempotentOnRepoFiles checks they are formatted.)
func TestExamplesAreValid(t *testing.T) {
	dirs, err := filepath.Glob("../examples/*")
	if err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, dir := range dirs {
		hcl, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
		if len(hcl) == 0 {
			continue // the CI workflow example
		}
		varFiles, _ := filepath.Glob(filepath.Join(dir, "*.vars"))
		runs := [][]string{nil}
		for _, f := range varFiles {
			runs = append(runs, []string{f})
		}
		for _, files := range runs {
			name := filepath.Base(dir)
			if files != nil {
				name += "+" + filepath.Base(files[0])
			}
			t.Run(name, func(t *testing.T) {
				cfg, diags := config.Load(dir, config.Options{VarFiles: files})
				if len(diags) > 0 {
					t.Fatalf("%s:\n%s", dir, describe(diags))
				}
				if len(cfg.Computes()) == 0 {
					t.Errorf("%s declares no compute", dir)
				}
			})
			loaded++
		}
	}
	if loaded < 3 {
		t.Errorf("loaded %d example configurations, want at least quickstart, multi-branch and free-tier", loaded)
	}
}

// TestQuickstartMeaning pins what the README's main job ("The two commands") relies on: the quickstart
// runs offline against the built-in emulator and manages one project, "shop",
// whose main branch has a primary and a "reports" read replica.
func TestQuickstartMeaning(t *testing.T) {
	cfg, diags := config.Load("../examples/quickstart", config.Options{})
	if diags.HasErrors() {
		t.Fatal(describe(diags))
	}
	if cfg.Settings.APIURL != config.EmbeddedAPIURL {
		t.Errorf("api_url = %q, want %q", cfg.Settings.APIURL, config.EmbeddedAPIURL)
	}
	if len(cfg.Projects) != 1 || cfg.Projects[0].Label != "shop" || cfg.Projects[0].ID != "quiet-meadow-52817364" {
		t.Fatalf("projects %+v, want one: shop, quiet-meadow-52817364", cfg.Projects)
	}
	var got []string
	for _, c := range cfg.Computes() {
		got = append(got, c.Address+" "+string(c.Type))
	}
	want := []string{"shop.main.primary read_write", "shop.main.reports read_only"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("computes %v, want %v", got, want)
	}
}

// TestDocumentedConfigurations checks the configurations README.md and
// docs/*.md show in ```hcl blocks: each is formatted, so it can be copied, and
// each that declares a project loads without an error or a warning. (A
// fragment, such as a moved block alone, is checked for its format only.)
func TestDocumentedConfigurations(t *testing.T) {
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, file := range append([]string{"../README.md"}, docs...) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(file, "../")
		for i, src := range hclBlocks(string(b)) {
			where := fmt.Sprintf("%s, hcl example %d", name, i+1)
			if formatted, _ := config.Format([]byte(src), name); string(formatted) != src {
				t.Errorf("%s is not formatted; formatted it reads:\n%s", where, formatted)
			}
			if !strings.Contains(src, "project \"") {
				continue
			}
			_, diags := config.LoadSources("", map[string][]byte{name: []byte(src)}, config.Options{})
			if len(diags) > 0 {
				t.Errorf("%s does not validate:\n%s", where, describe(diags))
			}
			loaded++
		}
	}
	// The README's configuration, and the reference's: its first example,
	// for_each and rules.
	if loaded < 4 {
		t.Errorf("loaded %d documented configurations, want at least 4: are the ```hcl blocks still there?", loaded)
	}
}

// hclBlocks are the contents of the ```hcl blocks of a Markdown text, each
// ending with its last line's newline; an indented block (in a list) loses
// its indent.
func hclBlocks(md string) []string {
	var out []string
	lines := strings.SplitAfter(md, "\n")
	for i := 0; i < len(lines); i++ {
		indent, ok := strings.CutSuffix(strings.TrimRight(lines[i], "\n"), "```hcl")
		if !ok || strings.TrimSpace(indent) != "" {
			continue
		}
		var b strings.Builder
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			b.WriteString(strings.TrimPrefix(lines[i], indent))
		}
		out = append(out, b.String())
	}
	return out
}

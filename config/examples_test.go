package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// TestExamplesAreValid loads every configuration under examples/, alone and with
// each of its variable files: what the README tells people to run must work, with
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

// TestQuickstartMeaning pins what the README's main job relies on: the quickstart
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

// TestReadmeExample checks the configuration the README's configuration section
// shows: it must load without errors and be formatted, so it can be copied.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Configuration\n")
	if !ok {
		t.Fatal("README.md has no section \"## Configuration\"")
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	_, rest, ok := strings.Cut(section, "```hcl\n")
	if !ok {
		t.Fatal("the configuration section shows no ```hcl example")
	}
	src, _, _ := strings.Cut(rest, "```\n")
	_, diags := config.LoadSources("", map[string][]byte{"README.md": []byte(src)}, config.Options{})
	if len(diags) > 0 {
		t.Errorf("the README's example does not validate:\n%s", describe(diags))
	}
	if formatted, _ := config.Format([]byte(src), "README.md"); string(formatted) != src {
		t.Errorf("the README's example is not formatted; formatted it reads:\n%s", formatted)
	}
}

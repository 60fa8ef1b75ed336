package config_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// A branches block decodes to a rule: its globs (one, or a list), its
// excludes, exclusive, and its computes as templates at <rule>[*].
func TestBranchRule(t *testing.T) {
	cfg, diags := load(t, `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {}
  }
  branches "previews" {
    match     = "preview/*"
    exclude   = ["preview/keep-*"]
    exclusive = true
    compute "primary" {
      min_cu          = 0.25
      max_cu          = 1
      suspend_timeout = "5m"
    }
    compute "reports" {
      type = "read_only"
    }
  }
  branches "feature" {
    match = ["feature/*", "fix/*"]
  }
}
`, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	p := cfg.Projects[0]
	if len(p.Rules) != 2 || len(p.Branches) != 1 {
		t.Fatalf("%d rules and %d branches, want 2 and 1", len(p.Rules), len(p.Branches))
	}
	r := p.Rules[0]
	if r.Label != "previews" || !slices.Equal(r.Match, []string{"preview/*"}) || !slices.Equal(r.Exclude, []string{"preview/keep-*"}) || !r.Exclusive {
		t.Errorf("rule %+v", r)
	}
	if !slices.Equal(p.Rules[1].Match, []string{"feature/*", "fix/*"}) || p.Rules[1].Exclusive {
		t.Errorf("second rule %+v", p.Rules[1])
	}
	if len(r.Computes) != 2 || r.Computes[0].Address != "shop.previews[*].primary" || r.Computes[0].MinCU != 0.25 || r.Computes[0].SuspendTimeoutSeconds != 300 {
		t.Fatalf("templates %+v", r.Computes)
	}
	for name, want := range map[string]bool{
		"preview/pr-12": true, "preview/keep-this": false, "preview/a/b": false, "main": false, "preview/": true,
	} {
		if got := r.Matches(name); got != want {
			t.Errorf("Matches(%q) = %v, want %v", name, got, want)
		}
	}
	// An instance is a branch found by its name, at its own addresses; the
	// rule's templates stay as they were.
	br := r.Instance("shop", "preview/pr-12")
	if br.Label != `previews["preview/pr-12"]` || br.Name != "preview/pr-12" || br.ID != "" || !br.Exclusive {
		t.Errorf("instance %+v", br)
	}
	if c := br.Computes[0]; c.Address != `shop.previews["preview/pr-12"].primary` || c.BranchLabel != br.Label || c.MinCU != 0.25 {
		t.Errorf("instance compute %+v", c)
	}
	if _, b, _, err := config.ParseAddress(br.Computes[1].Address); err != nil || b != br.Label {
		t.Errorf("the instance's address %s does not parse back to its branch: %q, %v", br.Computes[1].Address, b, err)
	}
	if r.Computes[0].Address != "shop.previews[*].primary" {
		t.Errorf("Instance changed the template: %s", r.Computes[0].Address)
	}
	if len(cfg.AllRuleComputes()) != 2 {
		t.Errorf("AllRuleComputes: %d, want 2", len(cfg.AllRuleComputes()))
	}
}

// validate checks a rule offline: the globs' syntax, labels shared with
// branch blocks, a match, the checks of a branch's computes.
func TestBranchRuleErrors(t *testing.T) {
	for _, tt := range []struct {
		name, body, summary, detail string
	}{
		{"bad glob", `branches "previews" { match = "preview/[a-" }`, "Invalid glob", `"preview/[a-" is not a glob of branch names`},
		{"bad glob in a list", `branches "previews" { match = ["ok/*", "a\\"] }`, "Invalid glob", `"a\\" is not a glob`},
		{"bad exclude", `branches "previews" {
  match = "*"
  exclude = "["
}`, "Invalid glob", `"[" is not a glob`},
		{"no match", `branches "previews" {}`, "Missing match", `add match = "preview/*"`},
		{"empty match", `branches "previews" { match = [] }`, "Incorrect attribute value type", "not an empty list"},
		{"number", `branches "previews" { match = { a = 1 } }`, "Incorrect attribute value type", "match must be a glob"},
		{"label of a branch", `branch "previews" {}
branches "previews" { match = "*" }`, "Duplicate branches label", `already has a branch block labelled "previews"`},
		{"two rules", `branches "previews" { match = "*" }
branches "previews" { match = "x" }`, "Duplicate branches label", `already has a branches block labelled "previews"`},
		{"bad label", `branches "Previews" { match = "*" }`, "Invalid label", `cannot label a branches`},
		{"two primaries", `branches "previews" {
  match = "*"
  compute "a" {}
  compute "b" {}
}`, "More than one read_write compute", "has at most one"},
		{"unknown argument", `branches "previews" {
  match = "*"
  name = "x"
}`, "Unsupported argument", "a branches block"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := load(t, "project \"shop\" {\n  id = \"dark-sun-46453911\"\n"+tt.body+"\n}\n", config.Options{})
			d := only(t, diags)
			if d.Summary != tt.summary || !strings.Contains(d.Detail, tt.detail) {
				t.Errorf("got %q: %s\nwant %q containing %q", d.Summary, d.Detail, tt.summary, tt.detail)
			}
			if d.Range == nil || d.Range.Filename != "conf/main.hcl" || d.Range.Start.Line < 3 {
				t.Errorf("the error points at %v, not at the block", d.Range)
			}
		})
	}
}

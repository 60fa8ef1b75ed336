package config_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/config"
)

// reportsFleet is a project with a replica per region, each named by name.
func reportsFleet(name string) string {
	return `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "reports" {
      for_each = toset(["eu", "us"])
      type     = "read_only"
      name     = ` + name + `
    }
  }
}
`
}

// TestForEachDiagnostics checks whole diagnostics, place included, for the
// mistakes that only for_each makes possible.
func TestForEachDiagnostics(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "two instances name one endpoint",
			src:  reportsFleet(`"reports"`),
			want: []string{`conf/main.hcl:7,7-27: Duplicate compute name; Computes shop.main.reports["eu"] (conf/main.hcl:7) and shop.main.reports["us"] would both be named "reports" in the service, on one branch. Each instance of a block with for_each needs a name of its own: make name depend on each.key, as in name = "reports-${each.key}".`},
		},
		{
			name: "instances of two blocks find one branch",
			src: `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
  }
  branch "env" {
    for_each = { prod = "main" }
    name     = each.value
  }
}
`,
			want: []string{`conf/main.hcl:7,16-26: Branch declared twice; Branches shop.main (conf/main.hcl:3) and shop.env["prod"] are the same service branch (name "main"); put its computes in one branch block.`},
		},
		{
			name: "a mistake that does not depend on the key is said once",
			src: `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "reports" {
      for_each = toset(["a", "b", "c"])
      type     = "read_only"
      name     = each.key
      size     = 3.5
      colour   = "blue"
    }
  }
}
`,
			want: []string{
				`conf/main.hcl:8,18-21: Unsupported compute size; 3.5 CU is not a size the service offers. Sizes are 0.25, 0.5, every whole number from 1 to 16, and even numbers from 18 to 56. The nearest are 3 and 4.`,
				`conf/main.hcl:9,7-13: Unsupported argument; An argument named "colour" is not expected in a compute block. A compute block takes arguments type, min_cu, max_cu, size, suspend_timeout, pg_settings, disabled, name, for_each, expected_active_hours; blocks lifecycle.`,
			},
		},
		{
			name: "a value that fails for one key names that instance",
			src: `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "reports" {
      for_each = { eu = "5m", us = "5 minutes" }
      type     = "read_only"
      name     = "reports-${each.key}"
      suspend_timeout = each.value
    }
  }
}
`,
			want: []string{`conf/main.hcl:8,25-35: Invalid suspend timeout; In shop.main.reports["us"]: "5 minutes" is not a duration: write a number with a unit, such as "5m", "90s" or "1h", or "never" to keep the compute always on.`},
		},
		{
			name: "instances inside instances are named once, by their whole address",
			src: `project "shop" {
  id = "dark-sun-46453911"
  branch "preview" {
    for_each = { one = "30s", two = "2m" }
    name     = "preview-${each.key}"
    compute "primary" {
      suspend_timeout = each.value
    }
    compute "reports" {
      for_each = toset(["eu", "us"])
      type     = "read_only"
      name     = "reports-${each.key}"
      size     = each.key == "eu" ? 3.5 : 1
    }
  }
}
`,
			want: []string{
				`conf/main.hcl:7,25-35: Suspend timeout out of range; In shop.preview["one"]: The service suspends an idle compute after 60s to 168h (a week), or never; "30s" is 30s. Omit suspend_timeout for the service default of 5m.`,
				`conf/main.hcl:13,18-44: Unsupported compute size; In shop.preview["one"].reports["eu"]: 3.5 CU is not a size the service offers. Sizes are 0.25, 0.5, every whole number from 1 to 16, and even numbers from 18 to 56. The nearest are 3 and 4.`,
				`conf/main.hcl:13,18-44: Unsupported compute size; In shop.preview["two"].reports["eu"]: 3.5 CU is not a size the service offers. Sizes are 0.25, 0.5, every whole number from 1 to 16, and even numbers from 18 to 56. The nearest are 3 and 4.`,
			},
		},
		{
			name: "each in a moved block",
			src: `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
    }
  }
}
moved {
  from = "shop.main.old"
  to   = each.key
}
`,
			want: []string{`conf/main.hcl:10,10-18: Reference to each outside for_each; each.key and each.value exist only inside a project, branch or compute block with for_each (and the blocks inside it). Add for_each to the block, or use a variable or a local here.`},
		},
		{
			name: "a bare address with a number for a key",
			src: `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
    }
  }
}
moved {
  from = shop.main.old
  to   = shop.main.primary[0]
}
`,
			want: []string{`conf/main.hcl:10,10-30: Invalid address; a key in an address is a quoted string, as in reports["eu"].`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := load(t, tt.src, config.Options{})
			var got []string
			for _, d := range diags {
				got = append(got, d.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics differ (-want +got):\n%s", diff)
			}
		})
	}
}

// TestForEachScopes checks which each an expression sees: the innermost
// block's with for_each, and the enclosing instance's in a for_each itself.
func TestForEachScopes(t *testing.T) {
	cfg, diags := load(t, `locals {
  teams = {
    blue  = ["eu", "us"]
    green = ["ap"]
  }
}
project "team" {
  for_each = local.teams
  id       = "${each.key}-project"
  branch "main" {
    compute "primary" {
      name = "${each.key}-primary"
    }
    compute "reader" {
      for_each = toset(each.value)
      type     = "read_only"
      name     = "reader-${each.key}"
    }
  }
}
`, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics:\n%s", describe(diags))
	}
	var got []string
	for _, cp := range cfg.Computes() {
		got = append(got, cp.Address+" "+cp.Name)
	}
	want := []string{
		`team["blue"].main.primary blue-primary`,
		`team["blue"].main.reader["eu"] reader-eu`,
		`team["blue"].main.reader["us"] reader-us`,
		`team["green"].main.primary green-primary`,
		`team["green"].main.reader["ap"] reader-ap`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("computes differ (-want +got):\n%s", diff)
	}
}

// TestMovedAddresses checks that a moved block takes its addresses quoted or
// bare, as Terraform writes them, keys included.
func TestMovedAddresses(t *testing.T) {
	src := reportsFleet(`"reports-${each.key}"`) + `
moved {
  from = shop.main.reports
  to   = shop.main.reports["eu"]
}
moved {
  from = "shop.main.old_us"
  to   = "shop.main.reports[\"us\"]"
}
`
	cfg, diags := load(t, src, config.Options{})
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics:\n%s", describe(diags))
	}
	var got []string
	for _, m := range cfg.Moves {
		got = append(got, m.From+" -> "+m.To)
	}
	want := []string{
		`shop.main.reports -> shop.main.reports["eu"]`,
		`shop.main.old_us -> shop.main.reports["us"]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("moves differ (-want +got):\n%s", diff)
	}

	// A move to a key the for_each does not have is to an undeclared compute.
	_, diags = load(t, strings.Replace(src, `reports["eu"]`, `reports["ap"]`, 1), config.Options{})
	d := only(t, diags)
	if d.Summary != "Move to an undeclared compute" || !strings.Contains(d.Detail, `shop.main.reports["ap"]`) {
		t.Errorf("got %s, want a move to an undeclared compute naming shop.main.reports[\"ap\"]", d.String())
	}
}

// TestMovedIntoProjectInstance checks that a compute may move into an
// instance of its project block (the block gained for_each), and not into
// another project block.
func TestMovedIntoProjectInstance(t *testing.T) {
	src := `project "tenant" {
  for_each = { acme = "dark-sun-46453911" }
  id       = each.value
  branch "main" {
    compute "primary" {}
  }
}
project "other" {
  id = "hidden-river-50598307"
}
moved {
  from = tenant.main.primary
  to   = tenant["acme"].main.primary
}
`
	if _, diags := load(t, src, config.Options{}); diags.HasErrors() {
		t.Fatalf("unexpected diagnostics:\n%s", describe(diags))
	}
	_, diags := load(t, strings.Replace(src, "from = tenant.main.primary", "from = other.main.primary", 1), config.Options{})
	if d := only(t, diags); d.Summary != "Move across projects" {
		t.Errorf("got %s, want a move across projects", d.String())
	}
}

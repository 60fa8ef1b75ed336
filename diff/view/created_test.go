package view

import (
	"testing"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/internal/managed"
)

// A create shows every managed attribute it sets away from the service's
// default on a line of its own, except those its header and size line say
// (managed.Attribute.Headline). A new attribute is one or the other: this
// block must set it, or the test fails.
func TestCreateShowsEveryAttribute(t *testing.T) {
	src := `project "shop" {
  id = "` + difftest.Proj + `"
  branch "main" {
    id = "br-main"
    compute "c" {
      type            = "read_only"
      min_cu          = 0.25
      max_cu          = 4
      suspend_timeout = "never"
      pg_settings     = { work_mem = "64MB" }
      disabled        = true
      name            = "other"
    }
  }
}
`
	cfg, diags := config.LoadSources(".", map[string][]byte{"main.hcl": []byte(src)}, config.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	p := plantest.MustBuild(t, cfg, nil, plantest.LiveOf(plantest.LiveProject(difftest.Proj)))
	ch := plantest.ChangeAt(t, p, "shop.main.c")
	shown := map[*managed.Attribute]bool{}
	for _, a := range createdAttributes(ch) {
		shown[managed.Named(a.Name)] = true
	}
	for _, m := range managed.All {
		switch {
		case m.Headline && shown[m]:
			t.Errorf("%s has a line of its own, but the create's header or size line says it", m.Name)
		case !m.Headline && !shown[m]:
			t.Errorf("%s has no line in the create: set it in this test's block, or mark it managed.Attribute.Headline", m.Name)
		}
	}
}

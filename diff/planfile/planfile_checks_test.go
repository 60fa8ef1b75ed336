package planfile

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// Edits of a plan file that only one check catches, each refused with what
// that check says: a value that is not what its field holds, an attribute
// that changes nothing, an update of what only a new endpoint can have.
// Each is refused by show (ReadFile) and by apply (Verify).
func TestEditedAttributesAreRefused(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(t *testing.T, p *diff.Plan)
		want string
	}{
		{"a fraction in a whole number", func(t *testing.T, p *diff.Plan) {
			plantest.AttributeOf(t, plantest.ChangeAt(t, p, "shop.main.new"), "suspend_timeout").After = 90.5
		}, "change shop.main.new: suspend_timeout: 90.5 is not a whole number"},
		{"an attribute listed that changes nothing", func(t *testing.T, p *diff.Plan) {
			ch := plantest.ChangeAt(t, p, "shop.main.primary")
			ch.Attributes = append(ch.Attributes, diff.Attribute{Name: "disabled", Before: false, After: false, Effect: diff.None})
		}, "change shop.main.primary: it lists 3 attributes, but its values differ from what is live in 2"},
		{"an update that changes the type", func(t *testing.T, p *diff.Plan) {
			ch := plantest.ChangeAt(t, p, "shop.main.reports")
			ch.Attributes = append([]diff.Attribute{{Name: "type", Before: "read_only", After: "read_write", Effect: diff.Recreate}}, ch.Attributes...)
		}, "change shop.main.reports: an update changes attributes that an update can change, and only those"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, st, live := plantest.BusyScenario(false)
			p := plantest.MustBuild(t, cfg, st, live)
			tt.edit(t, p)
			if _, err := diff.Verify(p, st); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Verify: %v\nwant it to say: %s", err, tt.want)
			}
			path := filepath.Join(t.TempDir(), "plan.json")
			if err := WriteFile(path, p); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadFile: %v\nwant it to say: %s", err, tt.want)
			}
		})
	}
}

// Two changes acting on one endpoint: show refuses the file, though
// without the state neither makes a step (a no-op).
func TestTwoChangesOfOneEndpointAreRefused(t *testing.T) {
	ep := difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"))))
	st := plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": ep})
	p := plantest.MustBuild(t, cfg, st, plantest.LiveOf(plantest.LiveProject(difftest.Proj, ep)))
	twin := p.Changes[0]
	twin.Address = "shop.main.twin"
	p.Changes = append(p.Changes, twin)
	p.Summary.NoOp++
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	want := "changes shop.main.primary and shop.main.twin both act on endpoint ep-primary"
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadFile: %v\nwant it to say: %s", err, want)
	}
}

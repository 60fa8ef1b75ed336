package diff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// Edits of a plan's primary content that derive refuses before comparing
// anything: each would let apply carry out what the reviewed plan does not
// say, and each is a check a mutation of derive.go or verify.go removed
// without a test noticing (docs/mutation.md).
func TestEditsDeriveRefuses(t *testing.T) {
	for _, tt := range []struct {
		name  string
		edit  func(p *Plan, st *state.State)
		want  string
		check bool // Check refuses it too, without the state
	}{
		{"a change moved to a project the plan did not read", func(p *Plan, _ *state.State) {
			changeAt(t, p, "shop.main.reports").ProjectID = "other-project-1"
		}, `change shop.main.reports is in project "other-project-1", which is not among the plan's projects`, true},
		{"two creates for one address", func(p *Plan, _ *state.State) {
			p.Changes = append(p.Changes, *changeAt(t, p, "shop.main.new"))
		}, `two changes are for shop.main.new`, true},
		{"two changes for one endpoint", func(p *Plan, _ *state.State) {
			ch := *changeAt(t, p, "shop.main.reports")
			ch.Address = "shop.main.reports2"
			p.Changes = append(p.Changes, ch)
		}, `changes shop.main.reports and shop.main.reports2 both act on endpoint ep-reports`, true},
		{"an endpoint recorded twice", func(p *Plan, _ *state.State) {
			proj := &p.Projects[0]
			proj.Endpoints = append(proj.Endpoints[:1], proj.Endpoints...)
			proj.LiveDigest = digestOf(proj.Endpoints)
		}, `project dark-sun-46453911 records endpoint ep-dev-app twice`, true},
		{"a create that names an existing endpoint", func(p *Plan, _ *state.State) {
			changeAt(t, p, "shop.main.new").EndpointID = "ep-stray"
		}, `change shop.main.new: a create acts on no existing endpoint, but it names "ep-stray"`, true},
		{"a create that adopts", func(p *Plan, _ *state.State) {
			changeAt(t, p, "shop.main.new").Adopt = true
		}, `change shop.main.new: a create acts on no existing endpoint`, true},
		{"an adoption of an endpoint the state holds", func(p *Plan, _ *state.State) {
			changeAt(t, p, "shop.main.reports").Adopt = true
		}, `change shop.main.reports: it adopts ep-reports, which the state already records as shop.main.reports`, false},
		{"a moved_from the state does not say", func(p *Plan, _ *state.State) {
			changeAt(t, p, "shop.main.reports").MovedFrom = "shop.main.primary"
		}, `change shop.main.reports: it says it moves from shop.main.primary, but the state records its endpoint ep-reports at "shop.main.reports"`, false},
		{"defaults of a project the plan did not read", func(p *Plan, _ *state.State) {
			p.Defaults = append(p.Defaults, DefaultsChange{Address: "other.defaults", ProjectID: "other-project-1"})
		}, `the change of other.defaults is to project "other-project-1", which is not among the plan's projects, or not its only one`, true},
		{"two defaults changes of one project", func(p *Plan, _ *state.State) {
			d := DefaultsChange{Address: "shop.defaults", ProjectID: p.Projects[0].ID}
			p.Defaults = append(p.Defaults, d, d)
		}, `the change of shop.defaults is to project "dark-sun-46453911", which is not among the plan's projects, or not its only one`, true},
		{"a defaults change without an address", func(p *Plan, _ *state.State) {
			p.Defaults = append(p.Defaults, DefaultsChange{ProjectID: p.Projects[0].ID})
		}, `the change of  is to project "dark-sun-46453911", which is not among the plan's projects, or not its only one`, true},
		{"a drift left out", func(p *Plan, _ *state.State) {
			p.Drift = p.Drift[1:]
		}, `the plan lists 1 computes changed outside neonform, but the state and the live endpoints show 2`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, st, live := busyScenario(false)
			p := mustBuild(t, cfg, st, live)
			if len(p.Drift) != 2 {
				t.Fatalf("the scenario has %d drifts, want 2", len(p.Drift))
			}
			tt.edit(p, st)
			if _, err := Verify(p, st); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Verify: %v\nwant it to say: %s", err, tt.want)
			}
			if err := Check(p); tt.check && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Check: %v\nwant it to say: %s", err, tt.want)
			}
		})
	}
}

// Check, which has no state, counts the steps that forget a gone compute
// against the summary: one more or one fewer is refused, the plan as made
// is not.
func TestCheckCountsForgetGone(t *testing.T) {
	cfg, st, live := busyScenario(false)
	p := mustBuild(t, cfg, st, live)
	if p.Summary.ForgetGone != 1 {
		t.Fatalf("the scenario forgets %d gone computes, want 1", p.Summary.ForgetGone)
	}
	if err := Check(p); err != nil {
		t.Fatalf("Check of the plan as made: %v", err)
	}
	for _, n := range []int{0, 2} {
		p.Summary.ForgetGone = n
		if err := Check(p); err == nil || !strings.Contains(err.Error(), "the plan file has 1 step that forgets a gone compute, but its summary counts") {
			t.Errorf("forget_gone %d: Check said %v", n, err)
		}
	}
}

// A plan whose changes leave a read_write compute with nowhere to go, with
// exactly one such problem, is refused: the steps could not be carried out
// in any order.
func TestVerifyRefusesOneOrderingProblem(t *testing.T) {
	main := difftest.Endpoint("ep-main", difftest.BrMain, difftest.RW, difftest.EpName("primary"))
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain,
		difftest.Compute("primary"), difftest.Compute("second", difftest.ReadOnly))))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": main})
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, main)))
	ch := changeAt(t, p, "shop.main.second")
	for i := range ch.Attributes {
		if ch.Attributes[i].Name == "type" {
			ch.Attributes[i].After = string(api.EndpointTypeReadWrite)
		}
	}
	problems, err := derive(jsonTrip(t, p), st, nil)
	if err != nil || len(problems) != 1 {
		t.Fatalf("the edit makes %d ordering problems (%v), want 1", len(problems), err)
	}
	for name, check := range map[string]func() error{
		"Verify": func() error { _, err := Verify(p, st); return err },
		"Check":  func() error { return Check(p) },
	} {
		if err := check(); err == nil || !strings.Contains(err.Error(), "shop.main.second cannot be ordered") {
			t.Errorf("%s: %v, want the ordering problem", name, err)
		}
	}
}

// Check, without the state, compares every call of the file with the
// derived ones, the first as the last: an edited body of either is refused.
func TestCheckComparesEveryCall(t *testing.T) {
	cfg, st, live := busyScenario(false)
	for _, which := range []string{"first", "last"} {
		p := mustBuild(t, cfg, st, live)
		var calls []int
		for i, s := range p.Steps {
			if s.Kind != StepState {
				calls = append(calls, i)
			}
		}
		i := calls[0]
		if which == "last" {
			i = calls[len(calls)-1]
		}
		p.Steps[i].Path += "x"
		want := fmt.Sprintf("step %d (%s, %s %s) is not what the plan's changes make: its path is", p.Steps[i].ID, p.Steps[i].Address, p.Steps[i].Method, p.Steps[i].Path)
		if err := Check(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the %s call edited: Check said %v, want %q", which, err, want)
		}
	}
}

// A field taken out of a step is named as absent from the file: the
// message says what is missing, not an empty value.
func TestVerifyNamesAnAbsentField(t *testing.T) {
	cfg, st, live := busyScenario(false)
	p := mustBuild(t, cfg, st, live)
	for i := range p.Steps {
		if p.Steps[i].Kind == StepCreate && p.Steps[i].Address == "shop.main.new" {
			p.Steps[i].Name = ""
		}
	}
	want := `its name is absent in the file, but "new" from the changes`
	if _, err := Verify(p, st); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Verify: %v, want %q", err, want)
	}
}

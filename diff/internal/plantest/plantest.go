// Package plantest builds what the tests of the plan file, the views and the
// reader need of the plan model: live projects, states recorded as an apply
// would, and plans, each checked the way apply checks it. It imports diff, so
// the model's own tests (package diff) keep their own copy of these few
// helpers (diff/helpers_test.go); the configurations and endpoints come from
// difftest. Tests only; it is internal to diff.
package plantest

import (
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

// LiveOf is the live endpoints of the projects.
func LiveOf(projects ...*diff.LiveProject) *diff.Live {
	return &diff.Live{Projects: indexLive(projects)}
}

func indexLive(projects []*diff.LiveProject) map[string]*diff.LiveProject {
	m := map[string]*diff.LiveProject{}
	for _, p := range projects {
		m[p.ID] = p
	}
	return m
}

// LiveProject is a project's live endpoints, its branches not listed.
func LiveProject(id string, eps ...api.Endpoint) *diff.LiveProject {
	for i := range eps {
		eps[i].ProjectID = id
	}
	return &diff.LiveProject{ID: id, Endpoints: diff.RecordLive(eps)}
}

// WithBranches lists lp's branches: name, id, name, id...
func WithBranches(lp *diff.LiveProject, nameToID ...string) *diff.LiveProject {
	lp.Branches = []api.Branch{}
	for i := 0; i+1 < len(nameToID); i += 2 {
		lp.Branches = append(lp.Branches, api.Branch{ID: nameToID[i+1], ProjectID: lp.ID, Name: nameToID[i]})
	}
	return lp
}

// StateWith records endpoints at addresses as a previous apply would have: what
// is live now is what was applied.
func StateWith(projectID string, entries map[string]api.Endpoint) *state.State {
	st := &state.State{FormatVersion: state.FormatVersion, Lineage: "11111111-2222-4333-8444-555555555555", Serial: 7, Computes: map[string]*state.Compute{}}
	for addr, e := range entries {
		st.Computes[addr] = diff.LiveValues(&e).Record(e.ID, projectID, false)
	}
	return st
}

// Opts are the plan options of every test plan: a fixed version, URL and time.
var Opts = diff.Options{ToolVersion: "0.1.0-test", APIURL: "https://console.neon.tech/api/v2", Now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), ConfigDigest: "sha256:" + strings.Repeat("0", 64)}

// MustBuild plans and fails the test on any error.
func MustBuild(t testing.TB, cfg *config.Config, st *state.State, live *diff.Live) *diff.Plan {
	t.Helper()
	p, diags := diff.Build(cfg, st, live, Opts)
	if diags.HasErrors() {
		t.Fatalf("Build: %s", diags.String())
	}
	CheckVerifies(t, p, st)
	return p
}

// CheckVerifies checks that what Build made is what Verify derives again,
// before and after a trip through the plan file's JSON, which must match its
// schema (difftest.JSONTrip): apply must accept every plan neonform makes.
func CheckVerifies(t testing.TB, p *diff.Plan, st *state.State) {
	t.Helper()
	if err := diff.CheckMade(p); err != nil {
		t.Fatalf("the planner refuses the plan Build made: %v", err)
	}
	if st == nil {
		st = &state.State{}
	}
	read := difftest.JSONTrip(t, p)
	if err := diff.CompactBodies(read); err != nil {
		t.Fatal(err)
	}
	diff.Normalize(read)
	for _, q := range []*diff.Plan{p, read} {
		steps, err := diff.Verify(q, st)
		if err != nil {
			t.Fatalf("Verify refuses the plan Build made: %v", err)
		}
		if len(steps) != len(p.Steps) {
			t.Fatalf("Verify derives %d steps, Build made %d", len(steps), len(p.Steps))
		}
	}
}

// BuildErr plans and returns the one error diagnostic, failing the test otherwise.
func BuildErr(t *testing.T, cfg *config.Config, st *state.State, live *diff.Live) *diag.Diagnostic {
	t.Helper()
	p, diags := diff.Build(cfg, st, live, Opts)
	if !diags.HasErrors() {
		t.Fatalf("Build succeeded, want an error; plan has %d steps", len(p.Steps))
	}
	if p != nil {
		t.Errorf("Build returned a plan along with errors")
	}
	var errs []*diag.Diagnostic
	for i, d := range diags {
		if d.Severity == diag.SeverityError {
			errs = append(errs, &diags[i])
		}
	}
	if len(errs) != 1 {
		t.Fatalf("want one error, got %d: %s", len(errs), diags.String())
	}
	return errs[0]
}

// ChangeAt is the change at addr, failing the test when there is none.
func ChangeAt(t *testing.T, p *diff.Plan, addr string) *diff.Change {
	t.Helper()
	for i := range p.Changes {
		if p.Changes[i].Address == addr {
			return &p.Changes[i]
		}
	}
	t.Fatalf("no change for %s; changes: %v", addr, Addresses(p))
	return nil
}

// Addresses is each change of p as "address:action".
func Addresses(p *diff.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, c.Address+":"+c.Action.String())
	}
	return out
}

// StepLines is the plan's steps as "VERB address" lines, with "after 1,2"
// when a step waits for others, for comparing orders at a glance.
func StepLines(p *diff.Plan) []string {
	var out []string
	for _, s := range p.Steps {
		verb := s.Method
		if s.Kind == diff.StepState {
			verb = "STATE"
		}
		line := verb + " " + s.Address
		if len(s.After) > 0 {
			line += " after " + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(s.After)), ","), "[]")
		}
		out = append(out, line)
	}
	return out
}

// WorldOf is the configuration, state and live endpoints of w.
func WorldOf(w difftest.World) (*config.Config, *state.State, *diff.Live) {
	st := StateWith("", nil)
	for projectID, entries := range w.Recorded {
		maps.Copy(st.Computes, StateWith(projectID, entries).Computes)
	}
	var projects []*diff.LiveProject
	for projectID, eps := range w.Live {
		projects = append(projects, LiveProject(projectID, eps...))
	}
	return w.Config, st, LiveOf(projects...)
}

// BusyScenario is a plan with something of everything (difftest.Busy).
func BusyScenario(reverse bool) (*config.Config, *state.State, *diff.Live) {
	return WorldOf(difftest.Busy(reverse))
}

// SecretUpdate is the plan of difftest.SecretUpdate, and its state.
func SecretUpdate(t testing.TB) (*diff.Plan, *state.State) {
	cfg, st, live := WorldOf(difftest.SecretUpdate())
	return MustBuild(t, cfg, st, live), st
}

// AttributeOf is the attribute name of ch, failing the test when it has none.
func AttributeOf(t testing.TB, ch *diff.Change, name string) *diff.Attribute {
	t.Helper()
	for i := range ch.Attributes {
		if ch.Attributes[i].Name == name {
			return &ch.Attributes[i]
		}
	}
	t.Fatalf("change %s has no attribute %s", ch.Address, name)
	return nil
}

// BuildScoped plans within scope s, failing the test on any error, and
// checks the plan as MustBuild does.
func BuildScoped(t testing.TB, cfg *config.Config, st *state.State, live *diff.Live, s diff.Scope) *diff.Plan {
	t.Helper()
	opts := Opts
	opts.Scope = s
	p, diags := diff.Build(cfg, st, live, opts)
	if diags.HasErrors() {
		t.Fatalf("Build: %s", diags.String())
	}
	CheckVerifies(t, p, st)
	return p
}

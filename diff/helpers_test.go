package diff

import (
	"fmt"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

// What the model's tests build beyond difftest's configurations and
// endpoints: live projects, states and plans.

func liveOf(projects ...*LiveProject) *Live { return &Live{Projects: indexLive(projects)} }

func indexLive(projects []*LiveProject) map[string]*LiveProject {
	m := map[string]*LiveProject{}
	for _, p := range projects {
		m[p.ID] = p
	}
	return m
}

func liveProject(id string, eps ...api.Endpoint) *LiveProject {
	for i := range eps {
		eps[i].ProjectID = id
	}
	return &LiveProject{ID: id, Endpoints: RecordLive(eps)}
}

func withBranches(lp *LiveProject, nameToID ...string) *LiveProject {
	lp.Branches = []api.Branch{}
	for i := 0; i+1 < len(nameToID); i += 2 {
		lp.Branches = append(lp.Branches, api.Branch{ID: nameToID[i+1], ProjectID: lp.ID, Name: nameToID[i]})
	}
	return lp
}

// stateWith records endpoints at addresses as a previous apply would have: what
// is live now is what was applied.
func stateWith(projectID string, entries map[string]api.Endpoint) *state.State {
	st := &state.State{FormatVersion: state.FormatVersion, Lineage: "11111111-2222-4333-8444-555555555555", Serial: 7, Computes: map[string]*state.Compute{}}
	for addr, e := range entries {
		st.Computes[addr] = LiveValues(&e).Record(e.ID, projectID, false)
	}
	return st
}

var testOpts = Options{ToolVersion: "0.1.0-test", APIURL: "https://console.neon.tech/api/v2", Now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC), ConfigDigest: "sha256:" + strings.Repeat("0", 64)}

// mustBuild plans and fails the test on any error.
func mustBuild(t testing.TB, cfg *config.Config, st *state.State, live *Live) *Plan {
	t.Helper()
	p, diags := Build(cfg, st, live, testOpts)
	if diags.HasErrors() {
		t.Fatalf("Build: %s", diags.String())
	}
	checkVerifies(t, p, st)
	return p
}

// checkVerifies checks that what Build made is what Verify (and Check,
// without the state) derives again, before and after a trip through JSON, and that the JSON matches the plan
// file's schema: apply must accept every plan neonform makes. The plan file
// is this JSON (diff/planfile's TestPlanFileIsMarshalIndent), and its own
// tests take plans through the file itself.
func checkVerifies(t testing.TB, p *Plan, st *state.State) {
	t.Helper()
	if err := CheckMade(p); err != nil {
		t.Fatalf("the planner refuses the plan Build made: %v", err)
	}
	if st == nil {
		st = &state.State{}
	}
	read := jsonTrip(t, p)
	for _, q := range []*Plan{p, read} {
		steps, err := Verify(q, st)
		if err != nil {
			t.Fatalf("Verify refuses the plan Build made: %v", err)
		}
		if len(steps) != len(p.Steps) {
			t.Fatalf("Verify derives %d steps, Build made %d", len(steps), len(p.Steps))
		}
		if err := Check(q); err != nil { // what show checks, without the state
			t.Fatalf("Check refuses the plan Build made: %v", err)
		}
	}
}

// jsonTrip is p through the plan file's JSON and back (difftest.JSONTrip),
// whole again as the plan file's reader makes it.
func jsonTrip(t testing.TB, p *Plan) *Plan {
	t.Helper()
	read := difftest.JSONTrip(t, p)
	if err := CompactBodies(read); err != nil {
		t.Fatal(err)
	}
	Normalize(read)
	return read
}

// buildErr plans and returns the one error diagnostic, failing the test otherwise.
func buildErr(t *testing.T, cfg *config.Config, st *state.State, live *Live) *diag.Diagnostic {
	t.Helper()
	p, diags := Build(cfg, st, live, testOpts)
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

func changeAt(t *testing.T, p *Plan, addr string) *Change {
	t.Helper()
	for i := range p.Changes {
		if p.Changes[i].Address == addr {
			return &p.Changes[i]
		}
	}
	t.Fatalf("no change for %s; changes: %v", addr, addresses(p))
	return nil
}

func addresses(p *Plan) []string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, c.Address+":"+c.Action.String())
	}
	return out
}

// stepLines is the plan's steps as "VERB address" lines, with "after 1,2"
// when a step waits for others, for comparing orders at a glance.
func stepLines(p *Plan) []string {
	var out []string
	for _, s := range p.Steps {
		verb := s.Method
		if s.Kind == StepState {
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

// busyScenario is a plan with something of everything (difftest.Busy).
func busyScenario(reverse bool) (*config.Config, *state.State, *Live) {
	return worldOf(difftest.Busy(reverse))
}

// worldOf is the configuration, state and live endpoints of w.
func worldOf(w difftest.World) (*config.Config, *state.State, *Live) {
	st := stateWith("", nil)
	for projectID, entries := range w.Recorded {
		maps.Copy(st.Computes, stateWith(projectID, entries).Computes)
	}
	var projects []*LiveProject
	for projectID, eps := range w.Live {
		projects = append(projects, liveProject(projectID, eps...))
	}
	return w.Config, st, liveOf(projects...)
}

// hasReason reports whether the change gives the reason r, its kind and
// facts (the model records no words).
func hasReason(ch *Change, r Reason) bool {
	for _, got := range ch.Reasons {
		if reflect.DeepEqual(got, r) {
			return true
		}
	}
	return false
}

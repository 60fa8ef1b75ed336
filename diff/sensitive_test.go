package diff

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/state"
)

// Each step's state record says which values are sensitive, so that state
// show can hide them; a state entry written before it kept the list gets it
// from a state-only step, once.
func TestStateRecordsWhichValuesAreSensitive(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpPG("work_mem", "TOPSECRET"))
	c := difftest.Compute("primary", difftest.PG("work_mem", "TOPSECRET"))
	c.Sensitive = map[string]bool{"pg_settings": true}
	c.SensitiveFrom = map[string][]string{"pg_settings": {"db_tuning"}}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": live}) // an older state: no list

	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, live)))
	if got, want := stepLines(p), []string{"STATE shop.main.primary"}; !slices.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	s := p.Steps[0]
	if !slices.Equal(s.Record.Sensitive, []string{"pg_settings"}) || !strings.Contains(s.Note, "sensitive") {
		t.Errorf("the step records sensitive %q, note %q", s.Record.Sensitive, s.Note)
	}
	if got := s.Record.SensitiveFrom["pg_settings"]; !slices.Equal(got, []string{"db_tuning"}) {
		t.Errorf("the step records the variables %v", s.Record.SensitiveFrom)
	}
	if err := s.UpdateState(st, ""); err != nil {
		t.Fatal(err)
	}
	if p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, live))); len(p.Steps) != 0 {
		t.Errorf("once recorded, the plan still has steps: %v", stepLines(p))
	}
	// A state that keeps the list without the variables (written before
	// they were kept) learns them once.
	st.Computes["shop.main.primary"].SensitiveFrom = nil
	if p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, live))); len(p.Steps) != 1 || p.Steps[0].Record.SensitiveFrom == nil {
		t.Errorf("the state does not learn the variables: %v", stepLines(p))
	}
}

// A replica is adopted by its name; when the name comes from a sensitive
// variable, the warning about namesakes does not repeat it, and the reason
// records it as a fact that the views hide as they hide the name
// (diff/view's TestAdoptedSensitiveNameIsHidden).
func TestAdoptionByASensitiveNameHidesIt(t *testing.T) {
	c := difftest.Compute("reports", difftest.ReadOnly, difftest.Named("rep-TOPSECRET"))
	c.Sensitive = map[string]bool{"name": true}
	c.SensitiveFrom = map[string][]string{"name": {"replica_name"}}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"), c)))
	live := liveOf(liveProject(difftest.Proj,
		difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-a", difftest.BrMain, difftest.RO, difftest.EpName("rep-TOPSECRET")),
		difftest.Endpoint("ep-b", difftest.BrMain, difftest.RO, difftest.EpName("rep-TOPSECRET")),
	))
	p, diags := Build(cfg, nil, live, testOpts)
	if diags.HasErrors() {
		t.Fatal(diags.String())
	}
	ch := changeAt(t, p, "shop.main.reports")
	text := strings.Join(p.Warnings, "\n")
	if strings.Contains(text, "TOPSECRET") || !strings.Contains(text, "(sensitive value from var.replica_name)") || len(p.Warnings) == 0 {
		t.Errorf("warnings:\n%s", text)
	}
	if want := []Reason{{Kind: ReasonAdoptReplica, EndpointID: "ep-a", Name: "rep-TOPSECRET"}}; !cmp.Equal(ch.Reasons, want) {
		t.Errorf("reasons = %+v, want %+v", ch.Reasons, want)
	}
}

// state show's rows hide what the entry records as sensitive, keeping a
// setting's name, and name the variable when the entry records it.
func TestRowsHidingSensitiveValues(t *testing.T) {
	sc := &state.Compute{Type: difftest.RW, Applied: state.Attributes{Name: "n", MaxCU: 7, PgSettings: map[string]string{"work_mem": "TOPSECRET"}},
		Sensitive: []string{"max_cu", "pg_settings"}, SensitiveFrom: map[string][]string{"pg_settings": {"db_tuning", "extra"}}}
	got := map[string]string{}
	for _, r := range AppliedValues(sc).RowsHiding(SecretsOf(sc)) {
		got[r.Name] = r.Value
	}
	if got["max_cu"] != SensitiveValue || got["pg_settings"] != "{ work_mem = (sensitive value from var.db_tuning, var.extra) }" || got["name"] != "n" {
		t.Errorf("rows: %v", got)
	}
}

// secretUpdate is a plan that changes work_mem from TOPSECRET-1 to
// TOPSECRET-2, a sensitive variable's value, and the state it was made with.
func secretUpdate(t *testing.T) (*Plan, *state.State) {
	cfg, st, live := worldOf(difftest.SecretUpdate())
	return mustBuild(t, cfg, st, live), st
}

// A plan file whose sensitive attribute was edited is refused without
// repeating its values: the error may end up in a CI log.
func TestEditedSensitiveAttributeIsRefusedWithoutItsValues(t *testing.T) {
	p, st := secretUpdate(t)
	ch := &p.Changes[0]
	if len(ch.Attributes) != 1 {
		t.Fatalf("attributes: %+v", ch.Attributes)
	}
	ch.Attributes[0].Effect = None
	_, err := Verify(p, st)
	if err == nil || strings.Contains(err.Error(), "TOPSECRET") || !strings.Contains(err.Error(), "pg_settings.work_mem, whose values are sensitive") {
		t.Errorf("Verify: %v", err)
	}
}

// Drift of a value the state records as sensitive stays hidden after the
// variable is no longer declared sensitive, and so does the change that
// reconciles it: what was applied, and is live, came from it. The state
// then learns that it is no longer sensitive.
func TestDriftHidesWhatTheStateRecordsAsSensitive(t *testing.T) {
	applied := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpPG("work_mem", "TOPSECRET-1"))
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpPG("work_mem", "TOPSECRET-2"))
	st := stateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": applied})
	st.Computes["shop.main.primary"].Sensitive = []string{"pg_settings"}
	st.Computes["shop.main.primary"].SensitiveFrom = map[string][]string{"pg_settings": {"db_tuning"}}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary", difftest.PG("work_mem", "64MB")))))
	p := mustBuild(t, cfg, st, liveOf(liveProject(difftest.Proj, live)))
	if len(p.Drift) != 1 || len(p.Drift[0].Attributes) != 1 || !p.Drift[0].Attributes[0].Sensitive {
		t.Errorf("drift: %+v", p.Drift)
	} else if before, _ := p.Drift[0].Attributes[0].Values(); before != "(sensitive value from var.db_tuning)" {
		t.Errorf("drift shows %q", before)
	}
	if ch := changeAt(t, p, "shop.main.primary"); len(ch.Attributes) != 1 || !ch.Attributes[0].Sensitive || ch.Sensitive != nil {
		t.Errorf("the change that reconciles it: %+v", ch)
	}
}

// A sensitive text is hidden where it stands alone, never inside a word,
// naming its variable when the plan says which.
func TestHideTexts(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`invalid value for "jit": "on"`, `invalid value for "jit": "(sensitive value)"`},
		{"the operation is on", "the operation is (sensitive value)"},
		{"on: online, rep-on, on", "(sensitive value): online, rep-(sensitive value), (sensitive value)"},
		{"rep-TOPSECRET and TOPSECRET", "(sensitive value from var.replica_name) and (sensitive value from var.db_tuning)"},
	} {
		secrets := []Secret{{"rep-TOPSECRET", []string{"replica_name"}}, {"TOPSECRET", []string{"db_tuning"}}, {"on", nil}}
		if got := HideTexts(c.text, secrets); got != c.want {
			t.Errorf("HideTexts(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

package diff

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/state"
)

// Each step's state record says which values are sensitive, so that state
// show can hide them; a state entry written before it kept the list gets it
// from a state-only step, once.
func TestStateRecordsWhichValuesAreSensitive(t *testing.T) {
	live := endpoint("ep-x", brMain, rw, epName("primary"), epPg("work_mem", "TOPSECRET"))
	c := compute("primary", pg("work_mem", "TOPSECRET"))
	c.Sensitive = map[string]bool{"pg_settings": true}
	cfg := cfgOf(project("shop", proj, branchID("main", brMain, c)))
	st := stateWith(proj, map[string]api.Endpoint{"shop.main.primary": live}) // an older state: no list

	p := mustBuild(t, cfg, st, liveOf(liveProject(proj, live)))
	if got, want := stepLines(p), []string{"STATE shop.main.primary"}; !slices.Equal(got, want) {
		t.Fatalf("steps = %v, want %v", got, want)
	}
	s := p.Steps[0]
	if !slices.Equal(s.Record.Sensitive, []string{"pg_settings"}) || !strings.Contains(s.Note, "sensitive") {
		t.Errorf("the step records sensitive %q, note %q", s.Record.Sensitive, s.Note)
	}
	if err := s.UpdateState(st, ""); err != nil {
		t.Fatal(err)
	}
	if p := mustBuild(t, cfg, st, liveOf(liveProject(proj, live))); len(p.Steps) != 0 {
		t.Errorf("once recorded, the plan still has steps: %v", stepLines(p))
	}
}

// A compute no longer configured is deleted; the state's record of which
// of its values are sensitive hides their drift, and the change carries it.
func TestDeletedComputeKeepsItsSensitivity(t *testing.T) {
	applied := endpoint("ep-x", brMain, ro, epName("old"), epPg("work_mem", "TOPSECRET-1"))
	live := endpoint("ep-x", brMain, ro, epName("old"), epPg("work_mem", "TOPSECRET-2"))
	st := stateWith(proj, map[string]api.Endpoint{"shop.main.old": applied})
	st.Computes["shop.main.old"].Sensitive = []string{"pg_settings"}
	cfg := cfgOf(project("shop", proj, branchID("main", brMain)))
	p := mustBuild(t, cfg, st, liveOf(liveProject(proj, live)))

	if ch := changeAt(t, p, "shop.main.old"); ch.Action != Delete || !slices.Equal(ch.Sensitive, []string{"pg_settings"}) {
		t.Errorf("change: %s, sensitive %q", ch.Action, ch.Sensitive)
	}
	if len(p.Drift) != 1 || len(p.Drift[0].Attributes) != 1 || !p.Drift[0].Attributes[0].Sensitive {
		t.Fatalf("drift: %+v", p.Drift)
	}
	var out strings.Builder
	if err := RenderHuman(&out, p, HumanOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "TOPSECRET") {
		t.Errorf("the plan shows a sensitive value:\n%s", out.String())
	}
	destroy := buildScoped(t, cfg, st, liveOf(liveProject(proj, live)), Scope{Destroy: true})
	if ch := changeAt(t, destroy, "shop.main.old"); ch.Action != Delete || !slices.Equal(ch.Sensitive, []string{"pg_settings"}) {
		t.Errorf("destroy: %s, sensitive %q", ch.Action, ch.Sensitive)
	}
}

// A replica is adopted by its name; when the name comes from a sensitive
// variable, neither the reason nor the warning about namesakes repeats it.
func TestAdoptionByASensitiveNameHidesIt(t *testing.T) {
	c := compute("reports", readOnly, named("rep-TOPSECRET"))
	c.Sensitive = map[string]bool{"name": true}
	cfg := cfgOf(project("shop", proj, branchID("main", brMain, compute("primary"), c)))
	live := liveOf(liveProject(proj,
		endpoint("ep-primary", brMain, rw, epName("primary")),
		endpoint("ep-a", brMain, ro, epName("rep-TOPSECRET")),
		endpoint("ep-b", brMain, ro, epName("rep-TOPSECRET")),
	))
	p, diags := Build(cfg, nil, live, testOpts)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	ch := changeAt(t, p, "shop.main.reports")
	text := strings.Join(append(ch.Reasons, p.Warnings...), "\n")
	if strings.Contains(text, "TOPSECRET") || !strings.Contains(text, "named "+SensitiveValue) || len(p.Warnings) == 0 {
		t.Errorf("reasons and warnings:\n%s", text)
	}
}

// state show's rows hide what the entry records as sensitive, keeping a
// setting's name.
func TestRowsHidingSensitiveValues(t *testing.T) {
	sc := &state.Compute{Type: rw, Applied: state.Attributes{Name: "n", MaxCU: 7, PgSettings: map[string]string{"work_mem": "TOPSECRET"}},
		Sensitive: []string{"max_cu", "pg_settings"}}
	got := map[string]string{}
	for _, r := range AppliedValues(sc).RowsHiding(sc.Sensitive) {
		got[r.Name] = r.Value
	}
	if got["max_cu"] != SensitiveValue || got["pg_settings"] != "{ work_mem = (sensitive value) }" || got["name"] != "n" {
		t.Errorf("rows: %v", got)
	}
}

// secretUpdate is a plan that changes work_mem from TOPSECRET-1 to
// TOPSECRET-2, a sensitive variable's value, and the state it was made with.
func secretUpdate(t *testing.T) (*Plan, *state.State) {
	live := endpoint("ep-x", brMain, rw, epName("c"), epPg("work_mem", "TOPSECRET-1"))
	c := compute("c", pg("work_mem", "TOPSECRET-2"))
	c.Sensitive = map[string]bool{"pg_settings": true}
	cfg := cfgOf(project("shop", proj, branchID("main", brMain, c)))
	st := stateWith(proj, map[string]api.Endpoint{"shop.main.c": live})
	return mustBuild(t, cfg, st, liveOf(liveProject(proj, live))), st
}

// secretUpdateFile saves secretUpdate's plan: its path and its bytes.
func secretUpdateFile(t *testing.T) (string, []byte) {
	p, _ := secretUpdate(t)
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
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

// A plan file whose request body was edited is refused, and the refusal,
// which quotes the bodies, hides the values the plan took from sensitive
// variables.
func TestEditedBodyIsRefusedWithoutTheSensitiveValues(t *testing.T) {
	path, b := secretUpdateFile(t)
	body := strings.Index(string(b), `"body"`)
	edited := string(b[:body]) + strings.Replace(string(b[body:]), `"work_mem": "TOPSECRET-2"`, `"work_mem": "TOPSECRET-2", "wal_level": "x"`, 1)
	if !strings.Contains(string(b[body:]), `"work_mem": "TOPSECRET-2"`) || edited == string(b) {
		t.Fatalf("the body is not as expected:\n%s", b[body:])
	}
	os.WriteFile(path, []byte(edited), 0o600)
	_, err := ReadFile(path)
	if err == nil || strings.Contains(err.Error(), "TOPSECRET") || !strings.Contains(err.Error(), "its body is") {
		t.Errorf("ReadFile: %v", err)
	}
}

// Drift of a value the state records as sensitive stays hidden after the
// variable is no longer declared sensitive, and so does the change that
// reconciles it: what was applied, and is live, came from it. The state
// then learns that it is no longer sensitive.
func TestDriftHidesWhatTheStateRecordsAsSensitive(t *testing.T) {
	applied := endpoint("ep-x", brMain, rw, epName("primary"), epPg("work_mem", "TOPSECRET-1"))
	live := endpoint("ep-x", brMain, rw, epName("primary"), epPg("work_mem", "TOPSECRET-2"))
	st := stateWith(proj, map[string]api.Endpoint{"shop.main.primary": applied})
	st.Computes["shop.main.primary"].Sensitive = []string{"pg_settings"}
	cfg := cfgOf(project("shop", proj, branchID("main", brMain, compute("primary", pg("work_mem", "64MB")))))
	p := mustBuild(t, cfg, st, liveOf(liveProject(proj, live)))
	if len(p.Drift) != 1 || len(p.Drift[0].Attributes) != 1 || !p.Drift[0].Attributes[0].Sensitive {
		t.Errorf("drift: %+v", p.Drift)
	}
	if ch := changeAt(t, p, "shop.main.primary"); len(ch.Attributes) != 1 || !ch.Attributes[0].Sensitive || ch.Sensitive != nil {
		t.Errorf("the change that reconciles it: %+v", ch)
	}
}

// A sensitive text is hidden where it stands alone, never inside a word.
func TestHideTexts(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`invalid value for "jit": "on"`, `invalid value for "jit": "(sensitive value)"`},
		{"the operation is on", "the operation is (sensitive value)"},
		{"on: online, rep-on, on", "(sensitive value): online, rep-(sensitive value), (sensitive value)"},
		{"rep-TOPSECRET and TOPSECRET", "(sensitive value) and (sensitive value)"},
	} {
		if got := HideTexts(c.text, []string{"rep-TOPSECRET", "TOPSECRET", "on"}); got != c.want {
			t.Errorf("HideTexts(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A plan file read back hides every attribute its change lists as
// sensitive, even one the file does not mark.
func TestReadFileHidesWhatTheChangeListsAsSensitive(t *testing.T) {
	path, b := secretUpdateFile(t)
	unmarked := strings.Replace(string(b), `"effect": "restart",`+"\n          \"sensitive\": true", `"effect": "restart"`, 1)
	if unmarked == string(b) {
		t.Fatalf("the attribute is not marked as expected:\n%s", b)
	}
	os.WriteFile(path, []byte(unmarked), 0o600)
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := RenderHuman(&out, back, HumanOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "TOPSECRET") {
		t.Errorf("show repeats the value:\n%s", out.String())
	}
}

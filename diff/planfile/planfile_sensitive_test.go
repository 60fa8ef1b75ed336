package planfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/diff/view"
)

// secretUpdateFile saves secretUpdate's plan: its path and its bytes.
func secretUpdateFile(t *testing.T) (string, []byte) {
	p, _ := plantest.SecretUpdate(t)
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
	if err := view.Human(&out, back, view.HumanOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "TOPSECRET") {
		t.Errorf("show repeats the value:\n%s", out.String())
	}
}

// A saved plan names the variable its hidden values come from, in show and
// in the printed JSON, and still verifies: the step's record carries the
// variables as the change does. A plan written before it kept them reads,
// and says "(sensitive value)".
func TestSavedPlanNamesTheSensitiveVariable(t *testing.T) {
	path, b := secretUpdateFile(t)
	if !strings.Contains(string(b), `"sensitive_from"`) {
		t.Fatalf("the plan file does not keep the variables:\n%s", b)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, st := plantest.SecretUpdate(t)
	if _, err := diff.Verify(back, st); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	var human, printed strings.Builder
	if err := view.Human(&human, back, view.HumanOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if err := RenderJSON(&printed, back); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"show": human.String(), "the printed JSON": printed.String()} {
		if strings.Contains(out, "TOPSECRET") || !strings.Contains(out, "(sensitive value from var.db_tuning)") {
			t.Errorf("%s does not name the variable, or repeats the value:\n%s", what, out)
		}
	}

	old := strings.NewReplacer(`"sensitive_from"`, `"x_sensitive_from"`).Replace(string(b))
	var doc map[string]any
	if err := json.Unmarshal([]byte(old), &doc); err != nil {
		t.Fatal(err)
	}
	dropKey(doc, "x_sensitive_from")
	ob, _ := json.Marshal(doc)
	os.WriteFile(path, ob, 0o600)
	back, err = ReadFile(path)
	if err != nil {
		t.Fatalf("a plan without sensitive_from: %v", err)
	}
	human.Reset()
	if err := view.Human(&human, back, view.HumanOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	// (The reasons are the planner's text, written with the variable's name.)
	if out := human.String(); strings.Contains(out, "TOPSECRET") || !strings.Contains(out, "work_mem  (sensitive value) -> (sensitive value)") {
		t.Errorf("show of a plan without sensitive_from:\n%s", out)
	}
}

// Drift names the variable the state says the applied value came from; the
// change, the configuration's; and the saved plan says the same once read.
func TestDriftAndChangeNameTheirOwnVariables(t *testing.T) {
	applied := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpPG("work_mem", "TOPSECRET-1"))
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("primary"), difftest.EpPG("work_mem", "TOPSECRET-2"))
	st := plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.primary": applied})
	st.Computes["shop.main.primary"].Sensitive = []string{"pg_settings"}
	st.Computes["shop.main.primary"].SensitiveFrom = map[string][]string{"pg_settings": {"old_tuning"}}
	c := difftest.Compute("primary", difftest.PG("work_mem", "TOPSECRET-3"))
	c.Sensitive = map[string]bool{"pg_settings": true}
	c.SensitiveFrom = map[string][]string{"pg_settings": {"new_tuning"}}
	p := plantest.MustBuild(t, difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c))), st, plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []*diff.Plan{p, back} {
		if len(p.Drift) != 1 || len(p.Drift[0].Attributes) != 1 {
			t.Fatalf("drift: %+v", p.Drift)
		}
		if before, _ := p.Drift[0].Attributes[0].Values(); before != "(sensitive value from var.old_tuning)" {
			t.Errorf("drift shows %q", before)
		}
		ch := plantest.ChangeAt(t, p, "shop.main.primary")
		if len(ch.Attributes) != 1 {
			t.Fatalf("change: %+v", ch.Attributes)
		}
		if _, after := ch.Attributes[0].Values(); after != "(sensitive value from var.new_tuning)" {
			t.Errorf("the change shows %q", after)
		}
	}
}

// dropKey deletes key from every object within v.
func dropKey(v any, key string) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, key)
		for _, e := range v {
			dropKey(e, key)
		}
	case []any:
		for _, e := range v {
			dropKey(e, key)
		}
	}
}

package planfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/diff/view"
)

// A value from a sensitive variable is never shown: not in the attribute
// rows, the reasons, the size line, the Markdown or the printed JSON (whose
// live endpoints and request bodies hold it too); the plan file keeps it.
func TestSensitiveValuesAreHidden(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpCU(1, 1), difftest.EpPG("password_encryption", "md5"))
	c := difftest.Compute("c", difftest.CU(7, 7), difftest.PG("password_encryption", "scram-sha-256"))
	c.Sensitive = map[string]bool{"size": true, "pg_settings": true}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	p := plantest.MustBuild(t, cfg, plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))
	ch := plantest.ChangeAt(t, p, "shop.main.c")
	for _, a := range ch.Attributes {
		if !a.Sensitive {
			t.Errorf("%s is not marked sensitive", a.Name)
		}
	}
	if !slices.Equal(ch.Sensitive, []string{"min_cu", "max_cu", "pg_settings"}) {
		t.Errorf("the change's sensitive attributes are %q", ch.Sensitive)
	}
	var human, md, js strings.Builder
	if err := view.Human(&human, p, view.HumanOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if err := view.Markdown(&md, p, 0); err != nil {
		t.Fatal(err)
	}
	if err := RenderJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"human": human.String(), "markdown": md.String(), "json": js.String()} {
		for _, secret := range []string{"scram-sha-256", "md5", "7 CU", "28 GB", "-> 7", `_cu": 7`, `"after": 7`, `"min_cu": 1`, `"max_cu": 1`} {
			if strings.Contains(out, secret) {
				t.Errorf("%s output shows %q:\n%s", name, secret, out)
			}
		}
		if !strings.Contains(out, "(sensitive value)") {
			t.Errorf("%s output does not say a value is hidden:\n%s", name, out)
		}
	}
}

// The printed JSON says it is redacted, and apply (ReadFile) refuses it: its
// hidden values would otherwise be sent as the settings' text. The plan file
// keeps the values.
func TestRedactedPlanIsRefused(t *testing.T) {
	live := difftest.Endpoint("ep-x", difftest.BrMain, difftest.RW, difftest.EpName("c"), difftest.EpCU(1, 1))
	c := difftest.Compute("c", difftest.CU(1, 1), difftest.PG("work_mem", "TOPSECRET-1"))
	c.Sensitive = map[string]bool{"pg_settings": true}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	p := plantest.MustBuild(t, cfg, plantest.StateWith(difftest.Proj, map[string]api.Endpoint{"shop.main.c": live}), plantest.LiveOf(plantest.LiveProject(difftest.Proj, live)))
	var printed strings.Builder
	if err := RenderJSON(&printed, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(printed.String(), "TOPSECRET") || !strings.Contains(printed.String(), `"redacted": true`) {
		t.Fatalf("printed:\n%s", printed.String())
	}
	dir := t.TempDir()
	file, shown := filepath.Join(dir, "plan.json"), filepath.Join(dir, "shown.json")
	if err := WriteFile(file, p); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), "TOPSECRET-1") || strings.Contains(string(b), "redacted") {
		t.Errorf("the plan file does not keep the value apply needs:\n%s", b)
	}
	if _, err := ReadFile(file); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shown, []byte(printed.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(shown)
	if err == nil || !strings.Contains(err.Error(), "sensitive variables hidden, so neither show nor apply uses it") {
		t.Errorf("reading the printed plan: %v", err)
	}
}

// A replica adopted by a name from a sensitive variable: the reason records
// the name as a fact, which the plan file keeps and the printed JSON and
// the views hide, as they hide the name everywhere else.
func TestAdoptedSensitiveNameIsHidden(t *testing.T) {
	c := difftest.Compute("reports", difftest.ReadOnly, difftest.Named("rep-TOPSECRET"))
	c.Sensitive = map[string]bool{"name": true}
	c.SensitiveFrom = map[string][]string{"name": {"replica_name"}}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, difftest.Compute("primary"), c)))
	live := plantest.LiveOf(plantest.LiveProject(difftest.Proj,
		difftest.Endpoint("ep-primary", difftest.BrMain, difftest.RW, difftest.EpName("primary")),
		difftest.Endpoint("ep-a", difftest.BrMain, difftest.RO, difftest.EpName("rep-TOPSECRET"))))
	p := plantest.MustBuild(t, cfg, nil, live)
	var human, js strings.Builder
	if err := view.Human(&human, p, view.HumanOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if err := RenderJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(human.String(), "TOPSECRET") {
		t.Errorf("the plan shows the name:\n%s", human.String())
	}
	if out := js.String(); strings.Contains(out, "TOPSECRET") || strings.Contains(out, `"text"`) {
		t.Errorf("the printed JSON:\n%s", out)
	}
	if !strings.Contains(js.String(), `"kind": "adopt_replica"`) || !strings.Contains(js.String(), `"name": "(sensitive value from var.replica_name)"`) {
		t.Errorf("the printed JSON does not keep the reason with its name hidden:\n%s", js.String())
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := WriteFile(path, p); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"kind": "adopt_replica",`+"\n          \"endpoint_id\": \"ep-a\",\n          \"name\": \"rep-TOPSECRET\"\n") {
		t.Errorf("the plan file does not keep the reason's name, which apply checks:\n%s", b)
	}
}

// A type from a sensitive variable is hidden wherever the printed JSON
// holds it under the table's key: the change, its step's record, and the
// reason that names the compute created (which printed it before every
// object took its keys from the table).
func TestSensitiveTypeIsHiddenEverywhere(t *testing.T) {
	c := difftest.Compute("reports", difftest.ReadOnly)
	c.Sensitive = map[string]bool{"type": true}
	c.SensitiveFrom = map[string][]string{"type": {"kind"}}
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain, c)))
	p := plantest.MustBuild(t, cfg, nil, plantest.LiveOf(plantest.LiveProject(difftest.Proj)))
	var js strings.Builder
	if err := RenderJSON(&js, p); err != nil {
		t.Fatal(err)
	}
	out := js.String()
	if strings.Contains(out, `"read_only"`) {
		t.Errorf("the printed JSON shows the type:\n%s", out)
	}
	if !strings.Contains(out, `"kind": "new_compute"`) || !strings.Contains(out, `"type": "(sensitive value from var.kind)"`) {
		t.Errorf("the printed JSON does not keep the reason with its type hidden:\n%s", out)
	}
}

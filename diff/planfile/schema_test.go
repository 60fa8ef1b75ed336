package planfile

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/plantest"
	"github.com/neonform/neonform/internal/planschema"
)

// The schema names the attributes of the attribute table, and only them: an
// attribute added to the table must be added to the documented format.
func TestSchemaKnowsEveryAttribute(t *testing.T) {
	check := planschema.MustChecker(Schema)
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	for _, name := range diff.AttributeNames() {
		if name == "pg_settings" {
			name = "pg_settings.work_mem"
		}
		p.Changes[0].Attributes = []diff.Attribute{{Name: name, Before: nil, After: "x", Effect: diff.None}}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(b); err != nil {
			t.Errorf("the schema refuses attribute %s: %v", name, err)
		}
	}
	p.Changes[0].Attributes = []diff.Attribute{{Name: "pooler_enabled", After: true, Effect: diff.None}}
	b, _ := json.Marshal(p)
	if err := check(b); err == nil || !strings.Contains(err.Error(), "/changes/0/attributes/0/name") {
		t.Errorf("the schema takes an attribute the table lacks: %v", err)
	}
}

// The schema knows every kind of reason and every fact, and only them: a
// kind added to the model must be added to the documented format.
func TestSchemaKnowsEveryReasonKind(t *testing.T) {
	check := planschema.MustChecker(Schema)
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	for _, kind := range diff.ReasonKinds() {
		p.Changes[0].Reasons = []diff.Reason{{Kind: kind, Attribute: "max_cu", EndpointID: "ep-x", Type: "read_only", Name: "c",
			Address: "shop.main.c", From: "shop.main.c[deposed:ep-x]", Branch: &diff.Branch{ID: "br-1", Label: "shop.main"},
			ToBranch: &diff.Branch{ID: "br-2"}, MovedIn: true}}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(b); err != nil {
			t.Errorf("the schema refuses a reason of kind %s: %v", kind, err)
		}
	}
	p.Changes[0].Reasons = []diff.Reason{{Kind: "because"}}
	b, _ := json.Marshal(p)
	if err := check(b); err == nil || !strings.Contains(err.Error(), "/changes/0/reasons/0/kind") {
		t.Errorf("the schema takes a kind the model lacks: %v", err)
	}
	var doc map[string]any
	json.Unmarshal(b, &doc)
	doc["changes"].([]any)[0].(map[string]any)["reasons"] = []any{"new read replica on branch shop.main"}
	b, _ = json.Marshal(doc)
	if err := check(b); err == nil || !strings.Contains(err.Error(), "/changes/0/reasons/0") {
		t.Errorf("the schema takes a reason written as a sentence (format 2): %v", err)
	}
}

// The schema is strict: a field it does not list is refused, so that the
// format cannot grow a field that docs/plan-format.md does not describe.
func TestSchemaRefusesAnUndocumentedField(t *testing.T) {
	check := planschema.MustChecker(Schema)
	cfg, st, live := plantest.BusyScenario(false)
	b, err := json.Marshal(plantest.MustBuild(t, cfg, st, live))
	if err != nil {
		t.Fatal(err)
	}
	if err := check(b); err != nil {
		t.Fatalf("a plan Build made does not match: %v", err)
	}
	var doc map[string]any
	json.Unmarshal(b, &doc)
	doc["steps"].([]any)[0].(map[string]any)["retries"] = 3
	b, _ = json.Marshal(doc)
	if err := check(b); err == nil || !strings.Contains(err.Error(), "retries") {
		t.Errorf("an undocumented field in a step is taken: %v", err)
	}
}

// docs/plan-format.md lists every field and every enum value the schema has.
func TestPlanFormatDocumentsEverySchemaField(t *testing.T) {
	doc, err := os.ReadFile("../../docs/plan-format.md")
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(Schema, &schema); err != nil {
		t.Fatal(err)
	}
	seen := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name := range props {
					seen++
					if !strings.Contains(string(doc), "`"+name+"`") {
						t.Errorf("docs/plan-format.md does not describe the field %s", name)
					}
				}
			}
			if enum, ok := v["enum"].([]any); ok {
				for _, e := range enum {
					if !strings.Contains(string(doc), fmt.Sprintf("`%v`", e)) {
						t.Errorf("docs/plan-format.md does not list the value %v", e)
					}
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(schema)
	if seen < 60 {
		t.Errorf("the schema lists %d fields; is the walk broken?", seen)
	}
	if !strings.Contains(string(doc), fmt.Sprintf("`format_version`, which is **%d**", diff.FormatVersion)) {
		t.Errorf("docs/plan-format.md does not tie its promise to format_version %d", diff.FormatVersion)
	}
}

// The schema takes a cost range whose numbers are known or null, and refuses
// one that leaves a field out or gives a number as text.
func TestSchemaKnowsTheCost(t *testing.T) {
	check := planschema.MustChecker(Schema)
	cfg, st, live := plantest.BusyScenario(false)
	p := plantest.MustBuild(t, cfg, st, live)
	hours := 100.0
	p.Changes[0].Cost = diff.ChangeCost{
		Before:              diff.CostRange{CUHoursMin: 0, CUHoursMax: 730, USDMin: 0, USDMax: 77.38, Known: true, Priced: true},
		After:               diff.CostRange{}, // all null
		ExpectedActiveHours: &hours,
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(b); err != nil {
		t.Errorf("the schema refuses a cost: %v", err)
	}
	for _, edit := range []struct{ from, to string }{
		{`"usd_max":77.38`, `"usd_max":"77.38"`},
		{`"usd_max":77.38`, `"usd_maximum":77.38`},
		{`"expected_active_hours":100`, `"expected_active_hours":731`},
	} {
		bad := strings.Replace(string(b), edit.from, edit.to, 1)
		if bad == string(b) {
			t.Fatalf("the edit %s did not apply", edit.from)
		}
		if err := check([]byte(bad)); err == nil || !strings.Contains(err.Error(), "/changes/0/cost") {
			t.Errorf("the schema takes %s: %v", edit.to, err)
		}
	}
}

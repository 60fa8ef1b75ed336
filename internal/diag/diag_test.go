package diag

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestJSONOfARange(t *testing.T) {
	r := hcl.Range{Filename: "main.hcl", Start: hcl.Pos{Line: 3, Column: 12, Byte: 40}, End: hcl.Pos{Line: 3, Column: 15, Byte: 43}}
	d := FromHCL(hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: "Unsupported compute size", Detail: "Use 0.25 to 16.", Subject: &r}})[0]
	got, err := json.Marshal(d.ToJSON())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"severity":"warning","summary":"Unsupported compute size","detail":"Use 0.25 to 16.",` +
		`"range":{"filename":"main.hcl","start":{"line":3,"column":12,"byte":40},"end":{"line":3,"column":15,"byte":43}}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestJSONOfAnAddress(t *testing.T) {
	d := AtAddress("shop.main.primary", "Plan file edited", "step 1 is not what the plan's changes make")
	d.PlanFile = "plan.json"
	got, err := json.Marshal(Diagnostics{d}.ToJSON())
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"severity":"error","summary":"Plan file edited","detail":"step 1 is not what the plan's changes make",` +
		`"address":"shop.main.primary","plan_file":"plan.json"}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestJSONClipsAsPeopleSeeIt(t *testing.T) {
	long := fmt.Sprintf("%0*d", MaxDetail*2, 7)
	j := AtAddress("a.b.c", "Too long", long).ToJSON()
	if len(j.Detail) > MaxDetail+100 || j.Detail[len(j.Detail)-10:] != long[len(long)-10:] {
		t.Errorf("detail of %d bytes not clipped to about %d, keeping its end: %q...", len(j.Detail), MaxDetail, j.Detail[:40])
	}
}

// Config's diagnostics convert with every field they have, so converting at
// config's boundary loses nothing (an editor may read Context, Expression).
func TestFromHCLLosesNothing(t *testing.T) {
	subject := hcl.Range{Filename: "a.hcl", Start: hcl.Pos{Line: 1, Column: 1}, End: hcl.Pos{Line: 1, Column: 4, Byte: 3}}
	context := hcl.Range{Filename: "a.hcl", End: hcl.Pos{Line: 2, Column: 1, Byte: 10}}
	evalCtx := &hcl.EvalContext{}
	in := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "S", Detail: "D", Subject: &subject, Context: &context, Extra: 42, EvalContext: evalCtx},
		{Severity: hcl.DiagWarning, Summary: "W"},
	}
	want := Diagnostics{
		{Severity: SeverityError, Summary: "S", Detail: "D", Range: &subject, Context: &context, Extra: 42, EvalContext: evalCtx},
		{Severity: SeverityWarning, Summary: "W"},
	}
	ds := FromHCL(in)
	if !reflect.DeepEqual(ds, want) {
		t.Errorf("FromHCL:\n%#v\nwant\n%#v", ds, want)
	}
	// Every field of hcl.Diagnostic has its place: one added upstream fails here.
	if n := reflect.TypeFor[hcl.Diagnostic]().NumField(); n != 8 {
		t.Errorf("hcl.Diagnostic has %d fields; FromHCL converts 8", n)
	}
	if !ds.HasErrors() || ds[1:].HasErrors() {
		t.Error("HasErrors does not follow the severities")
	}
}

func TestErrorsAsFindsTheDiagnostics(t *testing.T) {
	err := fmt.Errorf("apply: %w", ErrorAt("shop.main.primary", "Plan file edited", "step 1 differs"))
	if err.Error() != "apply: step 1 differs" {
		t.Errorf("Error() = %q: people read the sentence, not the fields", err.Error())
	}
	var de *Error
	if !errors.As(err, &de) || de.Diagnostics[0].Address != "shop.main.primary" || de.Diagnostics[0].Summary != "Plan file edited" {
		t.Fatalf("errors.As did not find the diagnostic: %#v", de)
	}
	two := &Error{Diagnostics: Diagnostics{AtAddress("a", "First", "one"), {Severity: SeverityWarning, Summary: "W"}, AtAddress("b", "Second", "")}}
	if got := two.Error(); got != "First: one; Second" {
		t.Errorf("Error() without a message = %q", got)
	}
}

// String says a diagnostic on one line as hcl did, so that a test's failure
// message or a bug's error reads the same as before config returned these.
func TestStringIsHCLs(t *testing.T) {
	r := hcl.Range{Filename: "main.hcl", Start: hcl.Pos{Line: 3, Column: 12, Byte: 40}, End: hcl.Pos{Line: 3, Column: 15, Byte: 43}}
	hd := hcl.Diagnostics{
		{Severity: hcl.DiagError, Summary: "Unsupported compute size", Detail: "Use 0.25 to 16.", Subject: &r},
		{Severity: hcl.DiagWarning, Summary: "No computes", Detail: "Add a compute block."},
	}
	ds := FromHCL(hd)
	if got, want := ds[0].String(), hd[0].Error(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := ds.String(), hd.Error(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got, want := ds[1].String(), "No computes; Add a compute block."; got != want {
		t.Errorf("without a subject: got %q, want %q", got, want)
	}
	at := AtAddress("shop.main.primary", "Plan file edited", "step 1 differs")
	at.PlanFile = "plan.json"
	if got, want := at.String(), "shop.main.primary in plan.json: Plan file edited; step 1 differs"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (Diagnostics{}).String(); got != "no diagnostics" {
		t.Errorf("none: %q", got)
	}
}

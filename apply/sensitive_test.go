package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/diag"
)

// secretReplica names the replica and sets the primary's work_mem from a
// sensitive variable; its values hold the marker TOPSECRET.
const secretReplica = `
variable "tuning" {
  sensitive = true
  default   = "TOPSECRET1MB"
}
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      pg_settings = { work_mem = var.tuning }
    }
    compute "reports" {
      type = "read_only"
      name = "rep-${var.tuning}"
    }
  }
}
`

// What apply says of a create whose answer was lost, and the progress of
// the create, never repeat a name from a sensitive variable.
func TestLostCreateHidesASensitiveName(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.loseAnswers("POST", "/endpoints", 1)
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), w.plan(secretReplica), &out)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), " create-found ") || len(rep.Failed) > 0 {
		t.Fatalf("the lost answer was not noted:\n%s", out.String())
	}
	if strings.Contains(out.String(), "TOPSECRET") || !strings.Contains(out.String(), "named (sensitive value from var.tuning)") {
		t.Errorf("progress repeats the sensitive name, or does not say it is hidden:\n%s", out.String())
	}
	w.checkConverged(secretReplica, shop)
}

// A create whose answer was lost, after which the branch has an endpoint of
// its name whose size differs, is refused; the refusal names the variables
// the name and the size come from, and repeats neither.
func TestLostCreateRefusalNamesTheSensitiveVariables(t *testing.T) {
	const src = `
variable "tuning" {
  sensitive = true
  default   = "TOPSECRET1MB"
}
variable "cu" {
  sensitive = true
  default   = 1
}
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {}
    compute "reports" {
      type   = "read_only"
      name   = "rep-${var.tuning}"
      min_cu = var.cu
      max_cu = var.cu
    }
  }
}
`
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(src)
	w.loseCreateMaking(func(ep map[string]any) {
		ep["autoscaling_limit_min_cu"], ep["autoscaling_limit_max_cu"] = 2, 2
	})
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), p, &out)
	if err == nil || len(rep.Failed) != 1 {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	msg := rep.Failed[0].Err.Error()
	for _, want := range []string{`named "(sensitive value from var.tuning)"`, "min_cu is (sensitive value from var.cu) there, the create asked for (sensitive value from var.cu)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, msg)
		}
	}
	if all := out.String() + msg; strings.Contains(all, "TOPSECRET") {
		t.Errorf("the refusal repeats a sensitive value:\n%s", all)
	}
}

// The stale-plan explanation says which attribute changed since the plan,
// not its values, when they came from a sensitive variable: even when the
// plan does not change that attribute.
func TestStalePlanHidesSensitiveValues(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(secretReplica)
	p := w.plan(strings.Replace(secretReplica, `compute "primary" {`, "compute \"primary\" {\n      size = 2", 1))
	var primary string
	for _, ch := range p.Changes {
		if ch.Address == "shop.main.primary" {
			primary = ch.EndpointID
		}
	}
	if _, err := w.c.UpdateEndpoint(context.Background(), shop, primary,
		api.EndpointUpdate{Settings: &api.SettingsRequest{PgSettings: map[string]string{"work_mem": "TOPSECRET2MB"}}}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	_, err := w.apply(context.Background(), p, &out)
	var stale *StaleError
	if !errors.As(err, &stale) {
		t.Fatalf("want a StaleError, got %v", err)
	}
	want := StaleFact{Kind: StaleAttribute, Attribute: "pg_settings.work_mem", Was: "(sensitive value from var.tuning)", Now: "(sensitive value from var.tuning)"}
	if msg := fmt.Sprintf("%+v", stale.Facts) + out.String(); strings.Contains(msg, "TOPSECRET") || !hasFact(stale, want) {
		t.Errorf("the explanation repeats a sensitive value, or does not say which changed:\n%s", msg)
	}
}

// A service that refuses a value may quote it: apply's progress, report and
// error print it hidden.
func TestRefusalQuotingASensitiveValueIsHidden(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.refuse("PATCH", "/endpoints/", 400, `invalid value for parameter \"work_mem\": \"TOPSECRET1MB\"`)
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), w.plan(secretReplica), &out)
	if rep == nil || len(rep.Failed) != 1 {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	all := out.String() + rep.Failed[0].Err.Error()
	if strings.Contains(all, "TOPSECRET") || !strings.Contains(all, `"work_mem": "(sensitive value from var.tuning)"`) {
		t.Errorf("the refusal repeats the sensitive value, or is not shown:\n%s", all)
	}
	var apiErr *api.Error
	if !errors.As(rep.Failed[0].Err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("the hidden error is no longer the service's: %#v", rep.Failed[0].Err)
	}
}

// Another apply of the same configuration made the replica since the plan:
// the stale plan's explanation names it without its sensitive name.
func TestStalePlanHidesTheSensitiveNameOfANewEndpoint(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(secretReplica)
	var branch string
	for _, ch := range p.Changes {
		if ch.Address == "shop.main.reports" {
			branch = ch.BranchID
		}
	}
	if _, err := w.c.CreateEndpoint(context.Background(), shop,
		api.EndpointCreate{BranchID: branch, Type: api.EndpointTypeReadOnly, Name: "rep-TOPSECRET1MB"}); err != nil {
		t.Fatal(err)
	}
	_, err := w.apply(context.Background(), p, nil)
	var stale *StaleError
	if !errors.As(err, &stale) {
		t.Fatalf("want a StaleError, got %v", err)
	}
	want := StaleFact{Kind: StaleEndpointCreated, Type: "read_only", Name: "(sensitive value from var.tuning)"}
	if msg := fmt.Sprintf("%+v", stale.Facts); strings.Contains(msg, "TOPSECRET") || !hasFact(stale, want) {
		t.Errorf("the explanation:\n%s", msg)
	}
}

// apply refuses a plan whose request body differs from what its changes
// make, naming the difference without the values of sensitive variables.
func TestDamagedPlanHidesSensitiveValues(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(secretReplica)
	for i := range p.Steps {
		if p.Steps[i].Kind == diff.StepUpdate {
			p.Steps[i].Body = []byte(strings.Replace(string(p.Steps[i].Body), `"work_mem":"TOPSECRET1MB"`, `"work_mem":"TOPSECRET1MB","wal_level":"x"`, 1))
		}
	}
	_, err := w.apply(context.Background(), p, nil)
	var damaged *DamagedPlanError
	if !errors.As(err, &damaged) || strings.Contains(err.Error(), "TOPSECRET") || !strings.Contains(err.Error(), "its body is") {
		t.Errorf("apply: %v", err)
	}
	// The same refusal as a diagnostic (apply -json) hides them too.
	var refusal *diag.Error
	if !errors.As(err, &refusal) || len(refusal.Diagnostics) != 1 {
		t.Fatalf("the refusal carries no diagnostic: %#v", err)
	}
	if d := refusal.Diagnostics[0]; d.Address == "" || d.Detail != err.Error() || strings.Contains(d.Summary+d.Detail, "TOPSECRET") {
		t.Errorf("diagnostic %+v: want the compute's address and the error's sentence, without the secret", d)
	}
}

package apply

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptrace"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

// devAppWith is a project whose dev branch holds one compute, "app", of type
// typ, with prevent_destroy as given.
func devAppWith(typ string, preventDestroy bool) string {
	pd := "false"
	if preventDestroy {
		pd = "true"
	}
	return `project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {}
  }
  branch "dev" {
    compute "app" {
      type = "` + typ + `"
      lifecycle {
        prevent_destroy = ` + pd + `
      }
    }
  }
}`
}

// interruptReplacement applies the replacement of shop.dev.app (read_only
// to read_write) with every create lost on its way: the apply ends with the
// old endpoint deposed in the state and nothing made. It returns the old
// endpoint's id.
func interruptReplacement(t *testing.T, w *world) string {
	t.Helper()
	w.mustApply(devAppWith("read_only", true))
	p := w.plan(devAppWith("read_write", false))
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method != "POST" {
			return forward()
		}
		if tr := httptrace.ContextClientTrace(req.Context()); tr != nil && tr.WroteRequest != nil {
			tr.WroteRequest(httptrace.WroteRequestInfo{})
		}
		return nil, errConnectionLost
	})
	rep, err := w.apply(context.Background(), p, nil)
	w.setTamper(nil)
	var inc *IncompleteError
	if !errors.As(err, &inc) || len(rep.Failed) != 1 || rep.Failed[0].Step.Kind != diff.StepCreate {
		t.Fatalf("want the create to fail with its outcome unknown: %v %+v", err, rep)
	}
	old := ""
	for _, s := range p.Steps {
		if s.Kind == diff.StepDelete {
			old = s.EndpointID
		}
	}
	st, _ := w.state.Read(context.Background())
	if c := st.Computes[state.DeposedAddress("shop.dev.app", old)]; c == nil || !c.PreventDestroy {
		t.Fatalf("the old endpoint must wait deposed in the state, keeping prevent_destroy: %v %+v", st.Addresses(), c)
	}
	if st.Computes["shop.dev.app"] != nil {
		t.Fatalf("nothing was made, yet shop.dev.app is in the state")
	}
	return old
}

// Reverting the configuration after an interrupted replacement undoes it:
// the deposed endpoint is what the configuration describes again, so the
// compute takes it back, with nothing created or deleted.
func TestRevertedReplacementTakesBackTheDeposedEndpoint(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	old := interruptReplacement(t, w)

	reverted := devAppWith("read_only", true)
	p := w.plan(reverted)
	if p.APICalls() != 0 || p.Summary.Create != 0 || p.Summary.Delete != 0 {
		t.Fatalf("the plan must neither create nor delete: %+v", p.Steps)
	}
	if len(p.Steps) != 1 || p.Steps[0].Kind != diff.StepState || !strings.Contains(p.Steps[0].Note, "take back "+old) {
		t.Fatalf("want one state-only step that takes %s back: %+v", old, p.Steps)
	}
	w.emu.ResetStats()
	rep, err := w.apply(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := w.emu.Stats().Total; n != 1 { // the stale check's read
		t.Errorf("taking the endpoint back made %d requests", n)
	}
	if rep.Counts.StateOnly != 1 {
		t.Errorf("counts: %+v", rep.Counts)
	}
	st, _ := w.state.Read(context.Background())
	if c := st.Computes["shop.dev.app"]; c == nil || c.EndpointID != old || !c.PreventDestroy {
		t.Fatalf("shop.dev.app must be %s again, with prevent_destroy: %+v", old, c)
	}
	w.checkConverged(reverted, shop)
}

// Keeping the new configuration finishes the replacement: the compute is
// created, and the deposed endpoint deleted, with a reason that says the
// replacement was interrupted.
func TestInterruptedReplacementIsFinishedByTheNextPlan(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	old := interruptReplacement(t, w)

	kept := devAppWith("read_write", false)
	p := w.plan(kept)
	if p.Summary.Create != 1 || p.Summary.Delete != 1 {
		t.Fatalf("want a create and a delete: %+v", p.Summary)
	}
	var reasons []diff.Reason
	for _, c := range p.Changes {
		if c.Action == diff.Delete && c.EndpointID == old {
			reasons = c.Reasons
		}
	}
	if want := (diff.Reason{Kind: diff.ReasonInterruptedReplace, EndpointID: old, Address: "shop.dev.app"}); len(reasons) == 0 || reasons[0] != want {
		t.Errorf("the delete of %s does not say the replacement was interrupted: %+v", old, reasons)
	}
	if _, err := w.apply(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	w.checkConverged(kept, shop)
}

// A replacement interrupted after its create, before its delete: reverting
// the configuration takes the old endpoint back and deletes the new one.
func TestRevertAfterTheCreateDeletesTheNewEndpoint(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(devAppWith("read_only", false))
	w.refuse("DELETE", "/endpoints/", 400, "refused by the test")
	if _, err := w.apply(context.Background(), w.plan(devAppWith("read_write", false)), nil); err == nil {
		t.Fatal("want the delete to fail")
	}
	w.setTamper(nil)
	st, _ := w.state.Read(context.Background())
	made := st.Computes["shop.dev.app"].EndpointID

	reverted := devAppWith("read_only", false)
	p := w.plan(reverted)
	if p.Summary.Create != 0 || p.Summary.Delete != 1 {
		t.Fatalf("want no create and the delete of %s: %v", made, p.Summary)
	}
	for _, s := range p.Steps {
		if s.Kind == diff.StepDelete && s.EndpointID != made {
			t.Errorf("the plan deletes %s; only %s, made by the interrupted replacement, may go", s.EndpointID, made)
		}
	}
	if _, err := w.apply(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	w.checkConverged(reverted, shop)
	for _, ep := range w.endpoints(shop) {
		if ep.ID == made || (ep.Name == "app" && ep.Type != api.EndpointTypeReadOnly) {
			t.Errorf("%s (%s) is still there", ep.ID, ep.Type)
		}
	}
}

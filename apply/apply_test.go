package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

const shop = "dark-sun-46453911"

const oneReplica = `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {}
    compute "reports" {
      type = "read_only"
    }
  }
}
`

// oneReplicaNamed is oneReplica with the adopted primary named: an endpoint
// without a name keeps none unless name is written (config.Compute.NameFor),
// and the tests that use it need the PATCH that names it.
var oneReplicaNamed = strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { name = "primary" }`, 1)

func TestCreateWhoseAnswerIsLostIsAdoptedNotRepeated(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.loseAnswers("POST", "/endpoints", 1)
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), w.plan(oneReplica), &out)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	if got := w.emu.Stats().Requests["POST /projects/{project_id}/endpoints"]; got != 1 {
		t.Errorf("the create was sent %d times; once is right: the lost answer's endpoint must be found, not made again", got)
	}
	var created *StepResult
	for i := range rep.Done {
		if rep.Done[i].Step.Kind == diff.StepCreate {
			created = &rep.Done[i]
		}
	}
	if created == nil || !created.Adopted || created.EndpointID == "" {
		t.Fatalf("the create is not reported as found after its lost answer: %+v", rep.Done)
	}
	if !strings.Contains(out.String(), "note shop.main.reports create-found "+created.EndpointID+" named") {
		t.Errorf("progress does not say what happened:\n%s", out.String())
	}
	w.checkConverged(oneReplica, shop)
}

func TestCreateLostBeforeTheServiceActedIsSentAgain(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.loseBeforeArrival("POST")
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), w.plan(oneReplica), &out)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	st := w.emu.Stats()
	if got := st.Requests["POST /projects/{project_id}/endpoints"]; got != 1 {
		t.Errorf("the service got %d creates, want 1", got)
	}
	if got := st.Requests["GET /projects/{project_id}/branches/{branch_id}/endpoints"]; got != 1 {
		t.Errorf("apply looked %d times for what the lost create made, want once", got)
	}
	if !strings.Contains(out.String(), " create-resent ") {
		t.Errorf("progress does not say the create was sent again:\n%s", out.String())
	}
	if rep.Counts.Created != 1 {
		t.Errorf("counts: %+v", rep.Counts)
	}
	w.checkConverged(oneReplica, shop)
}

func TestDeleteWhoseAnswerIsLostIsSentAgainAndCountsAsDone(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica)
	fewer := strings.Replace(oneReplica, "compute \"reports\" {\n      type = \"read_only\"\n    }", "", 1)
	w.loseAnswers("DELETE", "/endpoints/", 1)
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), w.plan(fewer), &out)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, out.String())
	}
	if len(rep.Done) != 1 || rep.Counts.Deleted != 1 {
		t.Fatalf("report: %+v", rep)
	}
	if !strings.Contains(out.String(), " delete-resent ") {
		t.Errorf("progress:\n%s", out.String())
	}
	w.checkConverged(fewer, shop)
}

func TestDeleteOfAnEndpointAlreadyGoneIsDone(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica)
	fewer := strings.Replace(oneReplica, "compute \"reports\" {\n      type = \"read_only\"\n    }", "", 1)
	p := w.plan(fewer)
	// Someone deletes the endpoint a moment before apply does: the service
	// answers apply's DELETE with 204.
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method == "DELETE" {
			if resp, err := forward(); err == nil {
				resp.Body.Close()
			}
		}
		return forward()
	})
	rep, err := w.apply(context.Background(), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Done) != 1 || !rep.Done[0].AlreadyGone || rep.Counts.Deleted != 1 {
		t.Errorf("a delete of an endpoint already gone must count as deleted: %+v", rep)
	}
	w.setTamper(nil)
	w.checkConverged(fewer, shop)
}

func TestReplacementKeepsTheOldEndpointInStateUntilItIsDeleted(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(devApp("read_only"))
	rw := devApp("read_write")
	p := w.plan(rw)
	// The delete of the old endpoint fails: the new one is created, the old
	// one must stay in the state (deposed), so the next plan deletes it.
	w.refuse("DELETE", "/endpoints/", 400, "refused by the test")
	rep, err := w.apply(context.Background(), p, nil)
	var inc *IncompleteError
	if !errors.As(err, &inc) || len(rep.Failed) != 1 || rep.Failed[0].Step.Kind != diff.StepDelete {
		t.Fatalf("want the delete to fail: %v %+v", err, rep)
	}
	st, _ := w.state.Read(context.Background())
	old := rep.Failed[0].Step.EndpointID
	if c := st.Computes[state.DeposedAddress("shop.dev.app", old)]; c == nil || c.EndpointID != old {
		t.Fatalf("the old endpoint %s is not kept in the state under its deposed address: %v", old, st.Addresses())
	}
	if c := st.Computes["shop.dev.app"]; c == nil || c.EndpointID == old || c.Type != api.EndpointTypeReadWrite {
		t.Fatalf("shop.dev.app must be the new endpoint: %+v", c)
	}
	w.setTamper(nil)
	p = w.plan(rw)
	if len(p.Steps) != 1 || p.Steps[0].Kind != diff.StepDelete || p.Steps[0].EndpointID != old {
		t.Fatalf("the next plan must delete the deposed endpoint %s and do nothing else: %+v", old, p.Steps)
	}
	if _, err := w.apply(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	w.checkConverged(rw, shop)
}

func TestFailedCreateOfAReplacementPutsTheOldEntryBack(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(devApp("read_only"))
	before, _ := w.state.Read(context.Background())
	w.refuse("POST", "/endpoints", 409, "refused by the test")
	p := w.plan(devApp("read_write"))
	if _, err := w.apply(context.Background(), p, nil); err == nil {
		t.Fatal("want the create to fail")
	}
	after, _ := w.state.Read(context.Background())
	if !reflect.DeepEqual(after.Computes, before.Computes) {
		t.Errorf("the state must be as before a replacement whose create made nothing: %v, was %v", after.Computes, before.Computes)
	}
}

func TestFailureStopsOnlyItsProject(t *testing.T) {
	const other = "hidden-river-50598307"
	w := newWorld(t, worldOptions{projects: []string{shop, other}})
	two := oneReplicaNamed + strings.NewReplacer("shop", "other", shop, other).Replace(oneReplicaNamed)
	w.refuse("PATCH", "/projects/"+shop+"/", 400, "no, says the test")
	rep, err := w.apply(context.Background(), w.plan(two), nil)
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("want an IncompleteError, got %v", err)
	}
	if len(rep.Failed) != 1 || !strings.Contains(rep.Failed[0].Err.Error(), "no, says the test") {
		t.Errorf("failed: %+v", rep.Failed)
	}
	for _, n := range rep.NotAttempted {
		if n.Step.ProjectID != shop {
			t.Errorf("a step of another project was not attempted: %+v", n.Step)
		}
	}
	if len(rep.NotAttempted) != 1 {
		t.Errorf("not attempted: %+v", rep.NotAttempted)
	}
	for _, d := range rep.Done {
		if d.Step.ProjectID != other {
			t.Errorf("done in the failed project: %+v", d.Step)
		}
	}
	if len(rep.Done) != 2 {
		t.Errorf("the other project's two steps must be done: %+v", rep.Done)
	}
	if len(rep.Failed) != 1 || !strings.Contains(rep.Failed[0].Err.Error(), "no, says the test") ||
		len(rep.NotAttempted) != 1 || rep.NotAttempted[0].Step.Address != "shop.main.reports" || rep.Interrupted {
		t.Errorf("want one failed (as the service said) and shop.main.reports not attempted: %+v", rep)
	}
}

func TestInterruptStopsNewStepsAndRecordsTheOneInFlight(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}, opDelay: 300 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel as soon as the first mutation has been answered.
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		resp, err := forward()
		if req.Method != "GET" {
			cancel()
		}
		return resp, err
	})
	p := w.plan(oneReplicaNamed)
	if len(p.Steps) != 2 {
		t.Fatalf("want 2 steps, got %+v", p.Steps)
	}
	rep, err := w.apply(ctx, p, nil)
	var inc *IncompleteError
	if !errors.As(err, &inc) || !inc.Interrupted || !rep.Interrupted {
		t.Fatalf("want an interrupted apply, got %v", err)
	}
	if len(rep.Done) != 1 || !rep.Done[0].StillRunning || len(rep.NotAttempted) != 1 {
		t.Fatalf("want the first step done (its operations still running) and the second not attempted: %+v", rep)
	}
	st, _ := w.state.Read(context.Background())
	if st.Serial != 1 {
		t.Errorf("the state must record the step in flight: serial %d", st.Serial)
	}
	w.setTamper(nil)
	w.emu.ResetStats()
	// The next apply meets the operations left running (the list of
	// endpoints does not show those of an update): the service refuses its
	// first change until they are over, which it waits out, saying so.
	var out bytes.Buffer
	if _, err := w.apply(context.Background(), w.plan(oneReplica), &out); err != nil {
		t.Fatalf("the next apply: %v\n%s", err, out.String())
	}
	if n := w.emu.Stats().Statuses["423"]; n > 1 || n == 1 && !strings.Contains(out.String(), "others done "+shop) {
		t.Errorf("the next apply got %d answers 423: want at most one, waited out and said:\n%s", n, out.String())
	}
	w.checkConverged(oneReplica, shop)
}

func TestStateWriteFailureStopsTheApply(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(oneReplica)
	b := &failingBackend{Local: w.state, failAt: 1}
	rep, err := Apply(context.Background(), p, Options{Client: w.c, State: b})
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("want an IncompleteError, got %v", err)
	}
	var swe *StateWriteError
	if len(rep.Failed) != 1 || !errors.As(rep.Failed[0].Err, &swe) || len(rep.NotAttempted) != 1 {
		t.Fatalf("want the first step failed for the state, the second not attempted: %+v", rep)
	}
	if !strings.Contains(rep.Failed[0].Err.Error(), "done in the service, but writing the state failed: disk full") {
		t.Errorf("error: %v", rep.Failed[0].Err)
	}
}

type failingBackend struct {
	*state.Local
	writes, failAt int
}

func (b *failingBackend) Write(ctx context.Context, s *state.State) error {
	b.writes++
	if b.writes >= b.failAt {
		return errors.New("disk full")
	}
	return b.Local.Write(ctx, s)
}

// Operations someone started that the endpoints list does not show (a
// compute saved in the console) are met by one 423, and waited out: the
// change is not sent again until they are over.
func TestApplyWaitsOutOperationsItDidNotStart(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}, opDelay: 100 * time.Millisecond})
	w.mustApply(oneReplica)
	// Someone saves the primary in the console just before the apply: nothing
	// changes, but the service runs an operation for it.
	eps := w.endpoints(shop)
	var primary string
	for _, ep := range eps {
		if ep.Type == api.EndpointTypeReadWrite {
			primary = ep.ID
		}
	}
	bigger := strings.Replace(oneReplica, `compute "primary" {}`, `compute "primary" { size = 2 }`, 1)
	p := w.plan(bigger)
	if _, err := w.c.UpdateEndpoint(context.Background(), shop, primary, api.EndpointUpdate{SuspendTimeoutSeconds: ptr(int64(0))}); err != nil {
		t.Fatal(err)
	}
	w.emu.ResetStats()
	if _, err := w.apply(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	if n := w.emu.Stats().Statuses["423"]; n > 1 {
		t.Errorf("apply got %d answers 423: after the first it must wait until the project is idle", n)
	}
}

func TestLockedStateChangesNothing(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	unlock, err := w.state.Lock(context.Background(), "someone")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	p := w.plan(oneReplica)
	other := state.NewLocal(w.state.Path())
	w.emu.ResetStats()
	_, err = Apply(context.Background(), p, Options{Client: w.c, State: other})
	var locked *state.LockedError
	if !errors.As(err, &locked) {
		t.Fatalf("want a LockedError, got %v", err)
	}
	if n := w.emu.Stats().Total; n != 0 {
		t.Errorf("a locked apply made %d requests", n)
	}
}

// devApp is a project whose dev branch holds one compute, "app", of type typ.
func devApp(typ string) string { return devAppWith(typ, false) }

func ptr[T any](v T) *T { return &v }

// Apply reads again only the projects its steps act on: a change in one
// project of three lists that project's endpoints, and a change in the
// other projects since the plan does not make it stale.
func TestApplyReadsOnlyTheProjectsItChanges(t *testing.T) {
	projects := []string{shop, "hidden-river-50598307", "cold-lake-12345678"}
	w := newWorld(t, worldOptions{projects: projects})
	src := ""
	for i, id := range projects {
		src += strings.NewReplacer(`"shop"`, fmt.Sprintf(`"p%d"`, i), shop, id).Replace(oneReplica)
	}
	w.mustApply(src)
	p := w.plan(strings.Replace(src, `compute "primary" {}`, `compute "primary" { size = 2 }`, 1))
	if len(p.Steps) != 1 || p.Steps[0].ProjectID != shop {
		t.Fatalf("want one step, in %s: %+v", shop, p.Steps)
	}
	// Someone adds a replica to another project after the plan.
	other := w.endpoints(projects[1])[0]
	if _, err := w.c.CreateEndpoint(context.Background(), projects[1], api.EndpointCreate{BranchID: other.BranchID, Type: api.EndpointTypeReadOnly}); err != nil {
		t.Fatal(err)
	}
	w.emu.ResetStats()
	if _, err := w.apply(context.Background(), p, nil); err != nil {
		t.Fatalf("a change in a project the plan does not touch made it stale: %v", err)
	}
	st := w.emu.Stats()
	if got := st.Requests["GET /projects/{project_id}/endpoints"]; got != 1 {
		t.Errorf("%d lists of endpoints, want 1 (the changed project's): %v", got, st.Requests)
	}
	// The changed project is still checked.
	p = w.plan(strings.Replace(src, `compute "primary" {}`, `compute "primary" { size = 3 }`, 1))
	primary := p.Steps[0].EndpointID
	max4 := 4.0
	if _, err := w.c.UpdateEndpoint(context.Background(), shop, primary, api.EndpointUpdate{AutoscalingLimitMaxCU: &max4}); err != nil {
		t.Fatal(err)
	}
	var stale *StaleError
	if _, err := w.apply(context.Background(), p, nil); !errors.As(err, &stale) {
		t.Errorf("a change in the project the plan changes: want a StaleError, got %v", err)
	}
}

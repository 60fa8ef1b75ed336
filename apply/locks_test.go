package apply

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/state"
)

// replicaIn is a configuration of one project block (label, id) that
// creates a read replica on its main branch.
func replicaIn(label, id string) string {
	return fmt.Sprintf(`
project %q {
  id = %q
  branch "main" {
    compute "reports" {
      type = "read_only"
    }
  }
}
`, label, id)
}

// gateHook holds its run once the plan is checked (its locks taken, the
// state read and found current) until release is closed.
type gateHook struct {
	nopHook
	checked, release chan struct{}
}

// applyGated starts alice's apply of p and returns once its plan is
// checked; done says how it ended, once gate.release is closed.
func applyGated(ctx context.Context, w *world, p *diff.Plan, pg *state.Postgres) (gate *gateHook, done chan error) {
	gate = &gateHook{checked: make(chan struct{}), release: make(chan struct{})}
	done = make(chan error, 1)
	go func() {
		_, err := Apply(ctx, p, Options{Client: w.c, State: pg, Who: "alice", Hooks: []Hook{gate}})
		done <- err
	}()
	select {
	case <-gate.checked:
	case err := <-done:
		w.t.Fatalf("alice's apply ended before its plan was checked: %v", err)
	}
	return gate, done
}

func (h *gateHook) PlanChecked(*diff.Plan) {
	close(h.checked)
	<-h.release
}

// twoPostgres are two backends of one Postgres state, as two runs on two
// machines open it.
func twoPostgres(t *testing.T) (a, b *state.Postgres) {
	ctx := context.Background()
	dsn := pgtest.DSN(t)
	name := "apply-locks/" + t.Name() + "/" + time.Now().Format(time.RFC3339Nano)
	for _, p := range []**state.Postgres{&a, &b} {
		var err error
		if *p, err = state.NewPostgres(ctx, dsn, name); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { (*p).Close(ctx) })
	}
	return a, b
}

// Two applies on disjoint projects of one Postgres state run side by side:
// while the first holds its project, its plan checked, the second takes
// its own without waiting (-lock-timeout 0 would refuse it) and finishes;
// then the first finishes, and the state holds both.
func TestPostgresAppliesOnDisjointProjectsGoSideBySide(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, worldOptions{projects: []string{shop, books}})
	pgA, pgB := twoPostgres(t)
	planA, planB := w.plan(replicaIn("shop", shop)), w.plan(replicaIn("books", books))
	gate, done := applyGated(ctx, w, planA, pgA)
	if _, err := Apply(ctx, planB, Options{Client: w.c, State: pgB, Who: "bob"}); err != nil {
		t.Fatalf("the apply on another project, while the first holds its own: %v", err)
	}
	close(gate.release)
	if err := <-done; err != nil {
		t.Fatalf("the first apply, after the second wrote the state: %v", err)
	}
	st, err := pgA.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Computes["shop.main.reports"] == nil || st.Computes["books.main.reports"] == nil || st.Serial != 2 {
		t.Errorf("the state holds %v at serial %d; want both replicas, one write each", st.Addresses(), st.Serial)
	}
	for _, id := range []string{shop, books} {
		if eps := w.endpoints(id); len(eps) != 2 {
			t.Errorf("project %s has %d endpoints, want its primary and the replica", id, len(eps))
		}
	}
}

// An apply on a project another apply holds is refused naming the holder
// and the project; with -lock-timeout it waits, then reads the state
// again, and finds its plan stale: the project changed meanwhile.
func TestPostgresApplyOnAHeldProjectNamesHolderAndProject(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, worldOptions{projects: []string{shop, books}})
	pgA, pgB := twoPostgres(t)
	src := replicaIn("shop", shop)
	planA, planB := w.plan(src), w.plan(src+replicaIn("books", books))
	gate, done := applyGated(ctx, w, planA, pgA)
	_, err := Apply(ctx, planB, Options{Client: w.c, State: pgB, Who: "bob"})
	var le *state.LockedError
	if !errors.As(err, &le) || le.Project != shop || le.Info.Who != "alice" {
		t.Fatalf("an apply on a held project = %v, want a *LockedError naming alice and project %s", err, shop)
	}
	if want := "the lock of project shop (" + shop + ")"; !strings.Contains(err.Error(), want) {
		t.Errorf("an apply on a held project says %q, want it to name the project as the configuration does: %q", err, want)
	}
	var told *state.LockedError
	_, err = Apply(ctx, planB, Options{Client: w.c, State: pgB, Who: "bob", LockTimeout: time.Minute,
		LockWaiting: func(held *state.LockedError) {
			told = held
			close(gate.release)
		}})
	if told == nil || told.Project != shop || !strings.Contains(told.Holder(), "of project shop ("+shop+")") {
		t.Fatalf("the wait was told %+v, want the lock of project %s", told, shop)
	}
	if errA := <-done; errA != nil {
		t.Fatal(errA)
	}
	var stale *StaleError
	if !errors.As(err, &stale) {
		t.Fatalf("after waiting for a run that changed its project = %v, want the plan refused as stale", err)
	}
	if eps := w.endpoints(books); len(eps) != 1 {
		t.Errorf("the stale plan changed project books: %d endpoints", len(eps))
	}
}

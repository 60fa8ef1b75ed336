package apply

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/state"
)

// threeReplicas makes an apply of three steps in one project.
const threeReplicas = `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {
      name = "primary"
    }
    compute "a" {
      type = "read_only"
    }
    compute "b" {
      type = "read_only"
    }
    compute "c" {
      type = "read_only"
    }
  }
}
`

// A run whose lock is removed while it is between steps (force-unlock by
// someone who thought it dead) sends nothing more: the steps done are in the
// state, the rest are reported not attempted, and the report says why.
func TestLockRemovedBetweenStepsStopsTheRun(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(threeReplicas)
	if len(p.Steps) != 4 { // create a, b, c; adopt and name the primary
		t.Fatalf("steps: %+v", p.Steps)
	}
	b := &unlockingBackend{Local: w.state, t: t, after: 1}
	w.emu.ResetStats()
	rep, err := Apply(context.Background(), p, Options{Client: w.c, State: b, Parallelism: 1})
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("want an IncompleteError, got %v", err)
	}
	if got := w.emu.Stats().Requests["POST /projects/{project_id}/endpoints"]; got != 1 {
		t.Errorf("the service got %d creates; the lock was removed after the first, so one is right", got)
	}
	if len(rep.Done) != 1 || len(rep.NotAttempted) != 3 || len(rep.Failed) != 0 {
		t.Fatalf("want 1 done, 3 not attempted: %+v", rep)
	}
	if got := w.emu.Stats().Requests["PATCH /projects/{project_id}/endpoints/{endpoint_id}"]; got != 0 {
		t.Errorf("the service got %d PATCHes after the lock was removed", got)
	}
	var lost *LockLostError
	if !errors.As(rep.NotAttempted[0].Err, &lost) || !errors.As(rep.LockLost, &lost) {
		t.Errorf("not attempted because %v; the report says %v", rep.NotAttempted[0].Err, rep.LockLost)
	}
	if why := fmt.Sprint(errors.Unwrap(rep.LockLost)); !strings.Contains(why, "this run's lock") || !strings.Contains(why, "was removed while it ran (force-unlock?)") {
		t.Errorf("the report says the lock was lost because %s", why)
	}
	st, err := state.NewLocal(w.state.Path()).Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Computes) != 1 || st.Computes["shop.main.a"] == nil {
		t.Errorf("the state records %v; want the step done", st.Addresses())
	}
}

// The same with the state in Postgres: force-unlock ends the session that
// holds the advisory lock, and the run sends nothing more.
func TestPostgresLockEndedBetweenStepsStopsTheRun(t *testing.T) {
	ctx := context.Background()
	w := newWorld(t, worldOptions{projects: []string{shop}})
	dsn := pgtest.DSN(t)
	name := "apply-lock/" + t.Name() + "/" + time.Now().Format(time.RFC3339Nano)
	pg, err := state.NewPostgres(ctx, dsn, name)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	other, err := state.NewPostgres(ctx, dsn, name)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	p := w.plan(threeReplicas) // planned against the empty Postgres state
	b := &endingBackend{Postgres: pg, other: other, t: t}
	w.emu.ResetStats()
	rep, err := Apply(ctx, p, Options{Client: w.c, State: b, Parallelism: 1})
	var inc *IncompleteError
	if !errors.As(err, &inc) {
		t.Fatalf("want an IncompleteError, got %v", err)
	}
	if got := w.emu.Stats().Requests["POST /projects/{project_id}/endpoints"]; got != 1 {
		t.Errorf("the service got %d creates; the lock was ended after the first, so one is right", got)
	}
	if len(rep.Done) != 1 || len(rep.NotAttempted) != 3 || rep.LockLost == nil || !strings.Contains(rep.LockLost.Error(), "lost the lock") {
		t.Errorf("want 1 done, 3 not attempted, and why: %+v", rep)
	}
	st, err := other.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Computes) != 1 {
		t.Errorf("the state records %v; want the step done", st.Addresses())
	}
}

// endingBackend ends the lock's session, as force-unlock does from
// another machine, after the first write.
type endingBackend struct {
	*state.Postgres
	other  *state.Postgres
	t      *testing.T
	writes int
}

func (b *endingBackend) Write(ctx context.Context, s *state.State) error {
	if err := b.Postgres.Write(ctx, s); err != nil {
		return err
	}
	if b.writes++; b.writes == 1 {
		_, err := b.other.Lock(ctx, "someone")
		var le *state.LockedError
		if !errors.As(err, &le) {
			b.t.Fatalf("Lock by another = %v, want a LockedError", err)
		}
		if err := b.other.ForceUnlock(ctx, le.Info.ID); err != nil {
			b.t.Fatal(err)
		}
	}
	return nil
}

// unlockingBackend removes the lock, as force-unlock does, once after
// writes succeeded.
type unlockingBackend struct {
	*state.Local
	t      *testing.T
	after  int
	writes int
}

func (b *unlockingBackend) Write(ctx context.Context, s *state.State) error {
	if err := b.Local.Write(ctx, s); err != nil {
		return err
	}
	if b.writes++; b.writes == b.after {
		forceUnlock(b.t, b.Local) // guards_test.go
	}
	return nil
}

package state

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/api"
)

// entryOf is a compute of project id, at the address of its label, whose
// applied name says which write made it.
func entryOf(project, name string) (string, *Compute) {
	return project + ".main.primary", &Compute{EndpointID: "ep-" + project, ProjectID: project, BranchID: "br-" + project,
		Type: api.EndpointTypeReadWrite, Applied: Attributes{Name: name}}
}

func setEntry(s *State, project, name string) {
	addr, c := entryOf(project, name)
	s.Computes[addr] = c
}

// sessionsHoldingState counts the sessions holding the state's own
// advisory lock in mode, as pg_locks shows them.
func sessionsHoldingState(t *testing.T, p *Postgres, mode string) int {
	t.Helper()
	conn, err := pgx.ConnectConfig(context.Background(), p.cfg.Copy())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	hi, lo := keyParts(p.key)
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND classid::bigint = $1 AND objid::bigint = $2 AND objsubid = 1 AND mode = $3`, hi, lo, mode).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Two runs on disjoint projects hold their locks at the same time (neither
// is refused: Lock never waits) and both writes land, each over the
// other's, though both read the state before either wrote.
func TestPostgresDisjointProjectsLockAndWriteSideBySide(t *testing.T) {
	ctx := WithOperation(context.Background(), "apply")
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	unlockA, err := a.LockProjects(ctx, "alice", []string{"pa"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlockA()
	unlockB, err := b.LockProjects(ctx, "bob", []string{"pb"})
	if err != nil {
		t.Fatalf("a run on another project was refused: %v", err)
	}
	defer unlockB()
	if n := sessionsHoldingState(t, a, shared); n != 2 {
		t.Errorf("%d sessions hold the state's lock shared, want both runs'", n)
	}
	sa, err := a.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	setEntry(sa, "pa", "a1")
	if err := a.Write(ctx, sa); err != nil {
		t.Fatal(err)
	}
	setEntry(sb, "pb", "b1")
	if err := b.Write(ctx, sb); err != nil {
		t.Fatalf("the second run's write, over the first's: %v", err)
	}
	setEntry(sa, "pa", "a2")
	if err := a.Write(ctx, sa); err != nil {
		t.Fatalf("the first run's second write: %v", err)
	}
	got, err := openPostgres(t, dsn, name).Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Serial != 3 || got.Computes["pa.main.primary"].Applied.Name != "a2" || got.Computes["pb.main.primary"].Applied.Name != "b1" || len(got.Computes) != 2 {
		t.Errorf("stored serial %d, %v; want serial 3 with a2 and b1", got.Serial, got.Computes)
	}
	if sa.Serial != 3 || sa.Lineage != got.Lineage || sb.Lineage != got.Lineage {
		t.Errorf("the writers' states are at serial %d, lineages %s and %s; want serial 3 and the stored lineage %s", sa.Serial, sa.Lineage, sb.Lineage, got.Lineage)
	}
}

// A run that needs a project another holds is refused naming the holder
// and the project; a whole-state run is refused naming a project holder.
func TestPostgresHeldProjectNamesHolderAndProject(t *testing.T) {
	ctx := WithOperation(context.Background(), "apply")
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	unlockA, err := a.LockProjects(ctx, "alice", []string{"pc", "pb"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlockA()
	_, err = b.LockProjects(ctx, "bob", []string{"pd", "pc", "pa"})
	var le *LockedError
	if !errors.As(err, &le) || le.Project != "pc" || le.Info.Who != "alice" {
		t.Fatalf("LockProjects of a held project = %v, want a *LockedError naming alice and project pc", err)
	}
	for _, want := range []string{"the lock of project pc of", "alice", "for apply", le.Info.ID, "neonform force-unlock " + le.Info.ID} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q:\n%v", want, err)
		}
	}
	if h := le.Holder(); !strings.Contains(h, "of project pc") {
		t.Errorf("Holder() = %q, want the project named", h)
	}
	_, err = b.Lock(ctx, "bob")
	if !errors.As(err, &le) || le.Project != "pb" || le.OtherProjects != 1 || !strings.Contains(err.Error(), "and 1 other project's lock is held too") {
		t.Fatalf("Lock of the whole state = %v, want the holder of project pb and one other", err)
	}
	// Nothing was left behind by the refused runs: the free project locks.
	unlockD, err := b.LockProjects(ctx, "bob", []string{"pd", "pa"})
	if err != nil {
		t.Fatalf("the projects a refused run asked for stayed locked: %v", err)
	}
	unlockD()
	if err := unlockA(); err != nil {
		t.Fatal(err)
	}
	unlockB, err := b.Lock(ctx, "bob")
	if err != nil {
		t.Fatalf("Lock once the project locks were released = %v", err)
	}
	defer unlockB()
	if _, err := a.LockProjects(ctx, "alice", []string{"pz"}); !errors.As(err, &le) || le.Project != "" || le.Info.Who != "bob" {
		t.Errorf("LockProjects under the whole state's lock = %v, want bob's whole-state lock", err)
	}
}

// A whole-state command waits for the project locks in its way, and a
// project run for a whole-state lock: each is told who it waits for, and
// goes on once that is released.
func TestPostgresWholeStateWaitsForProjectLocks(t *testing.T) {
	ctx := context.Background()
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	unlockA, err := a.LockProjects(ctx, "alice", []string{"pa"})
	if err != nil {
		t.Fatal(err)
	}
	var told *LockedError
	unlockB, err := LockWaiting(ctx, b, "bob", time.Minute, func(held *LockedError) {
		told = held
		unlockA() // the holder finishes while bob waits
	})
	if err != nil {
		t.Fatalf("the whole-state lock after the project's was released: %v", err)
	}
	if told == nil || told.Project != "pa" || told.Info.Who != "alice" {
		t.Fatalf("the wait was told %+v, want alice's lock of project pa", told)
	}
	told = nil
	unlockA2, err := LockProjectsWaiting(ctx, a, "alice", []string{"pa"}, time.Minute, func(held *LockedError) {
		told = held
		unlockB()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer unlockA2()
	if told == nil || told.Project != "" || told.Info.Who != "bob" {
		t.Fatalf("the wait was told %+v, want bob's lock of the whole state", told)
	}
}

// A run's write refuses when one of its projects' entries changed though
// it held their lock (a run with -lock=false); a change to another
// project is merged over, not refused.
func TestPostgresProjectWriteRefusesItsProjectChangedBehindItsLock(t *testing.T) {
	ctx := context.Background()
	a, dsn, name := newTestPostgres(t)
	seed := openPostgres(t, dsn, name)
	s := New()
	setEntry(s, "pa", "a0")
	setEntry(s, "pb", "b0")
	if err := seed.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	unlock, err := a.LockProjects(ctx, "alice", []string{"pa"})
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	mine, err := a.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	setEntry(s, "pb", "b1") // another project: merged over
	if err := seed.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	setEntry(mine, "pa", "a1")
	if err := a.Write(ctx, mine); err != nil {
		t.Fatalf("a write after another project changed: %v", err)
	}
	unlocked, err := seed.Read(ctx) // as -lock=false does: no lock at all
	if err != nil {
		t.Fatal(err)
	}
	setEntry(unlocked, "pa", "sneaky")
	if err := seed.Write(ctx, unlocked); err != nil {
		t.Fatal(err)
	}
	setEntry(mine, "pa", "a2")
	err = a.Write(ctx, mine)
	var c *ConflictError
	if !errors.As(err, &c) || !strings.Contains(err.Error(), "the entries of project pa changed since this run read them") {
		t.Fatalf("a write over its project changed behind its lock = %v, want a *ConflictError naming pa", err)
	}
	got, _ := seed.Read(ctx)
	if got.Computes["pa.main.primary"].Applied.Name != "sneaky" || got.Computes["pb.main.primary"].Applied.Name != "b1" {
		t.Errorf("the refused write changed the state: %v", got.Computes)
	}
}

// force-unlock takes a run's project locks by their ID: it ends the run's
// session, whose writes are refused from then on.
func TestPostgresForceUnlockEndsProjectLocks(t *testing.T) {
	ctx := context.Background()
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	unlockA, err := a.LockProjects(ctx, "alice", []string{"pa", "pb"})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := a.Read(ctx)
	_, err = b.LockProjects(ctx, "bob", []string{"pb"})
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("LockProjects = %v, want a *LockedError", err)
	}
	if err := b.ForceUnlock(ctx, "wrong-id"); err == nil || !strings.Contains(err.Error(), le.Info.ID) || !strings.Contains(err.Error(), "on project pa, pb") {
		t.Errorf("ForceUnlock with a wrong ID = %v, want a refusal naming alice's lock and its projects", err)
	}
	if err := b.ForceUnlock(ctx, le.Info.ID); err != nil {
		t.Fatal(err)
	}
	unlockB, err := b.LockProjects(ctx, "bob", []string{"pb"})
	if err != nil {
		t.Fatalf("LockProjects after force-unlock = %v", err)
	}
	defer unlockB()
	if err := a.CheckLock(ctx); err == nil || !strings.Contains(err.Error(), "lost the lock") {
		t.Errorf("CheckLock after force-unlock = %v", err)
	}
	setEntry(s, "pa", "late")
	if err := a.Write(ctx, s); err == nil || !strings.Contains(err.Error(), "lost the lock") {
		t.Errorf("Write after force-unlock = %v, want it refused", err)
	}
	if err := unlockA(); err == nil {
		t.Error("unlock of project locks that were ended reported success")
	}
	if _, err := a.LockProjects(ctx, "alice", []string{"pb"}); !errors.As(err, &le) || le.Info.Who != "bob" {
		t.Errorf("bob's lock did not survive alice's unlock: %v", err)
	}
	if n := sessionsHoldingState(t, a, shared); n != 1 {
		t.Errorf("%d sessions hold the state's lock shared, want bob's alone", n)
	}
}

// Two runs on disjoint projects that both read no state and write their
// first entries at the same moment: the second's INSERT finds the row the
// first is creating, and its write merges over that row once it is there.
func TestPostgresProjectRunsCreatingTheStateAtOnceBothLand(t *testing.T) {
	ctx := context.Background()
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	for _, r := range []struct {
		p       *Postgres
		project string
	}{{a, "pa"}, {b, "pb"}} {
		unlock, err := r.p.LockProjects(ctx, "run", []string{r.project})
		if err != nil {
			t.Fatal(err)
		}
		defer unlock()
	}
	sa, _ := a.Read(ctx)
	sb, _ := b.Read(ctx)
	setEntry(sa, "pa", "a1")
	setEntry(sb, "pb", "b1")
	bPID := b.conn.PgConn().PID()
	errB := make(chan error, 1)
	a.beforeCommit = func() error {
		a.beforeCommit = nil
		go func() { errB <- b.Write(ctx, sb) }()
		// Until b's INSERT waits for the row a's transaction holds.
		for waits := false; !waits; {
			if err := b.cfgConnQuery(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted)`, int32(bPID)).Scan(&waits); err != nil {
				return err
			}
		}
		return nil
	}
	if err := a.Write(ctx, sa); err != nil {
		t.Fatal(err)
	}
	if err := <-errB; err != nil {
		t.Fatalf("the write that raced to create the state: %v", err)
	}
	got, err := openPostgres(t, dsn, name).Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Serial != 2 || len(got.Computes) != 2 || sb.Lineage != got.Lineage {
		t.Errorf("stored serial %d, %v, lineage %s (b's %s); want both entries at serial 2, one lineage", got.Serial, got.Addresses(), got.Lineage, sb.Lineage)
	}
}

// cfgConnQuery runs one query on a connection of its own.
func (p *Postgres) cfgConnQuery(ctx context.Context, q string, args ...any) pgx.Row {
	conn, err := pgx.ConnectConfig(ctx, p.cfg.Copy())
	if err != nil {
		return errRow{err}
	}
	return closingRow{conn.QueryRow(ctx, q, args...), conn}
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

type closingRow struct {
	pgx.Row
	conn *pgx.Conn
}

func (r closingRow) Scan(dest ...any) error {
	defer r.conn.Close(context.Background())
	return r.Row.Scan(dest...)
}

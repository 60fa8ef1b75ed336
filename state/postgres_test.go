package state

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"
)

// newTestPostgres opens a Postgres backend on a state name no other test uses.
func newTestPostgres(t *testing.T) (p *Postgres, dsn, name string) {
	t.Helper()
	dsn = postgresDSN(t)
	name = t.Name() + "/" + newUUID()[:8]
	return openPostgres(t, dsn, name), dsn, name
}

func openPostgres(t *testing.T, dsn, name string) *Postgres {
	t.Helper()
	p, err := NewPostgres(context.Background(), dsn, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(context.Background()) })
	return p
}

// sql runs a statement on a connection of its own, as an outside actor would.
func sql(t *testing.T, dsn, q string, args ...any) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestPostgresRoundTrip(t *testing.T) {
	ctx := context.Background()
	p, dsn, name := newTestPostgres(t)
	empty, err := p.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if empty.Serial != 0 || len(empty.Computes) != 0 || !isUUIDv4(empty.Lineage) {
		t.Errorf("missing state read as %+v, want an empty state", empty)
	}

	s := sampleState()
	for want := int64(1); want <= 2; want++ {
		if err := p.Write(ctx, s); err != nil {
			t.Fatal(err)
		}
		if s.Serial != want {
			t.Errorf("s.Serial = %d after write %d", s.Serial, want)
		}
	}
	got, err := openPostgres(t, dsn, name).Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, got); diff != "" {
		t.Errorf("state read back differs (-written +read):\n%s", diff)
	}
}

func TestPostgresWriteRefusedOnMismatch(t *testing.T) {
	ctx := context.Background()
	p, _, _ := newTestPostgres(t)
	if err := p.Write(ctx, sampleState()); err != nil {
		t.Fatal(err)
	}
	stale, _ := p.Read(ctx)
	fresh, _ := p.Read(ctx)
	if err := p.Write(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	other := sampleState()
	other.Serial = 2
	gone := sampleState()
	gone.Serial = 5
	for name, s := range map[string]*State{"stale serial": stale, "another lineage": other} {
		var ce *ConflictError
		if err := p.Write(ctx, s); !errors.As(err, &ce) || ce.StoredSerial != 2 {
			t.Errorf("%s: Write = %v, want a *ConflictError at stored serial 2", name, err)
		}
	}
	q, _, _ := newTestPostgres(t)
	var ce *ConflictError
	if err := q.Write(ctx, gone); !errors.As(err, &ce) {
		t.Errorf("Write at serial 5 of a state that does not exist = %v, want a *ConflictError", err)
	}
	if got, _ := p.Read(ctx); got.Serial != 2 || got.Lineage != fresh.Lineage {
		t.Errorf("refused writes changed the state to serial %d lineage %s", got.Serial, got.Lineage)
	}
}

// Two runs on two connections read the same state and write at once: exactly
// one write lands, the other is refused, for updates and for the first write.
func TestPostgresRacingWriters(t *testing.T) {
	ctx := context.Background()
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	for round := range 10 {
		var sa, sb *State
		if round == 0 {
			sa, sb = sampleState(), sampleState() // both creating, with different lineages
		} else {
			sa, _ = a.Read(ctx)
			sb, _ = b.Read(ctx)
		}
		start := make(chan struct{})
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i, w := range []struct {
			p *Postgres
			s *State
		}{{a, sa}, {b, sb}} {
			wg.Go(func() {
				<-start
				errs[i] = w.p.Write(ctx, w.s)
			})
		}
		close(start)
		wg.Wait()

		var ce *ConflictError
		won := -1
		for i, err := range errs {
			switch {
			case err == nil:
				if won >= 0 {
					t.Fatalf("round %d: both racing writes succeeded", round)
				}
				won = i
			case !errors.As(err, &ce):
				t.Fatalf("round %d: losing write failed with %v, want a *ConflictError", round, err)
			}
		}
		if won < 0 {
			t.Fatalf("round %d: both racing writes were refused: %v", round, errs)
		}
		got, err := a.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		winner := []*State{sa, sb}[won]
		if got.Serial != int64(round+1) || got.Lineage != winner.Lineage {
			t.Fatalf("round %d: stored serial %d lineage %s, want %d %s", round, got.Serial, got.Lineage, round+1, winner.Lineage)
		}
	}
}

// A write that fails inside its transaction leaves the stored state as it was.
func TestPostgresFailedWriteLeavesOldState(t *testing.T) {
	ctx := context.Background()
	p, _, _ := newTestPostgres(t)
	s := sampleState()
	if err := p.Write(ctx, s); err != nil {
		t.Fatal(err)
	}
	s.Computes["shop.main.primary"].Applied.MaxCU = 8
	delete(s.Computes, "shop.dev.reporting")
	p.beforeCommit = func() error { return errors.New("injected failure") }
	if err := p.Write(ctx, s); err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("Write = %v, want the injected failure", err)
	}
	if s.Serial != 1 {
		t.Errorf("failed write set s.Serial to %d", s.Serial)
	}
	p.beforeCommit = nil
	got, err := p.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Serial != 1 || got.Computes["shop.main.primary"].Applied.MaxCU != 4 || len(got.Computes) != 2 {
		t.Errorf("failed write changed the stored state: serial %d, %d computes", got.Serial, len(got.Computes))
	}
}

func TestPostgresUnreadableStateIsAnErrorAndLeftAlone(t *testing.T) {
	ctx := context.Background()
	cases := map[string]struct{ data, want string }{
		"newer format":     {`{"format_version": 4, "lineage": "l", "serial": 1, "computes": {}}`, "newer neonform"},
		"unknown field":    {`{"format_version": 1, "lineage": "l", "serial": 1, "computes": {}, "x": 1}`, `"x"`},
		"columns disagree": {`{"format_version": 1, "lineage": "l", "serial": 9, "computes": {}}`, "inconsistent"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, dsn, stateName := newTestPostgres(t)
			sql(t, dsn, `INSERT INTO neonform_state (name, lineage, serial, data) VALUES ($1, 'l', 1, $2::jsonb)`, stateName, tc.data)
			_, err := p.Read(ctx)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), stateName) {
				t.Fatalf("Read = %v, want an error naming the state and saying %s", err, tc.want)
			}
			s := New()
			s.Lineage, s.Serial = "l", 1
			if err := p.Write(ctx, s); err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
				t.Errorf("Write over an unreadable state = %v, want it refused", err)
			}
			conn, err := pgx.Connect(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			var data string
			if err := conn.QueryRow(ctx, `SELECT data::text FROM neonform_state WHERE name = $1`, stateName).Scan(&data); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(data, `"lineage": "l"`) || strings.Contains(data, `"serial": 2`) {
				t.Errorf("a refused Write changed the row to %s", data)
			}
		})
	}
}

func TestPostgresSecondLockFailsNamingTheHolder(t *testing.T) {
	ctx := WithOperation(context.Background(), "apply")
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	unlock, err := a.Lock(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	// Advisory locks are re-entrant per session: a second Lock from the same
	// backend must still fail, as it uses a connection of its own.
	for _, p := range []*Postgres{a, b} {
		_, err := p.Lock(ctx, "bob")
		var le *LockedError
		if !errors.As(err, &le) {
			t.Fatalf("second Lock = %v, want a *LockedError", err)
		}
		if le.Info.Who != "alice" || le.Info.Operation != "apply" || !strings.Contains(err.Error(), "alice") || !strings.Contains(err.Error(), le.Info.ID) {
			t.Errorf("LockedError does not name alice's lock: %v", err)
		}
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	unlockB, err := b.Lock(ctx, "bob")
	if err != nil {
		t.Fatalf("Lock after unlock = %v", err)
	}
	unlockB()
}

func TestPostgresLockHeldByAnotherProcess(t *testing.T) {
	ctx := context.Background()
	p, dsn, name := newTestPostgres(t)
	holder := startLockHolder(t, "pg-hold", name, dsn)
	_, err := p.Lock(ctx, "alice")
	var le *LockedError
	if !errors.As(err, &le) || le.Info.PID != holder.cmd.Process.Pid || le.Info.Who != "helper" {
		t.Fatalf("Lock while another process holds it = %v, want a *LockedError naming helper pid %d", err, holder.cmd.Process.Pid)
	}
	holder.release(t)
	unlock, err := p.Lock(ctx, "alice")
	if err != nil {
		t.Fatalf("Lock after the other process released it = %v", err)
	}
	unlock()
}

// The lock lives as long as its connection: a run whose connection dies
// (a crash) leaves no lock behind, and may no longer write.
func TestPostgresLockGoesWithItsConnection(t *testing.T) {
	ctx := context.Background()
	a, dsn, name := newTestPostgres(t)
	b := openPostgres(t, dsn, name)
	unlockA, err := a.Lock(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := a.Read(ctx)
	if err := a.Write(ctx, s); err != nil {
		t.Fatalf("Write while holding the lock = %v", err)
	}
	if err := a.CheckLock(ctx); err != nil {
		t.Fatalf("CheckLock while holding the lock = %v", err)
	}
	if err := b.CheckLock(ctx); err == nil {
		t.Error("CheckLock of a backend that took no lock = nil")
	}
	_, err = b.Lock(ctx, "bob")
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("Lock = %v, want a *LockedError", err)
	}
	if err := b.ForceUnlock(ctx, "wrong-id"); err == nil || !strings.Contains(err.Error(), le.Info.ID) {
		t.Errorf("ForceUnlock with a wrong ID = %v, want a refusal naming the real ID", err)
	}
	if err := b.ForceUnlock(ctx, le.Info.ID); err != nil {
		t.Fatal(err)
	}
	unlockB, err := b.Lock(ctx, "bob")
	if err != nil {
		t.Fatalf("Lock after force-unlock ended the holder's session = %v", err)
	}
	defer unlockB()
	if err := a.Write(ctx, s); err == nil || !strings.Contains(err.Error(), "lost the lock") {
		t.Errorf("Write after losing the lock = %v, want it refused", err)
	}
	if err := a.CheckLock(ctx); err == nil || !strings.Contains(err.Error(), "lost the lock") {
		t.Errorf("CheckLock after losing the lock = %v, want it to say so", err)
	}
	if err := unlockA(); err == nil {
		t.Error("unlock of a lock that was ended reported success")
	}
	if _, err := a.Lock(ctx, "alice"); !errors.As(err, &le) || le.Info.Who != "bob" {
		t.Errorf("bob's lock did not survive alice's unlock: %v", err)
	}
}

func TestPostgresNeverShowsThePassword(t *testing.T) {
	ctx := context.Background()
	dsn := postgresDSN(t)
	withPassword := setDSNParam(dsn, "password", "hunter2-secret")
	p, err := NewPostgres(ctx, withPassword, "pw/"+newUUID()[:8])
	if err != nil {
		if strings.Contains(err.Error(), "hunter2") {
			t.Fatalf("error shows the password: %v", err)
		}
	} else {
		defer p.Close(ctx)
		if strings.Contains(p.Describe(), "hunter2") {
			t.Errorf("Describe shows the password: %s", p.Describe())
		}
	}
	for _, bad := range []string{"postgres://neon:hunter2-secret@host:notaport/db", "host=h password=hunter2-secret port=x"} {
		_, err := NewPostgres(ctx, bad, "x")
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("NewPostgres(bad DSN) = %v, want an error without the password", err)
		}
	}
}

// Several first runs against an empty schema create the tables once, without
// tripping over each other.
func TestPostgresCreatesTablesConcurrently(t *testing.T) {
	ctx := context.Background()
	dsn := postgresDSN(t)
	schema := "nf_" + strings.ReplaceAll(newUUID()[:8], "-", "")
	sql(t, dsn, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { sql(t, dsn, "DROP SCHEMA "+schema+" CASCADE") })
	inSchema := setDSNParam(dsn, "search_path", schema)

	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			p, err := NewPostgres(ctx, inSchema, fmt.Sprint("s", i))
			if err == nil {
				err = p.Write(ctx, New())
				p.Close(ctx)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+schema+".neonform_state").Scan(&n); err != nil || n != 4 {
		t.Errorf("states in the new schema: %d (%v), want 4", n, err)
	}
}

// setDSNParam adds a parameter to a DSN in either URL or key=value form.
func setDSNParam(dsn, key, value string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " " + key + "=" + value
}

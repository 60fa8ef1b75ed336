package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// heldLock is a lock this process holds: the advisory locks live as long as conn.
type heldLock struct {
	conn *pgx.Conn
	id   string
	pid  uint32 // backend pid of conn, as pg_locks shows it
	// projects are the projects whose locks conn holds, sorted, with the
	// state's lock held shared (LockProjects); nil for the whole state's
	// lock, held exclusive (Lock).
	projects []string
	// base is, for a project lock, the entries of its projects as this run
	// last read or wrote them (heldEntries): a write refuses when the
	// stored ones are no longer these (merge.go).
	base map[string]heldEntry
}

// Advisory lock modes as pg_locks names them: the whole state's lock is
// held exclusive by Lock and shared by LockProjects; a project's lock is
// always exclusive.
const (
	exclusive = "ExclusiveLock"
	shared    = "ShareLock"
)

// mode is the mode in which h holds the state's own lock.
func (h *heldLock) mode() string {
	if h.projects != nil {
		return shared
	}
	return exclusive
}

// holdsLock is a condition on pg_locks: the session $1 holds the advisory
// lock of key ($2 high 32 bits, $3 low 32 bits; objsubid 1 marks a bigint
// key) in mode $4.
const holdsLock = `SELECT EXISTS (SELECT 1 FROM pg_locks
	WHERE locktype = 'advisory' AND granted AND pid = $1
	AND classid::bigint = $2 AND objid::bigint = $3 AND objsubid = 1 AND mode = $4)`

// keyParts splits an advisory lock key as pg_locks shows it.
func keyParts(key int64) (hi, lo int64) {
	return int64(uint64(key) >> 32), int64(uint32(key))
}

// querier is a connection or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// holds reports whether the session pid holds the advisory lock key in mode.
func holds(ctx context.Context, q querier, pid int32, key int64, mode string) (bool, error) {
	hi, lo := keyParts(key)
	var ok bool
	err := q.QueryRow(ctx, holdsLock, pid, hi, lo, mode).Scan(&ok)
	return ok, err
}

// lockConn opens the connection a lock lives on. Advisory locks are
// re-entrant within a session, which is why every lock opens its own
// connection: a second Lock, even from this process, is refused.
func (p *Postgres) lockConn(ctx context.Context) (*pgx.Conn, error) {
	if conn := p.takeAhead(ctx); conn != nil {
		return conn, nil
	}
	return p.dialLock(ctx)
}

// dialLock opens a connection for a lock.
func (p *Postgres) dialLock(ctx context.Context) (*pgx.Conn, error) {
	cfg := p.cfg.Copy()
	cfg.RuntimeParams["application_name"] = "neonform lock"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to take the lock of %s: %w", p.Describe(), err)
	}
	return conn, nil
}

// Lock takes pg_try_advisory_lock on a dedicated connection held until
// unlock; then records who holds it in the lock table. It is the whole
// state's lock: it excludes every other Lock and every LockProjects.
func (p *Postgres) Lock(ctx context.Context, who string) (unlock func() error, err error) {
	conn, err := p.lockConn(ctx)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (func() error, error) {
		conn.Close(context.Background()) // releases the advisory lock if it was taken
		return nil, err
	}
	if err := p.tryStateLock(ctx, conn, `SELECT pg_try_advisory_lock($1)`); err != nil {
		return fail(err)
	}
	info := newLockInfo(ctx, who)
	infoJSON, err := json.Marshal(info)
	if err != nil {
		return fail(err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO `+lockTable+` (name, info, backend_pid) VALUES ($1, $2::jsonb, pg_backend_pid())
		ON CONFLICT (name) DO UPDATE SET info = EXCLUDED.info, backend_pid = EXCLUDED.backend_pid`, p.name, string(infoJSON))
	if err != nil {
		return fail(fmt.Errorf("recording who holds the lock of %s: %w", p.Describe(), err))
	}
	return p.hold(&heldLock{conn: conn, id: info.ID, pid: conn.PgConn().PID()}), nil
}

// tryStateLock tries the state's own lock on conn with try (Lock's
// exclusive, LockProjects's shared), and says who holds it when it is held.
func (p *Postgres) tryStateLock(ctx context.Context, conn *pgx.Conn, try string) error {
	var got bool
	if err := conn.QueryRow(ctx, try, p.key).Scan(&got); err != nil {
		return fmt.Errorf("taking the lock of %s: %w", p.Describe(), err)
	}
	if got {
		return nil
	}
	locked, err := p.lockedError(ctx, conn)
	if err != nil {
		return fmt.Errorf("%s is locked, and reading who holds it failed: %w", p.Describe(), err)
	}
	return locked
}

// hold makes h the lock this Postgres holds, and returns its unlock, which
// does something the first time only.
func (p *Postgres) hold(h *heldLock) (unlock func() error) {
	p.mu.Lock()
	p.held = h
	p.mu.Unlock()
	var once sync.Once
	var unlockErr error
	return func() error {
		once.Do(func() { unlockErr = p.unlock(h) })
		return unlockErr
	}
}

// unlock releases h. It runs on its own deadline rather than the Lock
// caller's context: an interrupted apply must still release its lock.
func (p *Postgres) unlock(h *heldLock) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p.mu.Lock()
	if p.held == h {
		p.held = nil
	}
	p.mu.Unlock()
	defer h.conn.Close(ctx) // releases the project locks, if any, too

	table, where := lockTable, `name = $1 AND info->>'id' = $2`
	unlockSQL := `SELECT pg_advisory_unlock($1)`
	if h.projects != nil {
		table, unlockSQL = projectLockTable, `SELECT pg_advisory_unlock_shared($1)`
	}
	if _, err := h.conn.Exec(ctx, `DELETE FROM `+table+` WHERE `+where, p.name, h.id); err != nil {
		return fmt.Errorf("releasing the lock of %s: %w; it is released anyway as its connection closes", p.Describe(), err)
	}
	var released bool
	if err := h.conn.QueryRow(ctx, unlockSQL, p.key).Scan(&released); err != nil {
		return fmt.Errorf("releasing the lock of %s: %w; it is released anyway as its connection closes", p.Describe(), err)
	}
	if !released {
		return fmt.Errorf("releasing the lock of %s: this run no longer held it (force-unlock?)", p.Describe())
	}
	return nil
}

// lockedError reads who holds the whole state's lock: a run holding it
// exclusive (Lock), or else the runs holding projects' locks (which hold it
// shared). A recorded holder is believed only if its session really holds
// the advisory lock now; a row left by a holder that died is not reported.
func (p *Postgres) lockedError(ctx context.Context, conn *pgx.Conn) (*LockedError, error) {
	e := &LockedError{Path: p.Describe()}
	info, backendPID, ok, err := p.recordedHolder(ctx, conn)
	if err != nil {
		return nil, err
	}
	if ok {
		if ok, err = holds(ctx, conn, backendPID, p.key, exclusive); err != nil {
			return nil, err
		}
	}
	if ok {
		p.describeHolder(e, info, backendPID)
		return e, nil
	}
	byProject, err := p.projectHolders(ctx, conn, nil)
	if err != nil {
		return nil, err
	}
	if len(byProject) > 0 {
		first := byProject[0]
		e.Project, e.OtherProjects = first.project, len(byProject)-1
		p.describeHolder(e, first.info, first.backendPID)
		return e, nil
	}
	hi, lo := keyParts(p.key)
	e.Remove = fmt.Sprintf("end the session holding it: SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = %d AND objid = %d AND objsubid = 1", hi, lo)
	return e, nil
}

// describeHolder fills e with a holder whose session holds its lock now.
func (p *Postgres) describeHolder(e *LockedError, info LockInfo, backendPID int32) {
	e.heldBy(info)
	e.Remove = fmt.Sprintf("run %s, which ends that database session (pid %d)", e.Unlock.Quoted(), backendPID)
}

// recordedHolder reads the lock table's row for this state; ok is false if there is none.
func (p *Postgres) recordedHolder(ctx context.Context, conn *pgx.Conn) (info LockInfo, backendPID int32, ok bool, err error) {
	var infoJSON []byte
	err = conn.QueryRow(ctx, `SELECT info, backend_pid FROM `+lockTable+` WHERE name = $1`, p.name).Scan(&infoJSON, &backendPID)
	if errors.Is(err, pgx.ErrNoRows) {
		return info, 0, false, nil
	}
	if err != nil {
		return info, 0, false, err
	}
	if info, err = decodeLockInfo(infoJSON, lockTable); err != nil {
		return info, 0, false, err
	}
	return info, backendPID, true, nil
}

func decodeLockInfo(data []byte, table string) (LockInfo, error) {
	var info LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("a lock record in %s is not valid: %w", table, err)
	}
	return info, nil
}

// lostLock is the error of a run whose session no longer holds its lock
// (its connection dropped, or force-unlock ended it). Its project locks
// live on the same session: they go with it.
func (p *Postgres) lostLock() error {
	return fmt.Errorf("this run lost the lock of %s (its connection closed, or force-unlock ended it), so another run may be changing the state", p.Describe())
}

// checkLockStillHeld refuses a write when this Postgres took the lock and its
// session no longer holds it. p.mu is held.
func (p *Postgres) checkLockStillHeld(ctx context.Context, tx pgx.Tx) error {
	h := p.held
	if h == nil {
		return nil
	}
	ok, err := holds(ctx, tx, int32(h.pid), p.key, h.mode())
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w; run plan again", p.lostLock())
	}
	return nil
}

// CheckLock asks the database whether the session that took this
// Postgres's lock still holds it.
func (p *Postgres) CheckLock(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.held
	if h == nil {
		return fmt.Errorf("this run does not hold the lock of %s", p.Describe())
	}
	conn, err := p.connLocked(ctx)
	if err != nil {
		return fmt.Errorf("checking that this run still holds the lock of %s: %w", p.Describe(), err)
	}
	ok, err := holds(ctx, conn, int32(h.pid), p.key, h.mode())
	if err != nil {
		return fmt.Errorf("checking that this run still holds the lock of %s: %w", p.Describe(), err)
	}
	if !ok {
		return p.lostLock()
	}
	return nil
}

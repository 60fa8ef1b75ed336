package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/internal/process"
)

// heldLock is a lock this process holds: the advisory lock lives as long as conn.
type heldLock struct {
	conn *pgx.Conn
	id   string
	pid  uint32 // backend pid of conn, as pg_locks shows it
}

// holdsLock is a condition on pg_locks: the session $1 holds the advisory
// lock of key ($2 high 32 bits, $3 low 32 bits; objsubid 1 marks a bigint key).
const holdsLock = `SELECT EXISTS (SELECT 1 FROM pg_locks
	WHERE locktype = 'advisory' AND granted AND pid = $1
	AND classid::bigint = $2 AND objid::bigint = $3 AND objsubid = 1)`

func (p *Postgres) keyParts() (hi, lo int64) {
	return int64(uint64(p.key) >> 32), int64(uint32(p.key))
}

// Lock takes pg_try_advisory_lock on a dedicated connection held until
// unlock; then records who holds it in the lock table. Advisory locks are
// re-entrant within a session, which is why every Lock opens its own
// connection: a second Lock, even from this process, is refused.
func (p *Postgres) Lock(ctx context.Context, who string) (unlock func() error, err error) {
	cfg := p.cfg.Copy()
	cfg.RuntimeParams["application_name"] = "neonform lock"
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to take the lock of %s: %w", p.Describe(), err)
	}
	fail := func(err error) (func() error, error) {
		conn.Close(context.Background()) // releases the advisory lock if it was taken
		return nil, err
	}
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, p.key).Scan(&got); err != nil {
		return fail(fmt.Errorf("taking the lock of %s: %w", p.Describe(), err))
	}
	if !got {
		locked, err := p.lockedError(ctx, conn)
		if err != nil {
			return fail(fmt.Errorf("%s is locked, and reading who holds it failed: %w", p.Describe(), err))
		}
		return fail(locked)
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
	h := &heldLock{conn: conn, id: info.ID, pid: conn.PgConn().PID()}
	p.mu.Lock()
	p.held = h
	p.mu.Unlock()
	var once sync.Once
	var unlockErr error
	return func() error {
		once.Do(func() { unlockErr = p.unlock(h) })
		return unlockErr
	}, nil
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
	defer h.conn.Close(ctx)

	if _, err := h.conn.Exec(ctx, `DELETE FROM `+lockTable+` WHERE name = $1 AND info->>'id' = $2`, p.name, h.id); err != nil {
		return fmt.Errorf("releasing the lock of %s: %w; it is released anyway as its connection closes", p.Describe(), err)
	}
	var released bool
	if err := h.conn.QueryRow(ctx, `SELECT pg_advisory_unlock($1)`, p.key).Scan(&released); err != nil {
		return fmt.Errorf("releasing the lock of %s: %w; it is released anyway as its connection closes", p.Describe(), err)
	}
	if !released {
		return fmt.Errorf("releasing the lock of %s: this run no longer held it (force-unlock?)", p.Describe())
	}
	return nil
}

// lockedError reads who holds the lock. The recorded holder is believed only
// if its session really holds the advisory lock now; a row left by a holder
// that died is not reported as the holder.
func (p *Postgres) lockedError(ctx context.Context, conn *pgx.Conn) (*LockedError, error) {
	e := &LockedError{Path: p.Describe()}
	hi, lo := p.keyParts()
	info, backendPID, ok, err := p.recordedHolder(ctx, conn)
	if err != nil {
		return nil, err
	}
	if ok {
		var holds bool
		if err := conn.QueryRow(ctx, holdsLock, backendPID, hi, lo).Scan(&holds); err != nil {
			return nil, err
		}
		ok = holds
	}
	if !ok {
		e.Remove = fmt.Sprintf("end the session holding it: SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = %d AND objid = %d AND objsubid = 1", hi, lo)
		return e, nil
	}
	e.Info = info
	e.Unlock = forceUnlock(info.ID)
	e.Remove = fmt.Sprintf("run %s, which ends that database session (pid %d)", e.Unlock.Quoted(), backendPID)
	if host, _ := os.Hostname(); host != "" && host == info.Host {
		alive, known := process.Alive(info.PID)
		e.Stale = known && !alive
	}
	return e, nil
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
	if err := json.Unmarshal(infoJSON, &info); err != nil {
		return info, 0, false, fmt.Errorf("the lock record in %s is not valid: %w", lockTable, err)
	}
	return info, backendPID, true, nil
}

// checkLockStillHeld refuses a write when this Postgres took the lock and its
// session no longer holds it (its connection dropped, or force-unlock ended it).
func (p *Postgres) checkLockStillHeld(ctx context.Context, tx pgx.Tx) error {
	if p.held == nil {
		return nil
	}
	hi, lo := p.keyParts()
	var holds bool
	if err := tx.QueryRow(ctx, holdsLock, int32(p.held.pid), hi, lo).Scan(&holds); err != nil {
		return err
	}
	if !holds {
		return fmt.Errorf("this run lost the lock of %s (its connection closed, or force-unlock ended it), so another run may be changing the state; run plan again", p.Describe())
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
	hi, lo := p.keyParts()
	var holds bool
	if err := conn.QueryRow(ctx, holdsLock, int32(h.pid), hi, lo).Scan(&holds); err != nil {
		return fmt.Errorf("checking that this run still holds the lock of %s: %w", p.Describe(), err)
	}
	if !holds {
		return fmt.Errorf("this run lost the lock of %s (its connection closed, or force-unlock ended it), so another run may be changing the state", p.Describe())
	}
	return nil
}

// ForceUnlock ends the database session holding the lock with the given ID,
// for `neonform force-unlock` when a run hangs or its machine went away while
// its connection stayed open. The ID must match, so a lock someone took since
// the user looked is not broken by mistake. Ending another session needs the
// same database role, or membership in pg_signal_backend.
func (p *Postgres) ForceUnlock(ctx context.Context, id string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	conn, err := p.connLocked(ctx)
	if err != nil {
		return err
	}
	info, backendPID, ok, err := p.recordedHolder(ctx, conn)
	switch {
	case err != nil:
		return fmt.Errorf("reading who holds the lock of %s: %w", p.Describe(), err)
	case !ok:
		return fmt.Errorf("%s has no recorded lock", p.Describe())
	case info.ID != id:
		return fmt.Errorf("the lock of %s has ID %s (held by %s on host %s, pid %d), not %s; nothing was done", p.Describe(), info.ID, orUnknown(info.Who), orUnknown(info.Host), info.PID, id)
	}
	hi, lo := p.keyParts()
	var holds bool
	if err := conn.QueryRow(ctx, holdsLock, backendPID, hi, lo).Scan(&holds); err != nil {
		return err
	}
	if holds {
		var ended bool
		if err := conn.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, backendPID).Scan(&ended); err != nil {
			return fmt.Errorf("ending the session (pid %d) that holds the lock of %s: %w; the role needs pg_signal_backend", backendPID, p.Describe(), err)
		}
		if !ended {
			return fmt.Errorf("could not end the session (pid %d) that holds the lock of %s", backendPID, p.Describe())
		}
		// pg_terminate_backend only signals; wait until the session is gone
		// so that a Lock right after this succeeds.
		gone, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		for holds {
			select {
			case <-gone.Done():
				return fmt.Errorf("asked the session (pid %d) holding the lock of %s to end, but it still holds it; try again shortly", backendPID, p.Describe())
			case <-time.After(20 * time.Millisecond):
			}
			if err := conn.QueryRow(ctx, holdsLock, backendPID, hi, lo).Scan(&holds); err != nil {
				return err
			}
		}
	}
	_, err = conn.Exec(ctx, `DELETE FROM `+lockTable+` WHERE name = $1 AND info->>'id' = $2`, p.name, id)
	return err
}

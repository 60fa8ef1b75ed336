package state

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
)

// Locks by project. A run that knows the projects it will change (an apply,
// once its plan is checked) locks those only, so that runs on disjoint
// projects of one state go on side by side. They are session advisory
// locks, as the whole state's lock is, for the same reason: the server
// releases them when the run's connection ends, so a crashed run leaves
// none behind. Two kinds of key:
//
//   - the state's own key (Postgres.key): Lock takes it exclusive, for the
//     commands that change the whole state (state push, rm and mv, import,
//     generate); LockProjects takes it shared. So a whole-state run and a
//     project run exclude each other, and project runs do not;
//   - one key a project (projectKey), taken exclusive by LockProjects.
//
// Advisory locks rather than rows in a table: a row lock lives as long as a
// transaction, and a run holds its locks for minutes across many of them;
// a row's "held" flag outlives a crashed run. Rows of projectLockTable only
// say who holds which project, for messages and force-unlock, and are
// believed only while pg_locks shows the session holding the lock.
//
// LockProjects never waits inside the server: it tries every lock it needs
// (the state's shared, then the projects' in sorted order) and, if one is
// held, gives all of them back and reports the holder, so two runs asking
// for overlapping sets in any order can never deadlock; LockWaiting tries
// again for as long as -lock-timeout allows.

var _ ProjectLocker = (*Postgres)(nil)

// projectKey is the advisory lock key of one project of this state.
func (p *Postgres) projectKey(projectID string) int64 {
	sum := sha256.Sum256([]byte("neonform_state/" + p.name + "/project/" + projectID))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}

// LockProjects takes the locks of the projects (ids, in any order, repeats
// allowed) on a dedicated connection held until unlock, and the state's
// lock shared, and records who holds each project. It fails at once with a
// *LockedError naming the holder and the project when one is held, or the
// holder of the whole state's lock. While they are held, Write stores only
// these projects' entries, over whatever the others' are (merge.go).
func (p *Postgres) LockProjects(ctx context.Context, who string, projects []string) (unlock func() error, err error) {
	ids := slices.Compact(slices.Sorted(slices.Values(projects)))
	if ids == nil {
		ids = []string{} // no project: the state's lock, shared, alone
	}
	conn, err := p.lockConn(ctx)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (func() error, error) {
		conn.Close(context.Background()) // releases every advisory lock it took
		return nil, err
	}
	if err := p.tryStateLock(ctx, conn, `SELECT pg_try_advisory_lock_shared($1)`); err != nil {
		return fail(err)
	}
	if held, err := p.tryProjects(ctx, conn, ids); err != nil || held != "" {
		if err == nil {
			err = p.projectLockedError(ctx, conn, held)
		}
		return fail(err)
	}
	info := newLockInfo(ctx, who)
	infoJSON, err := json.Marshal(info)
	if err != nil {
		return fail(err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO `+projectLockTable+` (name, project_id, info, backend_pid)
		SELECT $1, unnest($2::text[]), $3::jsonb, pg_backend_pid()
		ON CONFLICT (name, project_id) DO UPDATE SET info = EXCLUDED.info, backend_pid = EXCLUDED.backend_pid`, p.name, ids, string(infoJSON))
	if err != nil {
		return fail(fmt.Errorf("recording who holds the project locks of %s: %w", p.Describe(), err))
	}
	return p.hold(&heldLock{conn: conn, id: info.ID, pid: conn.PgConn().PID(), projects: ids}), nil
}

// tryProjects tries the lock of every project of ids (sorted), in that
// order, in one statement, and returns the first one held by another
// session ("" when it got them all).
func (p *Postgres) tryProjects(ctx context.Context, conn *pgx.Conn, ids []string) (held string, err error) {
	if len(ids) == 0 {
		return "", nil
	}
	keys := make([]int64, len(ids))
	for i, id := range ids {
		keys[i] = p.projectKey(id)
	}
	rows, err := conn.Query(ctx, `SELECT i, pg_try_advisory_lock(k) FROM unnest($1::bigint[]) WITH ORDINALITY AS u(k, i) ORDER BY i`, keys)
	if err != nil {
		return "", fmt.Errorf("taking the project locks of %s: %w", p.Describe(), err)
	}
	var i int64
	var got bool
	_, err = pgx.ForEachRow(rows, []any{&i, &got}, func() error {
		if !got && held == "" {
			held = ids[i-1]
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("taking the project locks of %s: %w", p.Describe(), err)
	}
	return held, nil
}

// projectHold is a project's lock as projectLockTable records it, its
// session holding it now.
type projectHold struct {
	project    string
	info       LockInfo
	backendPID int32
}

// projectHolders reads who holds the project locks of this state: only
// those of projects when it is not nil. It believes a row only while its
// session holds the project's lock; sorted by project.
func (p *Postgres) projectHolders(ctx context.Context, conn *pgx.Conn, projects []string) ([]projectHold, error) {
	q, args := `SELECT project_id, info, backend_pid FROM `+projectLockTable+` WHERE name = $1 ORDER BY project_id`, []any{p.name}
	if projects != nil {
		q, args = `SELECT project_id, info, backend_pid FROM `+projectLockTable+` WHERE name = $1 AND project_id = ANY($2) ORDER BY project_id`, []any{p.name, projects}
	}
	rows, err := conn.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	var out []projectHold
	var h projectHold
	var infoJSON []byte
	_, err = pgx.ForEachRow(rows, []any{&h.project, &infoJSON, &h.backendPID}, func() error {
		info, err := decodeLockInfo(infoJSON, projectLockTable)
		if err != nil {
			return err
		}
		h.info = info
		out = append(out, h)
		return nil
	})
	if err != nil {
		return nil, err
	}
	live := out[:0]
	for _, h := range out {
		ok, err := holds(ctx, conn, h.backendPID, p.projectKey(h.project), exclusive)
		if err != nil {
			return nil, err
		}
		if ok {
			live = append(live, h)
		}
	}
	return live, nil
}

// projectLockedError says who holds the lock of project.
func (p *Postgres) projectLockedError(ctx context.Context, conn *pgx.Conn, project string) error {
	e := &LockedError{Path: p.Describe(), Project: project}
	holders, err := p.projectHolders(ctx, conn, []string{project})
	if err != nil {
		return fmt.Errorf("project %s of %s is locked, and reading who holds it failed: %w", project, p.Describe(), err)
	}
	if len(holders) == 0 {
		hi, lo := keyParts(p.projectKey(project))
		e.Remove = fmt.Sprintf("end the session holding it: SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND classid = %d AND objid = %d AND objsubid = 1", hi, lo)
		return e
	}
	p.describeHolder(e, holders[0].info, holders[0].backendPID)
	return e
}

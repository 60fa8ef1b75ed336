package state

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// ForceUnlock ends the database session holding the lock with the given ID,
// for `neonform force-unlock` when a run hangs or its machine went away while
// its connection stayed open: the whole state's lock, or a run's project
// locks (one ID for all the projects of a run). The ID must match, so a lock
// someone took since the user looked is not broken by mistake. Ending another
// session needs the same database role, or membership in pg_signal_backend.
func (p *Postgres) ForceUnlock(ctx context.Context, id string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	conn, err := p.connLocked(ctx)
	if err != nil {
		return err
	}
	backendPID, what, err := p.lockByID(ctx, conn, id)
	if err != nil {
		return err
	}
	// Either kind of holder holds the state's own key (exclusive or shared):
	// while it does, its session lives.
	held := func() (bool, error) {
		a, err := holds(ctx, conn, backendPID, p.key, exclusive)
		if err != nil || a {
			return a, err
		}
		return holds(ctx, conn, backendPID, p.key, shared)
	}
	alive, err := held()
	if err != nil {
		return err
	}
	if alive {
		var ended bool
		if err := conn.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, backendPID).Scan(&ended); err != nil {
			return fmt.Errorf("ending the session (pid %d) that holds %s: %w; the role needs pg_signal_backend", backendPID, what, err)
		}
		if !ended {
			return fmt.Errorf("could not end the session (pid %d) that holds %s", backendPID, what)
		}
		// pg_terminate_backend only signals; wait until the session is gone
		// so that a Lock right after this succeeds.
		gone, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		for alive {
			select {
			case <-gone.Done():
				return fmt.Errorf("asked the session (pid %d) holding %s to end, but it still holds it; try again shortly", backendPID, what)
			case <-time.After(20 * time.Millisecond):
			}
			if alive, err = held(); err != nil {
				return err
			}
		}
	}
	if _, err := conn.Exec(ctx, `DELETE FROM `+lockTable+` WHERE name = $1 AND info->>'id' = $2`, p.name, id); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, `DELETE FROM `+projectLockTable+` WHERE name = $1 AND info->>'id' = $2`, p.name, id)
	return err
}

// lockByID finds the recorded lock with the given ID: the session holding
// it, and what it is, for messages ("the lock of ..." or "the locks of
// projects a, b of ..."). None is an error listing the locks there are.
func (p *Postgres) lockByID(ctx context.Context, conn *pgx.Conn, id string) (backendPID int32, what string, err error) {
	info, pid, ok, err := p.recordedHolder(ctx, conn)
	if err != nil {
		return 0, "", fmt.Errorf("reading who holds the lock of %s: %w", p.Describe(), err)
	}
	if ok && info.ID == id {
		return pid, "the lock of " + p.Describe(), nil
	}
	var others []string
	if ok {
		others = append(others, fmt.Sprintf("ID %s (held by %s on host %s, pid %d)", info.ID, orUnknown(info.Who), orUnknown(info.Host), info.PID))
	}
	rows, err := conn.Query(ctx, `SELECT project_id, info, backend_pid FROM `+projectLockTable+` WHERE name = $1 ORDER BY project_id`, p.name)
	if err != nil {
		return 0, "", fmt.Errorf("reading who holds the project locks of %s: %w", p.Describe(), err)
	}
	var mine []string
	var order []string                // the other runs' IDs, as first seen
	desc := map[string]string{}       // who holds each
	projects := map[string][]string{} // and which projects
	var project string
	var infoJSON []byte
	_, err = pgx.ForEachRow(rows, []any{&project, &infoJSON, &pid}, func() error {
		i, err := decodeLockInfo(infoJSON, projectLockTable)
		switch {
		case err != nil:
			return err
		case i.ID == id:
			mine, backendPID = append(mine, project), pid
		case desc[i.ID] == "":
			order = append(order, i.ID)
			desc[i.ID] = fmt.Sprintf("ID %s (held by %s on host %s, pid %d", i.ID, orUnknown(i.Who), orUnknown(i.Host), i.PID)
		}
		projects[i.ID] = append(projects[i.ID], project)
		return nil
	})
	if err != nil {
		return 0, "", fmt.Errorf("reading who holds the project locks of %s: %w", p.Describe(), err)
	}
	if len(mine) > 0 {
		return backendPID, fmt.Sprintf("the locks of project %s of %s", strings.Join(mine, ", "), p.Describe()), nil
	}
	for _, other := range order {
		others = append(others, fmt.Sprintf("%s, on project %s)", desc[other], strings.Join(projects[other], ", ")))
	}
	if len(others) == 0 {
		return 0, "", fmt.Errorf("%s has no recorded lock", p.Describe())
	}
	return 0, "", fmt.Errorf("no lock of %s has ID %s; nothing was done. It holds: the lock with %s", p.Describe(), id, strings.Join(others, "; the lock with "))
}

package state

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/neonform/neonform/internal/pgschema"
)

// Tables of the Postgres backend, created if missing. One database can hold
// many states, one row each, told apart by name.
const (
	stateTable = "neonform_state"
	lockTable  = "neonform_state_lock" // who holds each state's advisory lock, for messages
	// projectLockTable says who holds each project's lock of a state
	// (postgres_projects.go), for messages and force-unlock.
	projectLockTable = "neonform_state_project_lock"
)

var createTables = []string{
	`CREATE TABLE IF NOT EXISTS ` + stateTable + ` (
		name       text PRIMARY KEY,
		lineage    text NOT NULL,
		serial     bigint NOT NULL,
		data       jsonb NOT NULL,
		updated_at timestamptz NOT NULL DEFAULT now()
	)`,
	`CREATE TABLE IF NOT EXISTS ` + lockTable + ` (
		name        text PRIMARY KEY,
		info        jsonb NOT NULL,
		backend_pid integer NOT NULL
	)`,
	`CREATE TABLE IF NOT EXISTS ` + projectLockTable + ` (
		name        text NOT NULL,
		project_id  text NOT NULL,
		info        jsonb NOT NULL,
		backend_pid integer NOT NULL,
		PRIMARY KEY (name, project_id)
	)`,
}

// Postgres keeps the state in a table, for teams whose applies run on
// different machines. The lock is a session advisory lock, so it lives
// exactly as long as the connection that took it: a crashed apply cannot
// leave a stale lock behind. Connect directly, not through a pooler in
// transaction mode (such as Neon's -pooler host): advisory session locks do
// not survive it.
type Postgres struct {
	cfg  *pgx.ConnConfig
	name string
	key  int64 // the advisory lock key: a hash of name

	mu   sync.Mutex
	conn *pgx.Conn // for Read, Write and ForceUnlock; a pgx.Conn is not safe for concurrent use
	held *heldLock // the lock this Postgres holds, nil if none
	// ahead is the next lock's connection, being opened ahead
	// (DialLockAhead), nil if none.
	ahead *lockAhead

	// beforeCommit, when set (by tests), runs inside Write's transaction after
	// the update: a failure point for the atomicity tests.
	beforeCommit func() error
}

var _ Backend = (*Postgres)(nil)

// NewPostgres connects to the database at dsn (a postgres:// URL or key=value
// string) and creates the tables if they are missing. name tells this state
// apart from others in the same table.
func NewPostgres(ctx context.Context, dsn string, name string) (*Postgres, error) {
	if name == "" {
		return nil, errors.New("the Postgres state backend needs a name for the state (one table holds many states)")
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// The parse error may quote the connection string, password included.
		return nil, errors.New("cannot parse the Postgres state connection string (not shown: it may hold a password); write it as postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=require or as key=value pairs")
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["application_name"] = "neonform"
	sum := sha256.Sum256([]byte("neonform_state/" + name))
	p := &Postgres{cfg: cfg, name: name, key: int64(binary.BigEndian.Uint64(sum[:8]))}

	p.mu.Lock()
	defer p.mu.Unlock()
	conn, err := p.connLocked(ctx)
	if err != nil {
		return nil, err
	}
	if err := ensureTables(ctx, conn); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("creating the tables of %s: %w; the user needs CREATE on the schema, or create them by hand (see the state package doc)", p.Describe(), err)
	}
	return p, nil
}

// ensureTables creates the tables unless they exist.
func ensureTables(ctx context.Context, conn *pgx.Conn) error {
	return pgschema.Ensure(ctx, conn, "neonform_state tables", createTables,
		`SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AND to_regclass($3) IS NOT NULL`,
		stateTable, lockTable, projectLockTable)
}

// connLocked returns the working connection, reconnecting if it was closed
// (pgx closes a connection whose query was cancelled). p.mu must be held.
func (p *Postgres) connLocked(ctx context.Context) (*pgx.Conn, error) {
	if p.conn != nil && !p.conn.IsClosed() {
		return p.conn, nil
	}
	conn, err := pgx.ConnectConfig(ctx, p.cfg.Copy())
	if err != nil {
		return nil, p.connectError(err)
	}
	p.conn = conn
	return conn, nil
}

// Describe names the backend for messages. It never shows the password.
func (p *Postgres) Describe() string {
	where := p.cfg.Host
	if p.cfg.Port != 0 {
		where += ":" + strconv.Itoa(int(p.cfg.Port))
	}
	return fmt.Sprintf("postgres state %q (table %s in database %s on %s)", p.name, stateTable, p.cfg.Database, where)
}

// Close closes the connections; a lock still held is released with them.
func (p *Postgres) Close(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held != nil {
		p.held.conn.Close(ctx)
		p.held = nil
	}
	if p.ahead != nil {
		p.ahead.drop()
		p.ahead = nil
	}
	if p.conn == nil {
		return nil
	}
	err := p.conn.Close(ctx)
	p.conn = nil
	return err
}

// Read returns the stored state, or New() if there is no row for the name.
func (p *Postgres) Read(ctx context.Context) (*State, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	conn, err := p.connLocked(ctx)
	if err != nil {
		return nil, err
	}
	var lineage string
	var serial int64
	var data []byte
	err = conn.QueryRow(ctx, `SELECT lineage, serial, data FROM `+stateTable+` WHERE name = $1`, p.name).Scan(&lineage, &serial, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		st := New()
		return st, p.readHeld(st)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p.Describe(), err)
	}
	st, err := p.decodeRow(ctx, lineage, serial, data)
	if err != nil {
		return nil, err
	}
	return st, p.readHeld(st)
}

// readHeld notes, when this Postgres holds project locks, their entries as
// read: what its writes expect to find stored (merge.go). p.mu is held.
func (p *Postgres) readHeld(st *State) (err error) {
	if h := p.held; h != nil && h.projects != nil {
		h.base, err = heldEntries(st, h.projects)
	}
	return err
}

// decodeRow checks a stored row: its data must decode, and agree with the
// lineage and serial columns the writes rely on.
func (p *Postgres) decodeRow(ctx context.Context, lineage string, serial int64, data []byte) (*State, error) {
	s, err := decode(ctx, data, p.Describe(), p.fix())
	if err != nil {
		return nil, err
	}
	if s.Lineage != lineage || s.Serial != serial {
		return nil, fmt.Errorf("%s is inconsistent: its columns say lineage %s serial %d, its data lineage %s serial %d; it was left untouched: %s", p.Describe(), lineage, serial, s.Lineage, s.Serial, p.fix())
	}
	return s, nil
}

func (p *Postgres) fix() string {
	return fmt.Sprintf("fix the row by hand (its data column), or delete it (DELETE FROM %s WHERE name = '%s') to start from an empty state, after which neonform must import the computes it managed again", stateTable, p.name)
}

// Write stores s as the next serial in one transaction: the row is locked
// (SELECT ... FOR UPDATE), its lineage and serial checked, and the UPDATE
// itself only matches the serial s was read at, so of two racing writers one
// commits and the other gets a *ConflictError.
//
// While this Postgres holds project locks (LockProjects), Write stores
// those projects' entries of s over the stored state instead (merge.go), as
// the next serial of the stored one, and sets s's lineage too: a state read
// when there was none joins the one another run stored first.
func (p *Postgres) Write(ctx context.Context, s *State) error {
	p.mu.Lock()
	h := p.held
	p.mu.Unlock()
	if h == nil || h.projects == nil {
		return writeNext(ctx, p, s)
	}
	if err := s.Validate(); err != nil {
		return fmt.Errorf("refusing to write %s: %w", p.Describe(), err)
	}
	var next *State
	decide := func(stored *State, exists bool) (n *State, err error) {
		next, err = mergeHeld(p.Describe(), stored, exists, h.projects, h.base, s)
		return next, err
	}
	err := p.store(ctx, decide)
	var c *ConflictError
	if errors.As(err, &c) && c.raced {
		// Another run stored the first state at the same moment: merge
		// over it.
		err = p.store(ctx, decide)
	}
	if err != nil {
		return err
	}
	base, err := heldEntries(s, h.projects)
	if err != nil {
		return err
	}
	p.mu.Lock()
	h.base = base
	p.mu.Unlock()
	s.FormatVersion, s.Lineage, s.Serial = next.FormatVersion, next.Lineage, next.Serial
	return nil
}

// store replaces the stored row with what decide makes of the state it
// holds (nothing when decide returns nil), in one transaction, as Write
// describes. stored is an empty State when there is no row (exists false).
func (p *Postgres) store(ctx context.Context, decide func(stored *State, exists bool) (*State, error)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	conn, err := p.connLocked(ctx)
	if err != nil {
		return err
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return fmt.Errorf("writing %s: %w", p.Describe(), err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) // a no-op once committed
	wrote, err := p.storeInTx(ctx, tx, decide)
	if err != nil || !wrote {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("writing %s: committing: %w", p.Describe(), err)
	}
	return nil
}

// storeInTx checks and stores the state inside store's transaction.
func (p *Postgres) storeInTx(ctx context.Context, tx pgx.Tx, decide func(stored *State, exists bool) (*State, error)) (wrote bool, err error) {
	failed := func(err error) error { return fmt.Errorf("writing %s: %w", p.Describe(), err) }
	if err := p.checkLockStillHeld(ctx, tx); err != nil {
		return false, err
	}
	var lineage string
	var serial int64
	var data []byte
	err = tx.QueryRow(ctx, `SELECT lineage, serial, data FROM `+stateTable+` WHERE name = $1 FOR UPDATE`, p.name).Scan(&lineage, &serial, &data)
	exists := err == nil
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return false, failed(err)
	}
	stored := &State{}
	if exists {
		// What cannot be read (a newer format, say) is never replaced.
		if stored, err = p.decodeRow(ctx, lineage, serial, data); err != nil {
			return false, fmt.Errorf("refusing to overwrite: %w", err)
		}
	}
	next, err := decide(stored, exists)
	if err != nil || next == nil {
		return false, err
	}
	encoded, err := encode(next)
	if err != nil {
		return false, err
	}
	// The UPDATE matches only the row as it was read; a writer racing to
	// create the same row makes the INSERT insert nothing.
	q, args := `UPDATE `+stateTable+` SET lineage = $4, serial = $5, data = $6::jsonb, updated_at = now()
		WHERE name = $1 AND lineage = $2 AND serial = $3`, []any{p.name, lineage, serial, next.Lineage, next.Serial, string(encoded)}
	if !exists {
		q, args = `INSERT INTO `+stateTable+` (name, lineage, serial, data, updated_at)
			VALUES ($1, $2, $3, $4::jsonb, now()) ON CONFLICT (name) DO NOTHING`, []any{p.name, next.Lineage, next.Serial, string(encoded)}
	}
	tag, err := tx.Exec(ctx, q, args...)
	if err != nil {
		return false, failed(err)
	}
	if tag.RowsAffected() != 1 {
		return false, &ConflictError{Backend: p.Describe(), Reason: "another run wrote it at the same moment", raced: true}
	}
	if p.beforeCommit != nil {
		if err := p.beforeCommit(); err != nil {
			return false, failed(err)
		}
	}
	return true, nil
}

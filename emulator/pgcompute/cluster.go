package pgcompute

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/neonform/neonform/internal/pgserver"
)

// Cluster is the one Postgres server behind every compute of an emulator: started on
// the first connection, in a temporary directory, and thrown away by Stop (its
// branch databases kept in files by Keep, for a kept cluster: keep.go). Each branch
// has its own databases in it (one per database of the branch); a branch made from a
// parent starts with a copy of the parent's, taken when it is made.
type Cluster struct {
	bin string

	mu    sync.Mutex
	srv   *pgserver.Server
	admin *pgx.Conn // the superuser, on the "postgres" database
	// settable are the settings a session may set (context "user" in pg_settings):
	// the pg_settings of a compute that Postgres lets one session have.
	settable map[string]bool
	roles    map[string]bool // roles made so far
	stopped  bool
	// keep is where the branch databases are kept between runs (keep.go); "" for
	// none, their data gone with the cluster.
	keep string
}

// NewCluster is a cluster of the server programs in bin (pgserver.FindBin), not yet started.
func NewCluster(bin string) *Cluster {
	return &Cluster{bin: bin, roles: map[string]bool{}}
}

// settings of the server: no fsync (its data is thrown away), and enough connections
// for many computes with a few clients each.
var serverSettings = []string{"fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=300"}

// startLocked starts the server if it is not running. Caller holds c.mu.
func (c *Cluster) startLocked(ctx context.Context) error {
	if c.admin != nil {
		return nil
	}
	if c.stopped {
		return errors.New("the emulator is stopping")
	}
	// A short path: the server's socket path must stay under about 100 bytes.
	dir, err := os.MkdirTemp("", "nfpc")
	if err != nil {
		return err
	}
	srv, err := pgserver.Start(c.bin, dir, serverSettings...)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	admin, err := pgx.Connect(ctx, srv.DSN("postgres"))
	if err == nil {
		err = c.loadSettable(ctx, admin)
	}
	if err != nil {
		srv.Stop()
		os.RemoveAll(dir)
		return err
	}
	c.srv, c.admin = srv, admin
	return nil
}

func (c *Cluster) loadSettable(ctx context.Context, admin *pgx.Conn) error {
	rows, err := admin.Query(ctx, "SELECT name FROM pg_settings WHERE context = 'user'")
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	c.settable = map[string]bool{}
	for _, n := range names {
		c.settable[n] = true
	}
	return nil
}

// Stop stops the server and removes its data.
func (c *Cluster) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	if c.admin == nil {
		return
	}
	c.admin.Close(context.Background())
	c.srv.Stop()
	os.RemoveAll(c.srv.Dir)
	c.admin, c.srv = nil, nil
}

// Running reports whether the server was started.
func (c *Cluster) Running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.admin != nil
}

// Dir is the server's directory (its data, log and socket); "" until it starts.
func (c *Cluster) Dir() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.srv == nil {
		return ""
	}
	return c.srv.Dir
}

// socket is the path of the server's Unix socket.
func (c *Cluster) socket() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.srv == nil {
		return ""
	}
	return fmt.Sprintf("%s/.s.PGSQL.%d", c.srv.Dir, pgserver.Port)
}

// databaseName is the name in the cluster of a branch's database: readable, and
// within Postgres's 63 bytes.
func databaseName(branchID, name string) string {
	n := branchID + "/" + name
	if len(n) <= 63 {
		return n
	}
	sum := sha256.Sum256([]byte(name))
	return branchID + "/" + hex.EncodeToString(sum[:8])
}

// replicaRole is the role a read replica's sessions log in as: it reads what role
// reads (pg_read_all_data) and owns nothing, so it cannot write whatever it sets.
func replicaRole(role string) string { return role + "_ro" }

// prepare makes sure the server runs and holds what a session needs: its roles and
// its branch's database (empty when the branch's data was never touched).
func (c *Cluster) prepare(ctx context.Context, branchID, database, role string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.startLocked(ctx); err != nil {
		return "", err
	}
	if err := c.ensureRoleLocked(ctx, role); err != nil {
		return "", err
	}
	db := databaseName(branchID, database)
	exists, err := c.existsLocked(ctx, db)
	if err != nil || exists {
		return db, err
	}
	if c.keep != "" {
		path, owner, err := c.keptDump(db)
		if err != nil {
			return "", err
		}
		if path != "" {
			return db, c.restoreLocked(ctx, db, path, owner)
		}
	}
	if _, err := c.admin.Exec(ctx, "CREATE DATABASE "+ident(db)+" OWNER "+ident(role)); err != nil {
		return "", err
	}
	return db, c.restrictLocked(ctx, db)
}

func (c *Cluster) ensureRoleLocked(ctx context.Context, role string) error {
	if c.roles[role] {
		return nil
	}
	ro := replicaRole(role)
	for _, sql := range []string{
		"DO $$ BEGIN CREATE ROLE " + ident(role) + " LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$",
		"DO $$ BEGIN CREATE ROLE " + ident(ro) + " LOGIN IN ROLE pg_read_all_data; EXCEPTION WHEN duplicate_object THEN NULL; END $$",
		"ALTER ROLE " + ident(ro) + " SET default_transaction_read_only = on",
	} {
		if _, err := c.admin.Exec(ctx, sql); err != nil {
			return err
		}
	}
	c.roles[role] = true
	return nil
}

// restrictLocked takes temporary tables from everyone but the owner: a replica
// creates none.
func (c *Cluster) restrictLocked(ctx context.Context, db string) error {
	_, err := c.admin.Exec(ctx, "REVOKE TEMPORARY ON DATABASE "+ident(db)+" FROM PUBLIC")
	return err
}

func (c *Cluster) existsLocked(ctx context.Context, db string) (bool, error) {
	var n int
	err := c.admin.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname = $1", db).Scan(&n)
	return n > 0, err
}

// BranchCreated copies the parent's databases that exist to the new branch. A
// database nobody has connected to does not exist, and its copy need not either:
// both are empty. The copy is a template copy when nobody is connected to the
// parent, else a dump and restore, which does not disturb its sessions; a parent's
// database kept from an earlier run and not opened in this one is copied as its
// file (keep.go), with or without the cluster running.
func (c *Cluster) BranchCreated(parentID, branchID string, databases []string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ctx := context.Background()
	for _, name := range databases {
		from, to := databaseName(parentID, name), databaseName(branchID, name)
		copied := false
		var err error
		if c.admin != nil {
			copied, err = c.copyLocked(ctx, from, to)
		}
		if err == nil && !copied && c.keep != "" {
			err = c.copyKeptLocked(from, to)
		}
		if err != nil {
			return fmt.Errorf("database %s: %w", name, err)
		}
	}
	return nil
}

// copyLocked copies from to to in the cluster; false if from is not there.
func (c *Cluster) copyLocked(ctx context.Context, from, to string) (bool, error) {
	var owner string
	err := c.admin.QueryRow(ctx, "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1", from).Scan(&owner)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = c.admin.Exec(ctx, "CREATE DATABASE "+ident(to)+" TEMPLATE "+ident(from)+" OWNER "+ident(owner))
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "55006" { // object_in_use: the parent has sessions
		err = c.dumpLocked(ctx, from, to, owner)
	}
	if err != nil {
		return false, err
	}
	return true, c.restrictLocked(ctx, to)
}

// dumpLocked copies a database in use with pg_dump and pg_restore.
func (c *Cluster) dumpLocked(ctx context.Context, from, to, owner string) error {
	if _, err := c.admin.Exec(ctx, "CREATE DATABASE "+ident(to)+" TEMPLATE template0 OWNER "+ident(owner)); err != nil {
		return err
	}
	dump := c.srv.Command("pg_dump", "-Fc", "-d", c.srv.DSN(from))
	restore := c.srv.Command("pg_restore", "--exit-on-error", "-d", c.srv.DSN(to))
	pipe, err := dump.StdoutPipe()
	if err != nil {
		return err
	}
	restore.Stdin = pipe
	var dumpErr, restoreErr limitedBuffer
	dump.Stderr, restore.Stderr = &dumpErr, &restoreErr
	if err := dump.Start(); err != nil {
		return err
	}
	rerr := restore.Run()
	derr := dump.Wait()
	if derr != nil {
		return fmt.Errorf("pg_dump: %v: %s", derr, dumpErr.String())
	}
	if rerr != nil {
		return fmt.Errorf("pg_restore: %v: %s", rerr, restoreErr.String())
	}
	return nil
}

// BranchesDeleted drops the databases of the branches, and their sessions with
// them, and removes the files of those kept.
func (c *Cluster) BranchesDeleted(branchIDs []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keep != "" {
		c.removeKept(branchIDs)
	}
	if c.admin == nil {
		return
	}
	ctx := context.Background()
	for _, id := range branchIDs {
		rows, err := c.admin.Query(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1)", id+"/")
		if err != nil {
			return
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return
		}
		for _, n := range names {
			_, _ = c.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(n)+" WITH (FORCE)")
		}
	}
}

// ident quotes an identifier for SQL.
func ident(s string) string { return pgx.Identifier{s}.Sanitize() }

// limitedBuffer keeps the first 4 KiB written to it: a program's error output.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 4096 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }

var _ io.Writer = (*limitedBuffer)(nil)

package pgcompute

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/internal/atomicfile"
)

// The branches' data across runs (docs/emulator.md, Real Postgres behind the
// computes): a cluster with a keep directory writes every branch database it holds
// there when the run ends (Keep: pg_dump's custom format, one file a database) and
// restores a database from its file the first time a session needs it. A new
// branch whose parent's data is only in a file gets a copy of the file, so the
// embedded sandbox, which never starts the cluster, gives a branch its parent's
// data too. Files rather than the server's own data directory: that directory
// would have to be reachable by the server's user (postgres, when neonform runs as
// root, which cannot enter the user's 0700 directories), and could serve only one
// process at a time, while files are read and copied by whichever run needs them.

// NewKeptCluster is NewCluster whose branch databases are kept in dir between runs.
func NewKeptCluster(bin, dir string) *Cluster {
	c := NewCluster(bin)
	c.keep = dir
	return c
}

// KeepDir is the directory beside a world file where its computes' data is kept:
// world.json's is world.postgres (world.postgres's, world.postgres.d).
func KeepDir(worldFile string) string {
	dir := strings.TrimSuffix(worldFile, filepath.Ext(worldFile)) + ".postgres"
	if dir == worldFile {
		return dir + ".d"
	}
	return dir
}

// dumpName is the file of a database kept: its name in the cluster and its owner,
// each escaped (so neither holds the "@" between them, nor a "/").
func dumpName(db, owner string) string {
	return url.QueryEscape(db) + "@" + url.QueryEscape(owner) + ".dump"
}

// keptFiles are the names of the files of a database kept (one, but for an owner
// changed since).
func (c *Cluster) keptFiles(db string) ([]string, error) {
	entries, err := os.ReadDir(c.keep)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var names []string
	prefix := url.QueryEscape(db) + "@"
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && strings.HasSuffix(e.Name(), ".dump") {
			names = append(names, e.Name())
		}
	}
	return names, err
}

// keptDump finds the file of a database kept: its path and owner ("" if none).
func (c *Cluster) keptDump(db string) (path, owner string, err error) {
	names, err := c.keptFiles(db)
	for _, n := range names {
		rest := strings.TrimSuffix(strings.TrimPrefix(n, url.QueryEscape(db)+"@"), ".dump")
		if owner, uerr := url.QueryUnescape(rest); uerr == nil {
			return filepath.Join(c.keep, n), owner, err
		}
	}
	return "", "", err
}

// restoreLocked makes db from its file, as its owner had it. Caller holds c.mu.
func (c *Cluster) restoreLocked(ctx context.Context, db, path, owner string) error {
	if err := c.ensureRoleLocked(ctx, owner); err != nil {
		return err
	}
	if _, err := c.admin.Exec(ctx, "CREATE DATABASE "+ident(db)+" TEMPLATE template0 OWNER "+ident(owner)); err != nil {
		return err
	}
	restore := c.srv.Command("pg_restore", "--exit-on-error", "-d", c.srv.DSN(db), path)
	var stderr limitedBuffer
	restore.Stderr = &stderr
	if err := restore.Run(); err != nil {
		_, _ = c.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(db)+" WITH (FORCE)")
		return fmt.Errorf("restoring %s from %s: pg_restore: %v: %s", db, path, err, stderr.String())
	}
	return c.restrictLocked(ctx, db)
}

// copyKeptLocked gives the database to the file of from, if from is kept.
func (c *Cluster) copyKeptLocked(from, to string) error {
	path, owner, err := c.keptDump(from)
	if path == "" || err != nil {
		return err
	}
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	return atomicfile.Write(filepath.Join(c.keep, dumpName(to, owner)), atomicfile.Options{}, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
}

// removeKept removes the files of the branches' databases.
func (c *Cluster) removeKept(branchIDs []string) {
	entries, err := os.ReadDir(c.keep)
	if err != nil {
		return
	}
	for _, id := range branchIDs {
		prefix := url.QueryEscape(id + "/")
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), prefix) {
				os.Remove(filepath.Join(c.keep, e.Name()))
			}
		}
	}
}

// Keep writes every branch database the cluster holds to the keep directory,
// replacing its earlier file; nothing without a keep directory or when the
// cluster never started (the files it has are as they were).
func (c *Cluster) Keep() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keep == "" || c.admin == nil {
		return nil
	}
	ctx := context.Background()
	rows, err := c.admin.Query(ctx, "SELECT datname, pg_get_userbyid(datdba) FROM pg_database WHERE strpos(datname, '/') > 0")
	if err != nil {
		return err
	}
	type database struct{ Name, Owner string }
	dbs, err := pgx.CollectRows(rows, pgx.RowToStructByPos[database])
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.keep, 0o700); err != nil {
		return err
	}
	for _, db := range dbs {
		if err := c.dumpToFileLocked(db.Name, db.Owner); err != nil {
			return err
		}
	}
	return nil
}

// dumpToFileLocked writes db's file, and removes one of another owner.
func (c *Cluster) dumpToFileLocked(db, owner string) error {
	path := filepath.Join(c.keep, dumpName(db, owner))
	err := atomicfile.Write(path, atomicfile.Options{}, func(w io.Writer) error {
		dump := c.srv.Command("pg_dump", "-Fc", "-d", c.srv.DSN(db))
		var stderr limitedBuffer
		dump.Stdout, dump.Stderr = w, &stderr
		if err := dump.Run(); err != nil {
			return fmt.Errorf("pg_dump of %s: %v: %s", db, err, stderr.String())
		}
		return nil
	})
	if err != nil {
		return err
	}
	others, _ := c.keptFiles(db)
	for _, n := range others {
		if n != filepath.Base(path) {
			os.Remove(filepath.Join(c.keep, n)) // the file of an earlier owner
		}
	}
	return nil
}

// Offline backs the computes of a world that no proxy of this process serves (the
// embedded sandbox, which lives for one command): its connection URIs name addr,
// where neonform emulator -postgres serves the same world, and a new branch gets
// a copy of its parent's kept data without the cluster starting. It implements
// emulator.Postgres.
type Offline struct {
	cluster *Cluster
	addr    string
}

// NewOffline is the computes kept by cluster, reached at addr while another
// process serves them.
func NewOffline(cluster *Cluster, addr string) *Offline {
	return &Offline{cluster: cluster, addr: addr}
}

// Addr implements emulator.Postgres.
func (o *Offline) Addr() string { return o.addr }

// BranchCreated implements emulator.Postgres.
func (o *Offline) BranchCreated(parentID, branchID string, databases []string) error {
	return o.cluster.BranchCreated(parentID, branchID, databases)
}

// BranchesDeleted implements emulator.Postgres.
func (o *Offline) BranchesDeleted(ids []string) { o.cluster.BranchesDeleted(ids) }

package pgcompute_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/pgserver"
	"github.com/neonform/neonform/internal/pgtest"
)

// A kept cluster's branch databases outlive the run: written in one emulator,
// read in the next one over the same world file; a branch made in between by an
// emulator that never starts the cluster (the embedded sandbox's way) starts with
// its parent's data; deleting a branch throws its kept data away.
func TestKeptDataSurvivesARestart(t *testing.T) {
	pgtest.Computes(t) // skips or fails without the server's programs
	bin, err := pgserver.FindBin()
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "world.json")
	keep := pgcompute.KeepDir(data)
	if keep != strings.TrimSuffix(data, ".json")+".postgres" {
		t.Fatalf("KeepDir(%s) = %s", data, keep)
	}
	if got := pgcompute.KeepDir("w.postgres"); got != "w.postgres.d" {
		t.Errorf("KeepDir(w.postgres) = %s: the world file's own path", got)
	}

	first := newKeptWorld(t, bin, data)
	p := first.project("shop")
	conn := first.connect(p.ConnectionURIs[0].URI)
	exec(t, conn, "CREATE TABLE items (name text)")
	exec(t, conn, "INSERT INTO items VALUES ('a')")
	first.close()

	offline := pgcompute.NewKeptCluster(bin, keep)
	emu, err := emulator.New(emulator.Options{APIKey: "napi_test", DataFile: data, RatePerMinute: -1,
		Postgres: pgcompute.NewOffline(offline, "127.0.0.1:5455")})
	if err != nil {
		t.Fatal(err)
	}
	dev, _, err := emu.EnsureBranch(p.Project.ID, "dev")
	if err != nil {
		t.Fatal(err)
	}
	if offline.Running() {
		t.Error("a branch made offline started the cluster")
	}
	if err := emu.Close(); err != nil {
		t.Fatal(err)
	}

	second := newKeptWorld(t, bin, data)
	main := second.connect(second.uri(p.Project.ID, p.Branch.ID, p.Endpoints[0].ID))
	if n := count(t, main); n != 1 {
		t.Errorf("after the restart main has %d rows, want the 1 written before", n)
	}
	ep := second.endpoint(p.Project.ID, dev.ID, "read_write")
	child := second.connect(second.uri(p.Project.ID, dev.ID, ep.ID))
	if n := count(t, child); n != 1 {
		t.Errorf("the branch made between the runs has %d rows, want its parent's 1", n)
	}
	exec(t, child, "INSERT INTO items VALUES ('b')")
	second.close()
	if kept := keptFiles(t, keep, dev.ID); len(kept) != 1 {
		t.Fatalf("the branch's kept files: %v, want one", kept)
	}

	third := newKeptWorld(t, bin, data)
	third.call("DELETE", "/projects/"+p.Project.ID+"/branches/"+dev.ID, nil, 200, nil)
	if kept := keptFiles(t, keep, dev.ID); len(kept) != 0 {
		t.Errorf("a deleted branch's data is still kept: %v", kept)
	}
	third.close()
}

// newKeptWorld is a world of the world file data whose computes' data is kept
// beside it; close stops it as neonform emulator -postgres -data does.
func newKeptWorld(t testing.TB, bin, data string) *world {
	t.Helper()
	c := pgcompute.NewKeptCluster(bin, pgcompute.KeepDir(data))
	t.Cleanup(c.Stop)
	proxy, err := pgcompute.Listen("127.0.0.1:0", c)
	if err != nil {
		t.Fatal(err)
	}
	emu, err := emulator.New(emulator.Options{APIKey: "napi_test", DataFile: data, RatePerMinute: -1, OpDelay: 0, Postgres: proxy})
	if err != nil {
		t.Fatal(err)
	}
	go proxy.Serve(emu)
	w := serveWorld(t, emu, proxy, nil)
	w.close = func() {
		w.closeHTTP()
		proxy.Close()
		if err := emu.Close(); err != nil {
			t.Error(err)
		}
		if err := c.Keep(); err != nil {
			t.Error(err)
		}
		c.Stop()
	}
	return w
}

func keptFiles(t *testing.T, dir, branchID string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), branchID+"%2F") {
			names = append(names, e.Name())
		}
	}
	return names
}

package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

func TestDataFileKeepsTheWorldAcrossARestart(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "world.json")
	clock := NewFakeClock(t0)
	s := newService(t, Options{DataFile: file, Clock: clock})
	p := s.newProject("shop")
	pid := p.Project.ID
	s.settle()
	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": p.Branch.ID, "type": "read_only", "name": "reports",
		"autoscaling_limit_min_cu": 0.5, "autoscaling_limit_max_cu": 4, "settings": map[string]any{"pg_settings": map[string]string{"work_mem": "8MB"}}}).
		want(t, 201).decode(t, &ro)
	var kept, gone api.ApiKeyCreateResponse
	s.call("POST", "/api_keys", map[string]any{"key_name": "kept"}).want(t, 200).decode(t, &kept)
	s.call("POST", "/api_keys", map[string]any{"key_name": "gone"}).want(t, 200).decode(t, &gone)
	s.call("DELETE", "/api_keys/"+itoa(gone.ID), nil).want(t, 200)
	before := s.call("GET", "/projects/"+pid+"/endpoints", nil).want(t, 200).body
	opsBefore := s.call("GET", "/projects/"+pid+"/operations", nil).want(t, 200).body

	// Every change is on disk already; Close only adds the keys' last use.
	var doc worldDoc
	raw, err := os.ReadFile(file)
	must(t, err)
	must(t, json.Unmarshal(raw, &doc))
	if len(doc.Projects) != 1 || len(doc.Projects[0].Endpoints) != 2 || len(doc.APIKeys) != 3 {
		t.Fatalf("the data file holds %d projects, %d keys, want 1 project of 2 endpoints and 3 keys", len(doc.Projects), len(doc.APIKeys))
	}
	s.srv.Close()
	must(t, s.emu.Close())

	// A new emulator on the same file, at the same moment, answers the same, and
	// the running operation still locks the project.
	again, err := New(Options{DataFile: file, Clock: clock, APIKey: s.key, RatePerMinute: -1, OpDelay: 10 * time.Second})
	must(t, err)
	s2 := &service{t: t, emu: again, srv: serve(t, again), clock: clock, key: s.key, validated: map[string]int{}}
	if after := s2.call("GET", "/projects/"+pid+"/endpoints", nil).want(t, 200).body; !bytes.Equal(before, after) {
		t.Errorf("endpoints before the restart:\n%s\nafter:\n%s", before, after)
	}
	if after := s2.call("GET", "/projects/"+pid+"/operations", nil).want(t, 200).body; !bytes.Equal(opsBefore, after) {
		t.Errorf("operations before the restart:\n%s\nafter:\n%s", opsBefore, after)
	}
	wantCode(t, s2.patchEndpoint(pid, ro.Endpoint.ID, map[string]any{"name": "x"}), 423, codeLocked)
	s2.settle()
	if got := s2.endpoint(pid, ro.Endpoint.ID); got.CurrentState != "active" || got.Settings.PgSettings["work_mem"] != "8MB" {
		t.Errorf("after the restart the replica is %s with %v", got.CurrentState, got.Settings.PgSettings)
	}
	s2.callAs(kept.Key, "GET", "/projects", nil).want(t, 200)
	s2.callAs(gone.Key, "GET", "/projects", nil).want(t, 401)

	// No temporary file is left next to it, and no secret is in it.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the data file's directory holds %d files, want only the data file", len(entries))
	}
	raw, _ = os.ReadFile(file)
	for _, secret := range []string{s.key, kept.Key, gone.Key} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Error("the data file holds a secret")
		}
	}
}

func TestNewWorldHasTheConsoleKey(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	e, err := New(Options{DataFile: file})
	must(t, err)
	key := e.APIKey()
	if !regexp.MustCompile(`^napi_[a-z0-9]{64}$`).MatchString(key) {
		t.Errorf("generated key %q does not look like the service's", key)
	}
	must(t, e.Close())
	// Started again without a key, it makes a second console key; the first still works.
	e2, err := New(Options{DataFile: file})
	must(t, err)
	s := &service{t: t, emu: e2, srv: serve(t, e2), validated: map[string]int{}}
	s.callAs(key, "GET", "/projects", nil).want(t, 200)
	s.callAs(e2.APIKey(), "GET", "/projects", nil).want(t, 200)
	if key == e2.APIKey() {
		t.Error("two generated keys are the same")
	}
	if _, err := New(Options{APIKey: "napi_with space"}); err == nil {
		t.Error("a key with a space was accepted")
	}
}

// The JSON examples of README.md are worlds that load, so the documentation
// cannot drift from the format.
func TestReadmeExamplesLoad(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	must(t, err)
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(raw, -1)
	if len(blocks) != 2 {
		t.Fatalf("README.md has %d json examples, want 2", len(blocks))
	}
	now := time.Date(2026, 3, 2, 9, 0, 5, 0, time.UTC)
	for i, b := range blocks {
		if _, err := parseWorld(b[1], now); err != nil {
			t.Errorf("example %d: %v", i+1, err)
		}
	}

	// The fuller example behaves as the README says, at 09:00:05.
	file := filepath.Join(t.TempDir(), "world.json")
	must(t, os.WriteFile(file, blocks[1][1], 0o600))
	clock := NewFakeClock(now)
	s := newService(t, Options{DataFile: file, Clock: clock, APIKey: "napi_ada_laptop_demo_key"})
	const pid = "hidden-river-50598307"
	if ep := s.endpoint(pid, "ep-little-smoke-a5851426"); ep.CurrentState != "active" || ep.Host != "ep-little-smoke-a5851426.eu-central-1.aws.neon.tech" {
		t.Errorf("primary: %s at %s", ep.CurrentState, ep.Host)
	}
	if ep := s.endpoint(pid, "ep-shrill-boat-a5ez4tdt"); ep.CurrentState != "init" {
		t.Errorf("replica: %s, want init until 09:00:10", ep.CurrentState)
	}
	wantCode(t, s.patchEndpoint(pid, "ep-little-smoke-a5851426", map[string]any{"name": "x"}), 423, codeLocked)
	clock.Advance(5 * time.Second)
	wantCode(t, s.patchEndpoint(pid, "ep-little-smoke-a5851426", map[string]any{"autoscaling_limit_max_cu": 24}), 400, codeBadRequest)
	s.callAs("test", "GET", "/projects/"+pid, nil).want(t, 200) // the project-scoped key, by its hash
	s.callAs("test", "DELETE", "/projects/"+pid, nil).want(t, 403)
	var dbs api.DatabasesResponse
	s.call("GET", "/projects/"+pid+"/branches/br-small-term-a5683261/databases", nil).want(t, 200).decode(t, &dbs)
	if len(dbs.Databases) != 1 || dbs.Databases[0].Name != "reports" || dbs.Databases[0].OwnerName != "reports_owner" {
		t.Errorf("main's databases: %+v", dbs.Databases)
	}
	var ro api.EndpointOperations
	s.createEndpoint(pid, map[string]any{"branch_id": "br-small-term-a5683261", "type": "read_only"}).want(t, 201).decode(t, &ro)
	if ro.Endpoint.SuspendTimeoutSeconds != 600 {
		t.Errorf("a new compute's suspend timeout %d, want the project's default 600", ro.Endpoint.SuspendTimeoutSeconds)
	}
	// Ten minutes after its last activity, the primary has scaled to zero.
	clock.Advance(10 * time.Minute)
	if ep := s.endpoint(pid, "ep-little-smoke-a5851426"); ep.CurrentState != "idle" {
		t.Errorf("primary after 10 minutes: %s, want idle", ep.CurrentState)
	}
}

func TestBadWorldFilesAreRefusedWithTheReason(t *testing.T) {
	const user = `"users": [{"id": "u1"}]`
	project := func(extra string) string {
		return `{"format_version": 1, ` + user + `, "projects": [{"id": "p-1", "branches": [{"id": "br-1", "default": true}]` + extra + `}]}`
	}
	for _, tc := range []struct{ doc, want string }{
		{`{"format_version": 2, ` + user + `}`, "format_version is 2"},
		{`{"format_version": 1}`, `"users" is empty`},
		{`{"format_version": 1, ` + user + `, "projcts": []}`, `unknown field "projcts"`},
		{`not json`, "not a world document"},
		{`{"format_version": 1, ` + user + `, "projects": [{"id": "p-1", "branches": [{"id": "br-1"}]}]}`, "0 default branches"},
		{`{"format_version": 1, ` + user + `, "projects": [{"id": "P 1"}]}`, `project "P 1"`},
		{project(`, "region_id": "mars-1"`), `region_id "mars-1"`},
		{project(`, "owner_id": "nobody"`), `owner_id "nobody" is not a user`},
		{project(`, "tier": "gold"`), `tier "gold"`},
		{project(`, "endpoints": [{"id": "ep-1", "branch_id": "br-2", "type": "read_write"}]`), `branch_id "br-2" is not a branch`},
		{project(`, "endpoints": [{"id": "ep-1", "branch_id": "br-1", "type": "primary"}]`), `type "primary"`},
		{project(`, "endpoints": [{"id": "ep-1", "branch_id": "br-1", "type": "read_write"}, {"id": "ep-2", "branch_id": "br-1", "type": "read_write"}]`), "already has a read_write endpoint"},
		{project(`, "endpoints": [{"id": "ep-1", "branch_id": "br-1", "type": "read_only", "autoscaling_limit_min_cu": 17}]`), "17 CU is not a size"},
		{project(`, "tier": "free", "endpoints": [{"id": "ep-1", "branch_id": "br-1", "type": "read_only", "autoscaling_limit_min_cu": 4}]`), "free plan"},
		{project(`, "endpoints": [{"id": "ep-1", "branch_id": "br-1", "type": "read_only", "suspend_timeout_seconds": 5}]`), "suspend_timeout_seconds 5"},
		{project(`, "endpoints": [{"id": "ep-1", "branch_id": "br-1", "type": "read_only", "lifecycle": {"to": "running"}}]`), `lifecycle state "running"`},
		{project(`, "operations": [{"id": "o1"}, {"id": "o1"}]`), `operation "o1"`},
		{`{"format_version": 1, ` + user + `, "api_keys": [{"id": 1, "kind": "personal", "user_id": "u1", "hash": "md5:00"}]}`, "hash must be sha256:"},
		{`{"format_version": 1, ` + user + `, "api_keys": [{"id": 1, "kind": "personal", "user_id": "u1", "secret": "a", "hash": "sha256:00"}]}`, "not both"},
		{`{"format_version": 1, ` + user + `, "api_keys": [{"id": 1, "kind": "personal", "user_id": "u2", "secret": "a"}]}`, `user_id "u2" is not a user`},
		{`{"format_version": 1, ` + user + `, "api_keys": [{"id": 1, "kind": "project", "org_id": "org-x", "secret": "a"}]}`, `org_id "org-x"`},
		{`{"format_version": 1, ` + user + `, "api_keys": [{"id": 1, "kind": "admin", "secret": "a"}]}`, `kind "admin"`},
		{`{"format_version": 1, ` + user + `, "api_keys": [{"id": 1, "kind": "personal", "user_id": "u1", "secret": "a"}, {"id": 2, "kind": "personal", "user_id": "u1", "secret": "a"}]}`, "used twice"},
		{`{"format_version": 1, ` + user + `, "organizations": [{"id": "org-x", "members": [{"user_id": "u1", "role": "owner"}]}]}`, `role "owner"`},
	} {
		file := filepath.Join(t.TempDir(), "world.json")
		must(t, os.WriteFile(file, []byte(tc.doc), 0o600))
		_, err := New(Options{DataFile: file})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), file) {
			t.Errorf("world %s\n  error %v\n  want one naming the file and saying %q", tc.doc, err, tc.want)
		}
	}
}

// A world file may give two branches of a project one name, which the API
// never makes, so that a client can be shown such a project.
func TestWorldFileMayGiveTwoBranchesOneName(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	doc := `{"format_version": 1, "users": [{"id": "u1"}], "projects": [{"id": "p-1", "branches": [{"id": "br-1", "name": "main", "default": true}, {"id": "br-2", "name": "main"}]}]}`
	must(t, os.WriteFile(file, []byte(doc), 0o600))
	e, err := New(Options{DataFile: file})
	if err != nil {
		t.Fatalf("a world with two branches named main: %v", err)
	}
	if _, _, _, err := e.addBranch(e.w.project("p-1"), branchSpec{name: "main"}, e.clock.Now()); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("creating a third branch named main: %v; want the API's conflict", err)
	}
}

// Concurrent changes share writes of the data file, and each is on disk when its
// answer comes.
func TestConcurrentChangesAreAllSaved(t *testing.T) {
	file := filepath.Join(t.TempDir(), "world.json")
	s := newService(t, Options{DataFile: file, OpDelay: -1})
	const n = 24
	ids := make(chan string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var out api.ProjectCreated
			r := s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": fmt.Sprintf("p%d", i)}})
			if r.status != 201 {
				t.Errorf("create %d: %d %s", i, r.status, r.body)
				return
			}
			r.decode(t, &out)
			raw, err := os.ReadFile(file)
			if err != nil || !bytes.Contains(raw, []byte(out.Project.ID)) {
				t.Errorf("project %s answered but not in the data file (%v)", out.Project.ID, err)
			}
			ids <- out.Project.ID
		})
	}
	wg.Wait()
	close(ids)
	w, err := loadWorldFile(file, t0)
	must(t, err)
	for id := range ids {
		if w.projects[id] == nil {
			t.Errorf("project %s is missing from the data file", id)
		}
	}
}

// Temporary files of -data writes are removed on start (a process killed between
// writing and renaming one leaves it behind), and a failed write removes its own; other
// files are left alone: the data directory may hold the user's own.
func TestTemporaryFilesOfWritesDoNotStay(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "world.json")
	for _, name := range []string{".world.json.tmp-123456", ".world.json.tmp-abc", ".other.json.tmp-1", "world.json.tmp-1"} {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte("{"), 0o600))
	}
	s := newService(t, Options{DataFile: file})
	if got := dirNames(t, dir); got != ".other.json.tmp-1 world.json world.json.tmp-1" {
		t.Errorf("after start the directory holds %s; want the two temporary files of world.json gone, the others kept", got)
	}

	// A write that fails (the file became a directory, so the rename fails) answers
	// 500 and leaves no temporary file behind.
	must(t, os.Remove(file))
	must(t, os.Mkdir(file, 0o700))
	r := s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": "shop"}})
	if r.status != 500 || !strings.Contains(string(r.body), "writing") {
		t.Errorf("a change whose write fails: %d %s, want 500 saying the write failed", r.status, r.body)
	}
	if got := dirNames(t, dir); got != ".other.json.tmp-1 world.json world.json.tmp-1" {
		t.Errorf("after a failed write the directory holds %s", got)
	}
	must(t, os.Remove(file)) // let the emulator write its last state when the test ends
}

func dirNames(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	must(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

package api_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

const (
	opStart  = "0c5ab8a3-0000-4000-8000-000000000001"
	opConfig = "0c5ab8a3-0000-4000-8000-000000000002"
)

// operations serves a project's operations from a script of statuses per
// operation: each poll (the newest page, or one operation) moves every
// operation it shows one status on. polls counts the requests.
func operations(t *testing.T, script map[string][]string, errText string) (*stub, *int) {
	next := map[string]int{}
	polls := 0
	status := func(id string) string {
		steps := script[id]
		st := steps[min(next[id], len(steps)-1)]
		next[id]++
		text := ""
		if st == "failed" || st == "error" {
			text = errText
		}
		return operationJSON(id, "start_compute", st, text)
	}
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		polls++
		if strings.HasSuffix(r.URL.Path, "/operations") {
			var page []string
			for _, id := range slices.Sorted(maps.Keys(script)) {
				page = append(page, status(id))
			}
			answer(200, `{"operations":[`+strings.Join(page, ",")+`]}`)(w, r)
			return
		}
		id := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		if _, ok := script[id]; !ok {
			answer(404, generalError("OPERATION_NOT_FOUND", "no operation "+id, ""))(w, r)
			return
		}
		answer(200, `{"operation":`+status(id)+`}`)(w, r)
	})
	return s, &polls
}

func running(ids ...string) []api.Operation {
	var ops []api.Operation
	for _, id := range ids {
		ops = append(ops, api.Operation{ID: id, ProjectID: "p-1", EndpointID: "ep-one", Action: api.ActionStartCompute, Status: api.OperationRunning})
	}
	return ops
}

func TestWaitOperationsPollsUntilEveryOneIsDone(t *testing.T) {
	s, polls := operations(t, map[string][]string{
		opStart:  {"running", "running", "finished"},
		opConfig: {"scheduling", "skipped"},
	}, "")
	c, _ := newClient(t, s.api(), nil)
	sleeps := api.RecordSleeps(c)
	if err := c.WaitOperations(context.Background(), "p-1", running(opStart, opConfig)); err != nil {
		t.Fatal(err)
	}
	// One request a poll covers both: the start is running, running,
	// finished; the config scheduling, skipped.
	if *polls != 3 {
		t.Errorf("%d requests, want 3: one page of the project's operations a poll", *polls)
	}
	// Nothing finished was read yet, so each operation is expected to take
	// PollInterval (5ms), which is also the longest pause.
	want := []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond}
	if got := sleeps(); !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v", got, want)
	}
}

func TestWaitOperationsReportsAFailedOperation(t *testing.T) {
	for _, status := range []string{"failed", "error", "cancelled"} {
		s, _ := operations(t, map[string][]string{opStart: {"running", status}, opConfig: {"running"}}, "compute could not start: no capacity in region")
		c, _ := newClient(t, s.api(), nil)
		api.RecordSleeps(c)
		err := c.WaitOperations(context.Background(), "p-1", running(opStart, opConfig))
		var opErr *api.OperationFailedError
		if !errors.As(err, &opErr) || opErr.OperationID != opStart || string(opErr.Status) != status {
			t.Fatalf("%s: want *OperationFailedError for %s, got %v", status, opStart, err)
		}
		msg := err.Error()
		for _, part := range []string{"start_compute", "ep-one", "ended " + status} {
			if !strings.Contains(msg, part) {
				t.Errorf("%s: %q does not name %q", status, msg, part)
			}
		}
		if status != "cancelled" && !strings.Contains(msg, "no capacity in region") {
			t.Errorf("%s: the operation's error text is missing: %s", status, msg)
		}
	}
}

func TestWaitOperationsWithNothingRunningSendsNothing(t *testing.T) {
	s := newStub(t, answer(500, "{}"))
	c, _ := newClient(t, s.api(), nil)
	done := []api.Operation{{ID: opStart, Status: api.OperationFinished}, {ID: opConfig, Status: api.OperationSkipped}}
	if err := c.WaitOperations(context.Background(), "p-1", done); err != nil || s.hits() != 0 {
		t.Errorf("got %v after %d requests, want nil after 0", err, s.hits())
	}
	failed := []api.Operation{{ID: opStart, Status: api.OperationFailed, Error: "boom", Action: api.ActionApplyConfig}}
	if err := c.WaitOperations(context.Background(), "p-1", failed); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("an operation already failed should fail the wait: %v", err)
	}
}

func TestWaitOperationsGivesUpAfterOperationTimeout(t *testing.T) {
	s, _ := operations(t, map[string][]string{opStart: {"running"}}, "")
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.OperationTimeout = 30 * time.Millisecond })
	err := c.WaitOperations(context.Background(), "p-1", running(opStart))
	if err == nil || !strings.Contains(err.Error(), "gave up after 30ms waiting for operation "+opStart) {
		t.Fatalf("want a give-up naming the operation, got %v", err)
	}
}

func TestWaitProjectIdleWaitsForRunningOperations(t *testing.T) {
	var lists int
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		lists++
		if q := r.URL.Query(); q.Get("cursor") != "" || q.Get("limit") != "50" {
			t.Errorf("poll %d asked for %q: want the newest page only (limit=50, no cursor)", lists, r.URL.RawQuery)
		}
		status := map[bool]string{true: "running", false: "finished"}[lists < 3]
		// Like the service, a cursor to six months of older history: never followed.
		answer(200, `{"operations":[`+operationJSON(opConfig, "apply_config", "failed", "old failure")+`,`+
			operationJSON(opStart, "start_compute", status, "")+`],"pagination":{"cursor":"2025-01-01T00:00:00Z"}}`)(w, r)
	})
	c, _ := newClient(t, s.api(), nil)
	api.RecordSleeps(c)
	if err := c.WaitProjectIdle(context.Background(), "p-1"); err != nil {
		t.Fatal(err)
	}
	if lists != 3 {
		t.Errorf("listed %d times, want 3, one page a poll (running, running, finished)", lists)
	}
}

// pages serves a list of n items in pages of the asked limit. Like the
// service, it returns a cursor on the last page too.
func pages(t *testing.T, n int, item func(i int) string, wrap func(items, cursor string) string) *stub {
	return newStub(t, func(w http.ResponseWriter, r *http.Request) {
		start := 0
		fmt.Sscan(r.URL.Query().Get("cursor"), &start)
		limit := 10
		fmt.Sscan(r.URL.Query().Get("limit"), &limit)
		var items []string
		for i := start; i < min(n, start+limit); i++ {
			items = append(items, item(i))
		}
		answer(200, wrap(strings.Join(items, ","), fmt.Sprint(min(n, start+limit))))(w, r)
	})
}

func TestListsFetchEveryPageOnce(t *testing.T) {
	ctx := context.Background()
	project := func(i int) string {
		return fmt.Sprintf(`{"id":"p-%d","platform_id":"aws","region_id":"r","name":"n","provisioner":"k8s-neonvm","pg_version":17,
"proxy_host":"h","branch_logical_size_limit":0,"branch_logical_size_limit_bytes":0,"store_passwords":true,"active_time":0,
"cpu_used_sec":0,"creation_source":"console","created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z","owner_id":"o"}`, i)
	}
	s := pages(t, 23, project, func(items, cursor string) string {
		return `{"projects":[` + items + `],"pagination":{"cursor":"` + cursor + `"},"applications":{},"integrations":{}}`
	})
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.PageSize = 5 })
	got, err := c.ListProjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range got {
		seen[p.ID] = true
	}
	// 5 full pages, then the empty page the last cursor leads to.
	if len(got) != 23 || len(seen) != 23 || s.hits() != 6 {
		t.Errorf("%d projects (%d distinct) in %d requests, want 23 in 6", len(got), len(seen), s.hits())
	}

	branch := func(i int) string {
		return fmt.Sprintf(`{"id":"br-%d","project_id":"p-1","name":"b%d","current_state":"ready","state_changed_at":"2025-01-01T00:00:00Z",
"creation_source":"console","default":false,"protected":false,"cpu_used_sec":0,"active_time_seconds":0,"compute_time_seconds":0,
"written_data_bytes":0,"data_transfer_bytes":0,"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z"}`, i, i)
	}
	s = pages(t, 7, branch, func(items, cursor string) string {
		return `{"branches":[` + items + `],"annotations":{},"pagination":{"next":"` + cursor + `","sort_by":"updated_at","sort_order":"desc"}}`
	})
	c, _ = newClient(t, s.api(), func(o *api.Options) { o.PageSize = 3 })
	branches, err := c.ListBranches(ctx, "p-1")
	if err != nil || len(branches) != 7 || branches[6].ID != "br-6" {
		t.Errorf("branches: %d, %v", len(branches), err)
	}
}

func TestListStopsWhenTheCursorComesBack(t *testing.T) {
	s := newStub(t, answer(200, `{"operations":[`+operationJSON(opStart, "start_compute", "finished", "")+`],"pagination":{"cursor":"same"}}`))
	c, _ := newClient(t, s.api(), nil)
	ops, err := c.ListOperations(context.Background(), "p-1")
	if err != nil || s.hits() != 2 || len(ops) != 2 {
		t.Errorf("got %d operations in %d requests (%v); want to stop at the second page with the same cursor", len(ops), s.hits(), err)
	}
}

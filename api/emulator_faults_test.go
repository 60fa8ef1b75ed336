package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

const (
	routeEndpoints = "/projects/{project_id}/endpoints"
	routeEndpoint  = "/projects/{project_id}/endpoints/{endpoint_id}"
	routeProject   = "/projects/{project_id}"
)

var epoch = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// newProject creates a project and waits for its operations.
func newProject(t *testing.T, c *api.Client) *api.ProjectCreated {
	t.Helper()
	created, err := c.CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	must(t, err)
	must(t, c.WaitOperations(context.Background(), created.Project.ID, created.Operations))
	return created
}

func TestWrongKeyIs401WithTheServiceMessageAndNoKey(t *testing.T) {
	s := newService(t, emulator.Options{}, nil, nil)
	const wrong = "napi_thiskeyiswrongbutstillmustnotbeprinted0123456789abcdefghijkl"
	var log bytes.Buffer
	c, count := newClient(t, s.url, func(o *api.Options) { o.APIKey = wrong; o.Log = &log })
	_, err := c.ListProjects(context.Background())
	var e *api.Error
	if !errors.As(err, &e) || e.StatusCode != 401 || e.Message == "" {
		t.Fatalf("want a 401 *api.Error with the service's message, got %v", err)
	}
	text := err.Error()
	if !strings.Contains(text, "401 Unauthorized: "+e.Message) {
		t.Errorf("the error should show status and message: %s", text)
	}
	if strings.Contains(text+log.String(), wrong) || strings.Contains(text+log.String(), s.emu.APIKey()) {
		t.Errorf("a key leaked into the error or the log:\n%s\n%s", text, log.String())
	}
	if count.total() != 1 || s.emu.Stats().Total != 1 {
		t.Errorf("a 401 must not be retried: sent %d, the emulator saw %d", count.total(), s.emu.Stats().Total)
	}
}

// The emulator answers 423 while the project's operations run; the client
// waits until they are done (on the emulator's fake clock) and retries.
func TestLockedMutationIsRetriedOnceTheOperationsFinish(t *testing.T) {
	clock := emulator.NewFakeClock(epoch)
	s := newService(t, emulator.Options{Clock: clock, OpDelay: 2 * time.Second},
		func(o *api.Options) { o.PollInterval = 500 * time.Millisecond }, nil)
	c, ctx := s.client, context.Background()
	fakeTime(c, clock)

	// The project's create_timeline and start_compute still run: the create
	// is refused first with 422 "branch not ready yet".
	created, err := c.CreateProject(ctx, api.ProjectCreate{Name: "p"})
	must(t, err)
	replica, err := c.CreateEndpoint(ctx, created.Project.ID, api.EndpointCreate{BranchID: created.Branch.ID, Type: api.EndpointTypeReadOnly})
	must(t, err)
	// The replica's start_compute runs: the PATCH gets 423 first.
	_, err = c.UpdateEndpoint(ctx, created.Project.ID, replica.Endpoint.ID, api.EndpointUpdate{Name: new("reporting")})
	must(t, err)

	for _, want := range []struct {
		route  string
		status int
		n      int64
	}{
		{"POST " + routeEndpoints, 422, 1}, {"POST " + routeEndpoints, 201, 1},
		{"PATCH " + routeEndpoint, 423, 1}, {"PATCH " + routeEndpoint, 200, 1},
	} {
		if got := s.responses(want.route, want.status); got != want.n {
			t.Errorf("%s %d: %d answers, want %d", want.route, want.status, got, want.n)
		}
	}
}

// A mutation that waits out a 423 tells a WatchLocked callback how many of
// the project's operations run, then 0 when they are over: its caller can say
// what the call waits for.
func TestLockedMutationTellsWhatItWaitsFor(t *testing.T) {
	clock := emulator.NewFakeClock(epoch)
	s := newService(t, emulator.Options{Clock: clock, OpDelay: 2 * time.Second},
		func(o *api.Options) { o.PollInterval = 500 * time.Millisecond }, nil)
	c, ctx := s.client, context.Background()
	fakeTime(c, clock)
	created := newProject(t, c)
	replica, err := c.CreateEndpoint(ctx, created.Project.ID, api.EndpointCreate{BranchID: created.Branch.ID, Type: api.EndpointTypeReadOnly})
	must(t, err)

	var told []int
	watched := api.WatchLocked(ctx, func(n int) { told = append(told, n) })
	// The replica's start_compute runs: the PATCH gets 423 first.
	_, err = c.UpdateEndpoint(watched, created.Project.ID, replica.Endpoint.ID, api.EndpointUpdate{Name: new("reporting")})
	must(t, err)
	if got := s.responses("PATCH "+routeEndpoint, 423); got != 1 {
		t.Fatalf("the PATCH got %d answers 423, want 1 (the test needs one)", got)
	}
	if len(told) < 2 || told[0] != 1 || told[len(told)-1] != 0 || slices.Contains(told[:len(told)-1], 0) {
		t.Errorf("told %v: want 1 (the start_compute) at each look that found it running, then 0 once", told)
	}
}

// The emulator's own rate limit (two requests a minute for the account, on a
// fake clock) answers 429 with Retry-After; the client waits that long, so its
// retry is the only one needed. A client that waited less would be refused
// again.
func TestTooManyRequestsHonoursRetryAfter(t *testing.T) {
	clock := emulator.NewFakeClock(epoch)
	s := newService(t, emulator.Options{Clock: clock, RatePerMinute: 2, Burst: 1}, nil, nil)
	c, ctx := s.client, context.Background()
	waits := fakeTime(c, clock)

	created, err := c.CreateProject(ctx, api.ProjectCreate{Name: "p"})
	must(t, err)
	for range 2 {
		if _, err := c.GetProject(ctx, created.Project.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n429, n200 := s.responses("GET "+routeProject, 429), s.responses("GET "+routeProject, 200); n429 != 1 || n200 != 2 {
		t.Errorf("GET project: %d answers 429 and %d answers 200, want 1 and 2", n429, n200)
	}
	if w := waits(); len(w) != 1 || w[0] < 59*time.Second {
		t.Errorf("waits %v: want one of at least the Retry-After (60s)", w)
	}
}

// A create whose connection drops after the emulator processed it is
// ambiguous; the client does not send it again, and the endpoint exists.
func TestDroppedCreateIsAmbiguousNotRetriedAndHappened(t *testing.T) {
	s := newService(t, emulator.Options{}, nil, nil)
	c, ctx := s.client, context.Background()
	created := newProject(t, c)
	pid := created.Project.ID

	s.emu.SetFaults(must2(emulator.ParseFaults("drop=1")))
	_, err := c.CreateEndpoint(ctx, pid, api.EndpointCreate{BranchID: created.Branch.ID, Type: api.EndpointTypeReadOnly, Name: "once"})
	s.emu.SetFaults(emulator.Faults{})
	if !api.IsAmbiguous(err) {
		t.Fatalf("want an ambiguous error, got %v", err)
	}
	if n := s.emu.Stats().Requests["POST "+routeEndpoints]; n != 1 {
		t.Errorf("the create reached the emulator %d times, want once", n)
	}
	eps, err := c.ListEndpoints(ctx, pid)
	must(t, err)
	var named int
	for _, ep := range eps {
		if ep.Name == "once" {
			named++
		}
	}
	if named != 1 {
		t.Errorf("%d endpoints named once, want 1: the create ran although its answer was lost", named)
	}
}

func TestDroppedReadsAreRetried(t *testing.T) {
	s := newService(t, emulator.Options{RatePerMinute: -1}, func(o *api.Options) { o.MaxRetries = 3 }, nil)
	c, ctx := s.client, context.Background()
	pid := newProject(t, c).Project.ID
	api.RecordSleeps(c)

	// Every answer lost: the client sends the read 1 + MaxRetries times (Go's
	// transport may add a retry of its own on a reused connection), then
	// fails plainly: a read is never ambiguous.
	s.emu.SetFaults(must2(emulator.ParseFaults("drop=1")))
	s.emu.ResetStats()
	_, err := c.GetProject(ctx, pid)
	if err == nil || api.IsAmbiguous(err) {
		t.Fatalf("want a plain error, got %v", err)
	}
	if n := s.count.count("GET /api/v2/projects/" + pid); n != 4 {
		t.Errorf("the client sent %d GETs, want 4", n)
	}

	// Half of the answers lost: every read still succeeds.
	s.emu.SetFaults(must2(emulator.ParseFaults("drop=0.5,seed=3")))
	s.emu.ResetStats()
	for i := range 20 {
		if _, err := c.GetProject(ctx, pid); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	st := s.emu.Stats()
	if st.Faults["drop"] == 0 || st.Requests["GET "+routeProject] != 20+st.Faults["drop"] {
		t.Errorf("%d GETs with %d drops: want 20 + drops", st.Requests["GET "+routeProject], st.Faults["drop"])
	}
}

// The emulator's operations always finish; this test fails one on the way
// out of the emulator, as the service would report it.
func TestFailedOperationFailsTheWaitWithItsText(t *testing.T) {
	var failID string
	fail := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if failID == "" || !strings.HasSuffix(r.URL.Path, "/operations") {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			var out struct {
				Operations []map[string]any `json:"operations"`
				Pagination any              `json:"pagination,omitempty"`
			}
			must(t, json.Unmarshal(rec.Body.Bytes(), &out))
			for _, op := range out.Operations {
				if op["id"] == failID {
					op["status"] = "failed"
					op["error"] = "compute failed to start: out of capacity in aws-us-east-2"
				}
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(out)
		})
	}
	s := newService(t, emulator.Options{OpDelay: time.Hour}, nil, fail)
	c := s.client
	created, err := c.CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	must(t, err)
	failID = created.Operations[len(created.Operations)-1].ID
	api.RecordSleeps(c)
	err = c.WaitOperations(context.Background(), created.Project.ID, created.Operations)
	var opErr *api.OperationFailedError
	if !errors.As(err, &opErr) || opErr.OperationID != failID {
		t.Fatalf("want *OperationFailedError for %s, got %v", failID, err)
	}
	ep := created.Endpoints[0].ID
	for _, part := range []string{string(opErr.Action), ep, "out of capacity in aws-us-east-2"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("%q does not name %q", err.Error(), part)
		}
	}
}

// Count, not time: a client paced for an account of 2 requests a minute
// sends two at once and the next a minute later, so before a deadline 50
// seconds away exactly two requests reach the emulator; the other calls
// fail at once (the window frees after the deadline) instead of being sent.
func TestLimiterBoundsWhatReachesTheEmulator(t *testing.T) {
	s := newService(t, emulator.Options{}, func(o *api.Options) { o.RatePerMinute, o.Burst = 2, 40 }, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	var refused int
	for range 10 {
		if _, err := s.client.ListProjects(ctx); err != nil {
			refused++
		}
	}
	if got := s.emu.Stats().Total; got != 2 || refused != 8 {
		t.Errorf("%d requests reached the emulator and %d calls were refused, want 2 and 8", got, refused)
	}
}

func TestPagesOfTheEmulatorAreFetchedWithoutDuplicates(t *testing.T) {
	s := newService(t, emulator.Options{}, func(o *api.Options) { o.PageSize = 3 }, nil)
	c, ctx := s.client, context.Background()
	var pid string
	for i := range 11 {
		created, err := c.CreateProject(ctx, api.ProjectCreate{Name: fmt.Sprintf("p%d", i)})
		must(t, err)
		pid = created.Project.ID
	}
	for i := range 7 {
		_, err := c.CreateBranch(ctx, pid, api.BranchCreateRequest{Branch: &api.BranchCreate{Name: fmt.Sprintf("b%d", i)}})
		must(t, err)
		must(t, c.WaitProjectIdle(ctx, pid))
	}
	projects, err := c.ListProjects(ctx)
	must(t, err)
	branches, err := c.ListBranches(ctx, pid)
	must(t, err)
	ops, err := c.ListOperations(ctx, pid)
	must(t, err)
	count := func(ids []string) (all, distinct int) {
		seen := map[string]bool{}
		for _, id := range ids {
			seen[id] = true
		}
		return len(ids), len(seen)
	}
	for _, tc := range []struct {
		name string
		ids  []string
		want int
	}{
		{"projects", ids(projects, func(p api.ProjectListItem) string { return p.ID }), 11},
		{"branches", ids(branches, func(b api.Branch) string { return b.ID }), 8},
		{"operations", ids(ops, func(o api.Operation) string { return o.ID }), len(ops)},
	} {
		if all, distinct := count(tc.ids); all != tc.want || distinct != all {
			t.Errorf("%s: %d listed, %d distinct, want %d", tc.name, all, distinct, tc.want)
		}
	}
	if len(ops) < 9 {
		t.Errorf("the project should have at least 9 operations over several pages, listed %d", len(ops))
	}
}

func ids[T any](items []T, id func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

func must2[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The error of a refused call reads as the issue asks: method, path, status and
// the service's own message, with the request id to find it in the service's logs.
func TestLockedErrorNamesTheCallStatusAndTheServiceMessage(t *testing.T) {
	s := newService(t, emulator.Options{OpDelay: time.Hour}, func(o *api.Options) { o.MaxRetries = -1 }, nil)
	created, err := s.client.CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	must(t, err)
	pid, ep := created.Project.ID, created.Endpoints[0].ID
	_, err = s.client.UpdateEndpoint(context.Background(), pid, ep, api.EndpointUpdate{Name: new("x")})
	want := "PATCH /projects/" + pid + "/endpoints/" + ep +
		": 423 Locked: project already has running conflicting operations, scheduling of new ones is prohibited (request id "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v\nwant it to start %q", err, want)
	}
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || apiErr.Code != "RUNNING_OPERATIONS" || apiErr.RequestID == "" || api.IsAmbiguous(err) {
		t.Errorf("want an *api.Error with the service's code and request id, not ambiguous: %#v", err)
	}
}

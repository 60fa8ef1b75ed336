package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// service is the emulator over loopback with a client of its console key.
type service struct {
	emu    *emulator.Emulator
	url    string
	client *api.Client
	count  *counter
}

// newService starts an emulator with eo and a client of its key with tune.
// wrap, when set, sits between the network and the emulator.
func newService(t *testing.T, eo emulator.Options, tune func(*api.Options), wrap func(http.Handler) http.Handler) *service {
	t.Helper()
	if eo.APIKey == "" {
		eo.APIKey = testKey
	}
	e, err := emulator.New(eo)
	if err != nil {
		t.Fatalf("emulator.New: %v", err)
	}
	var h http.Handler = e.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	s := &service{emu: e, url: ts.URL + "/api/v2"}
	s.client, s.count = newCheckedClient(t, s.url, func(o *api.Options) {
		o.APIKey = e.APIKey()
		if tune != nil {
			tune(o)
		}
	}, true)
	return s
}

// responses is how many answers of route ("METHOD /template") had status.
func (s *service) responses(route string, status int) int64 {
	return s.emu.Stats().Responses[route+" "+strconv.Itoa(status)]
}

// fakeTime makes the client's waits move the emulator's fake clock instead
// of sleeping, so operations finish and rate limits refill on the client's
// own schedule, and returns the waits it was asked for.
func fakeTime(c *api.Client, clock *emulator.FakeClock) func() []time.Duration {
	var waits []time.Duration
	api.SetSleep(c, func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		clock.Advance(d)
		return ctx.Err()
	})
	return func() []time.Duration { return waits }
}

// TestEveryCallAgainstTheEmulator walks a compute's life with every call of
// the client; every request is also checked against the OpenAPI description.
func TestEveryCallAgainstTheEmulator(t *testing.T) {
	s := newService(t, emulator.Options{OpDelay: 5 * time.Millisecond}, nil, nil)
	c, ctx := s.client, context.Background()

	created, err := c.CreateProject(ctx, api.ProjectCreate{Name: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	pid := created.Project.ID
	if len(created.Endpoints) != 1 || created.Endpoints[0].Type != api.EndpointTypeReadWrite || !created.Branch.Default {
		t.Fatalf("a new project should come with a default branch and its primary: %+v", created)
	}
	primary := created.Endpoints[0]
	must(t, c.WaitOperations(ctx, pid, created.Operations))

	project, err := c.GetProject(ctx, pid)
	must(t, err)
	projects, err := c.ListProjects(ctx)
	must(t, err)
	if project.Name != "shop" || !slices.ContainsFunc(projects, func(p api.ProjectListItem) bool { return p.ID == pid }) {
		t.Errorf("project %s (%q) not found in the list of %d", pid, project.Name, len(projects))
	}

	branches, err := c.ListBranches(ctx, pid)
	must(t, err)
	if len(branches) != 1 || branches[0].ID != created.Branch.ID {
		t.Fatalf("branches of a new project: %+v", branches)
	}
	main, err := c.GetBranch(ctx, pid, created.Branch.ID)
	must(t, err)
	onMain, err := c.ListBranchEndpoints(ctx, pid, main.ID)
	must(t, err)
	if len(onMain) != 1 || onMain[0].ID != primary.ID {
		t.Fatalf("the default branch should have the primary %s only: %+v", primary.ID, onMain)
	}

	replica, err := c.CreateEndpoint(ctx, pid, api.EndpointCreate{BranchID: main.ID, Type: api.EndpointTypeReadOnly, Name: "reporting"})
	must(t, err)
	if replica.Endpoint.CurrentState != api.EndpointStateInit || len(replica.Operations) == 0 {
		t.Errorf("a new replica should be init with a start operation: %+v", replica)
	}
	must(t, c.WaitOperations(ctx, pid, replica.Operations))
	id := replica.Endpoint.ID

	patched, err := c.UpdateEndpoint(ctx, pid, id, api.EndpointUpdate{
		AutoscalingLimitMinCU: new(0.5), AutoscalingLimitMaxCU: new(2.0), SuspendTimeoutSeconds: new(int64(600))})
	must(t, err)
	must(t, c.WaitOperations(ctx, pid, patched.Operations))
	got, err := c.GetEndpoint(ctx, pid, id)
	must(t, err)
	if got.AutoscalingLimitMinCU != 0.5 || got.AutoscalingLimitMaxCU != 2 || got.SuspendTimeoutSeconds != 600 {
		t.Errorf("after the PATCH: min %v max %v suspend %v", got.AutoscalingLimitMinCU, got.AutoscalingLimitMaxCU, got.SuspendTimeoutSeconds)
	}

	// Postgres settings are set whole, and an empty map clears them: the
	// client sends "pg_settings": {}, never leaves it out.
	set, err := c.UpdateEndpoint(ctx, pid, id, api.EndpointUpdate{Settings: &api.SettingsRequest{PgSettings: map[string]string{"work_mem": "64MB"}}})
	must(t, err)
	must(t, c.WaitOperations(ctx, pid, set.Operations))
	if got, _ := c.GetEndpoint(ctx, pid, id); got == nil || got.Settings.PgSettings["work_mem"] != "64MB" {
		t.Errorf("after setting work_mem: %+v", got)
	}
	cleared, err := c.UpdateEndpoint(ctx, pid, id, api.EndpointUpdate{Settings: &api.SettingsRequest{PgSettings: map[string]string{}}})
	must(t, err)
	must(t, c.WaitOperations(ctx, pid, cleared.Operations))
	if got, _ := c.GetEndpoint(ctx, pid, id); got == nil || len(got.Settings.PgSettings) != 0 {
		t.Errorf("after clearing the settings: %+v", got)
	}

	var waited []api.Operation
	for _, step := range []func(context.Context, string, string) (*api.EndpointOperations, error){
		c.StartEndpoint, c.RestartEndpoint, c.SuspendEndpoint, c.StartEndpoint,
	} {
		out, err := step(ctx, pid, id)
		must(t, err)
		must(t, c.WaitOperations(ctx, pid, out.Operations))
		waited = append(waited, out.Operations...)
	}

	child, err := c.CreateBranch(ctx, pid, api.BranchCreateRequest{Branch: &api.BranchCreate{Name: "dev", ParentID: main.ID}})
	must(t, err)
	must(t, c.WaitOperations(ctx, pid, child.Operations))

	ops, err := c.ListOperations(ctx, pid)
	must(t, err)
	for _, w := range waited {
		i := slices.IndexFunc(ops, func(o api.Operation) bool { return o.ID == w.ID })
		if i < 0 || ops[i].Status != api.OperationFinished {
			t.Errorf("operation %s (%s) waited for is not listed as finished", w.ID, w.Action)
		}
	}
	one, err := c.GetOperation(ctx, pid, waited[0].ID)
	must(t, err)
	if one.Status != api.OperationFinished || one.EndpointID != id {
		t.Errorf("GetOperation: %+v", one)
	}
	all, err := c.ListEndpoints(ctx, pid)
	must(t, err)
	if len(all) != 2 {
		t.Errorf("the project should have its primary and the replica, has %d computes", len(all))
	}

	deleted, err := c.DeleteEndpoint(ctx, pid, id)
	if err != nil || deleted == nil || deleted.Endpoint.ID != id {
		t.Fatalf("first delete: (%v, %v)", deleted, err)
	}
	must(t, c.WaitOperations(ctx, pid, deleted.Operations))
	again, err := c.DeleteEndpoint(ctx, pid, id)
	if again != nil || err != nil {
		t.Errorf("second delete of the same endpoint: got (%v, %v), want (nil, nil)", again, err)
	}
	if _, err := c.GetEndpoint(ctx, pid, id); !api.IsNotFound(err) {
		t.Errorf("the deleted endpoint should be 404, got %v", err)
	}
}

func TestAPIKeysAgainstTheEmulator(t *testing.T) {
	s := newService(t, emulator.Options{}, nil, nil)
	ctx := context.Background()
	made, err := s.client.CreateAPIKey(ctx, "ci")
	must(t, err)
	keys, err := s.client.ListAPIKeys(ctx)
	must(t, err)
	if !slices.ContainsFunc(keys, func(k api.ApiKeysListResponseItem) bool { return k.ID == made.ID && k.Name == "ci" }) {
		t.Fatalf("key %d not in the list %+v", made.ID, keys)
	}
	ci, _ := newClient(t, s.url, func(o *api.Options) { o.APIKey = made.Key })
	if _, err := ci.ListProjects(ctx); err != nil {
		t.Fatalf("the new key does not work: %v", err)
	}
	revoked, err := s.client.RevokeAPIKey(ctx, made.ID)
	if err != nil || !revoked.Revoked {
		t.Fatalf("revoke: (%+v, %v)", revoked, err)
	}
	_, err = ci.ListProjects(ctx)
	if api.StatusOf(err) != http.StatusUnauthorized {
		t.Errorf("a revoked key should get 401, got %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

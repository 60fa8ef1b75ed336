package api_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/emulator"
)

// The summaries of a project's endpoints are what a plan reads of the whole
// endpoints of the same list: their ids, states and every managed value,
// Postgres settings, names, sizes and suspend timeouts included.
func TestEndpointSummariesAreWhatAPlanReads(t *testing.T) {
	s := newService(t, emulator.Options{RatePerMinute: -1}, nil, nil)
	c, ctx := s.client, context.Background()
	created := newProject(t, c)
	pid := created.Project.ID
	minCU, maxCU, suspend := 0.5, 2.0, int64(600)
	ops, err := c.CreateEndpoint(ctx, pid, api.EndpointCreate{BranchID: created.Branch.ID, Type: api.EndpointTypeReadOnly, Name: "reports",
		Settings:              &api.SettingsRequest{PgSettings: map[string]string{"work_mem": "64MB", "statement_timeout": "30s"}},
		AutoscalingLimitMinCU: &minCU, AutoscalingLimitMaxCU: &maxCU, SuspendTimeoutSeconds: &suspend})
	must(t, err)
	must(t, c.WaitOperations(ctx, pid, ops.Operations))

	full := must2(c.ListEndpoints(ctx, pid))
	summaries := must2(c.ListEndpointSummaries(ctx, pid))
	if len(full) != 2 || len(summaries) != len(full) {
		t.Fatalf("%d endpoints and %d summaries, want 2 of each", len(full), len(summaries))
	}
	var sawSettings bool
	for i := range full {
		ep := summaries[i].Endpoint()
		if d := cmp.Diff(diff.RecordLive(full[i:i+1]), diff.RecordLive([]api.Endpoint{ep})); d != "" {
			t.Errorf("endpoint %s as a plan records it (-list +summary):\n%s", full[i].ID, d)
		}
		sawSettings = sawSettings || len(ep.Settings.PgSettings) == 2
	}
	if !sawSettings {
		t.Errorf("no summary has the replica's settings: %+v", summaries)
	}
}

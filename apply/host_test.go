package apply

import (
	"context"
	"testing"
)

// The state records each endpoint's host, as the service reports it, for
// people (state show): after a create, an update and an adoption alike.
func TestStateRecordsTheHosts(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(oneReplica) // adopts and updates the primary, creates the replica
	st, err := w.state.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	hosts := map[string]string{}
	for _, ep := range w.endpoints(shop) {
		hosts[ep.ID] = ep.Host
	}
	if len(st.Computes) != 2 {
		t.Fatalf("the state records %d computes, want 2", len(st.Computes))
	}
	for addr, c := range st.Computes {
		if c.Host == "" || c.Host != hosts[c.EndpointID] {
			t.Errorf("%s: the state records host %q, the service says %q", addr, c.Host, hosts[c.EndpointID])
		}
	}
}

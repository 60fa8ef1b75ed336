package fetch

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/internal/difftest"
	"github.com/neonform/neonform/diff/internal/plantest"
)

// Live reads the projects the scope reads: a target's; for a destroy, the
// state's, even one no block names, and no branches.
func TestFetchScope(t *testing.T) {
	cfg := difftest.CfgOf(
		difftest.Project("shop", "p-shop", difftest.BranchNamed("main", "main", difftest.Compute("primary"))),
		difftest.Project("books", "p-books", difftest.BranchID("main", "br-books", difftest.Compute("primary"))),
	)
	st := plantest.StateWith("p-gone", map[string]api.Endpoint{"old.main.primary": difftest.Endpoint("ep-old", "br-x", difftest.RW)})
	for _, tc := range []struct {
		scope diff.Scope
		want  []string
	}{
		{diff.Scope{Targets: []string{"books.main"}}, []string{"endpoints p-books"}},
		{diff.Scope{Targets: []string{"shop", "books.main.primary"}}, []string{"branches p-shop", "endpoints p-books", "endpoints p-shop"}},
		{diff.Scope{Destroy: true}, []string{"endpoints p-gone"}},
	} {
		r := &fakeReader{branches: map[string][]api.Branch{"p-shop": {{ID: "br-main", Name: "main"}}}}
		live, diags := Live(context.Background(), r, cfg, st, Options{Parallelism: 2, Scope: tc.scope})
		if diags.HasErrors() {
			t.Fatal(diags.String())
		}
		var got []string
		for call := range r.calls {
			got = append(got, call)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%+v: calls %v, want %v", tc.scope, got, tc.want)
		}
		if len(live.Projects) != len(tc.want) && !strings.HasPrefix(tc.want[0], "branches") {
			t.Errorf("%+v: %d projects read", tc.scope, len(live.Projects))
		}
	}
}

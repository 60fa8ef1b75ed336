package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

// An endpoint id from a lying server that would reach another path is
// refused as the service's mistake, naming the call and the value, escaped;
// never "a bug in neonform".
func TestAnInvalidIDFromTheServiceIsTheServicesMistake(t *testing.T) {
	for _, id := range []string{"ep-x/../../../projects/victim", "ep-x\x1b[2K", "", "ep-" + strings.Repeat("a", 60)} {
		list := `{"endpoints":[` + endpointJSON("ep-fine") + `,` + strings.Replace(endpointJSON("ep-two"), `"id":"ep-two"`, `"id":`+quoted(id), 1) + `]}`
		s := newStub(t, answer(200, list))
		c, _ := newClient(t, s.api(), nil)
		calls := map[string]func() error{
			"summaries": func() error { _, err := c.ListEndpointSummaries(context.Background(), "p-1"); return err },
			"endpoints": func() error { _, err := c.ListEndpoints(context.Background(), "p-1"); return err },
		}
		for name, call := range calls {
			err := call()
			var bad *api.InvalidIDError
			if !errors.As(err, &bad) {
				t.Fatalf("%s with endpoint id %q: got %v, want an InvalidIDError", name, id, err)
			}
			msg := err.Error()
			if strings.ContainsAny(msg, "\x1b\n") {
				t.Errorf("%s: the id is not shown escaped: %q", name, msg)
			}
			if !strings.HasPrefix(msg, "GET /projects/p-1/endpoints: the service sent an invalid endpoint id ") || strings.Contains(msg, "bug") {
				t.Errorf("%s: the error does not name the call and the service's mistake: %s", name, msg)
			}
		}
	}
	one := strings.Replace(endpointJSON("ep-one"), `"branch_id":"br-1"`, `"branch_id":"br-1/../x"`, 1)
	s := newStub(t, answer(200, `{"endpoint":`+one+`}`))
	c, _ := newClient(t, s.api(), nil)
	if _, err := c.GetEndpoint(context.Background(), "p-1", "ep-one"); err == nil || !strings.Contains(err.Error(), `invalid branch id "br-1/../x"`) {
		t.Errorf("a branch id holding a path: got %v", err)
	}
}

package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff/internal/difftest"
)

// Failures that are about the service, not one project, are said once,
// naming every project they stopped, and not at any project's block.
func TestFetchSaysServiceWideFailuresOnce(t *testing.T) {
	const other = "cold-lake-12345678"
	cfg := difftest.CfgOf(difftest.Project("shop", difftest.Proj, difftest.BranchID("main", difftest.BrMain)), difftest.Project("warehouse", other, difftest.BranchID("main", "br-x")))

	refused := func(id string) error {
		return &api.Error{StatusCode: http.StatusUnauthorized, Message: "invalid API key", Method: "GET", Path: "/projects/" + id + "/endpoints"}
	}
	f := &fakeReader{errs: map[string]error{difftest.Proj: refused(difftest.Proj), other: refused(other)}}
	_, diags := Live(context.Background(), f, cfg, nil, Options{Parallelism: 2})
	if len(diags) != 1 || diags[0].Summary != "API key refused" || diags[0].Range != nil {
		t.Fatalf("a refused key: %v, want one \"API key refused\" about no block", diags)
	}
	if d := diags[0].Detail; !strings.Contains(d, "so 2 projects (shop, warehouse) could not be read: set NEON_API_KEY to a valid key") {
		t.Errorf("detail: %s", d)
	}

	// An API URL without /api/v2: every path is answered 404.
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, err := api.New(api.Options{BaseURL: srv.URL, APIKey: "napi_x", RatePerMinute: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, diags = Live(context.Background(), c, cfg, nil, Options{Parallelism: 2})
	if len(diags) != 1 || diags[0].Summary != "Wrong API URL" {
		t.Fatalf("an API URL without /api/v2: %v, want one \"Wrong API URL\"", diags)
	}
	if d := diags[0].Detail; !strings.Contains(d, "The API URL "+srv.URL+" does not end in /api/v2, where the service's API is: did you mean "+srv.URL+"/api/v2?") {
		t.Errorf("detail: %s", d)
	}

	// Nothing listens: the error names the URL it tried.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/api/v2"
	ln.Close()
	c, err = api.New(api.Options{BaseURL: closed, APIKey: "napi_x", RatePerMinute: -1, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, diags = Live(context.Background(), c, cfg, nil, Options{Parallelism: 2})
	if len(diags) != 1 || diags[0].Summary != "No answer from the service" {
		t.Fatalf("a refused connection: %v, want one \"No answer from the service\"", diags)
	}
	if d := diags[0].Detail; !strings.Contains(d, "no answer from the service at "+closed+": ") || !strings.Contains(d, "2 projects (shop, warehouse)") {
		t.Errorf("detail: %s", d)
	}
}

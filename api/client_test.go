package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
)

func TestNewRefusesPlainHTTPExceptToLoopback(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"", true}, // the public API
		{"https://console.neon.tech/api/v2", true},
		{"https://console.neon.tech/api/v2/", true},
		{"http://127.0.0.1:8080/api/v2", true},
		{"http://127.0.0.9:8080/api/v2", true},
		{"http://localhost:8080/api/v2", true},
		{"http://[::1]:8080/api/v2", true},
		{"http://console.neon.tech/api/v2", false},
		{"http://10.0.0.1/api/v2", false},
		{"http://localhost.example.com/api/v2", false},
		{"ftp://console.neon.tech/api/v2", false},
		{"console.neon.tech/api/v2", false},
		{"https://user:secret@console.neon.tech/api/v2", false},
		{"https://console.neon.tech/api/v2?x=1", false},
	} {
		c, err := api.New(api.Options{BaseURL: tc.url, APIKey: testKey})
		if tc.ok && err != nil {
			t.Errorf("New(%q): %v", tc.url, err)
		}
		if !tc.ok && err == nil {
			t.Errorf("New(%q) accepted a URL it must refuse (base %s)", tc.url, c.BaseURL())
		}
		if err != nil && strings.Contains(err.Error(), testKey) {
			t.Errorf("New(%q) error shows the key", tc.url)
		}
	}
	_, err := api.New(api.Options{BaseURL: "http://console.neon.tech/api/v2", APIKey: testKey})
	if err == nil || !strings.Contains(err.Error(), "https://") {
		t.Errorf("refusing http:// should say to use https://, got %v", err)
	}
}

func TestNewRefusesMissingOrMangledKey(t *testing.T) {
	if _, err := api.New(api.Options{}); err == nil || !strings.Contains(err.Error(), "NEON_API_KEY") {
		t.Errorf("no key: want an error naming NEON_API_KEY, got %v", err)
	}
	for _, key := range []string{testKey + "\n", " " + testKey, "napi_a b"} {
		_, err := api.New(api.Options{APIKey: key})
		if err == nil {
			t.Errorf("key %q was accepted", key)
			continue
		}
		if strings.Contains(err.Error(), strings.TrimSpace(key)) {
			t.Errorf("the error for a mangled key shows the key: %v", err)
		}
	}
}

func TestTrailingSlashOfBaseURLIsIgnored(t *testing.T) {
	s := newStub(t, answer(200, `{"endpoint":`+endpointJSON("ep-one")+`}`))
	c, _ := newClient(t, s.api()+"/", nil)
	if _, err := c.GetEndpoint(context.Background(), "p-1", "ep-one"); err != nil {
		t.Fatal(err)
	}
	if got := s.requests()[0].path; got != "/api/v2/projects/p-1/endpoints/ep-one" {
		t.Errorf("path = %s", got)
	}
}

// The key must not come out of anything that prints options or the client.
func TestKeyIsNeverPrinted(t *testing.T) {
	opts := api.Options{BaseURL: "https://console.neon.tech/api/v2", APIKey: testKey, UserAgent: "neonform/test"}
	c, err := api.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	type holder struct {
		Opts   api.Options
		Ptr    *api.Options
		Client *api.Client
		hidden *api.Client // unexported: fmt prints its fields raw
	}
	h := holder{opts, &opts, c, c}
	var out bytes.Buffer
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		fmt.Fprintf(&out, verb+"\n", opts)
		fmt.Fprintf(&out, verb+"\n", &opts)
		fmt.Fprintf(&out, verb+"\n", c)
		fmt.Fprintf(&out, verb+"\n", h)
		fmt.Fprintf(&out, verb+"\n", []any{opts, c})
	}
	js, err := json.Marshal(h.Opts)
	if err != nil {
		t.Fatal(err)
	}
	out.Write(js)
	if strings.Contains(out.String(), testKey) || strings.Contains(out.String(), fmt.Sprintf("%x", testKey)) {
		t.Fatalf("the key was printed:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "console.neon.tech") {
		t.Errorf("the redacted forms should still show the URL:\n%s", out.String())
	}
}

func TestRequestsCarryKeyAndJSONHeaders(t *testing.T) {
	ops := `{"endpoint":` + endpointJSON("ep-one") + `,"operations":[]}`
	s := newStub(t, answer(201, ops), answer(200, ops))
	c, _ := newClient(t, s.api(), nil)
	ctx := context.Background()
	if _, err := c.CreateEndpoint(ctx, "p-1", api.EndpointCreate{BranchID: "br-1", Type: api.EndpointTypeReadOnly}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.RestartEndpoint(ctx, "p-1", "ep-one"); err != nil {
		t.Fatal(err)
	}
	got := s.requests()
	for _, r := range got {
		if r.header.Get("Authorization") != "Bearer "+testKey {
			t.Errorf("%s %s: Authorization = %q", r.method, r.path, r.header.Get("Authorization"))
		}
		if r.header.Get("Accept") != "application/json" || r.header.Get("User-Agent") != "neonform/test" {
			t.Errorf("%s %s: Accept %q, User-Agent %q", r.method, r.path, r.header.Get("Accept"), r.header.Get("User-Agent"))
		}
	}
	if ct := got[0].header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("POST with a body: Content-Type = %q", ct)
	}
	if got[0].body != `{"endpoint":{"branch_id":"br-1","type":"read_only"}}` {
		t.Errorf("create body = %s", got[0].body)
	}
	if got[1].path != "/api/v2/projects/p-1/endpoints/ep-one/restart" || got[1].body != "" {
		t.Errorf("restart sent %s with body %q", got[1].path, got[1].body)
	}
}

func TestBadIDsAndPathsAreRefusedBeforeSending(t *testing.T) {
	s := newStub(t, answer(200, `{}`))
	c, _ := newClient(t, s.api(), nil)
	ctx := context.Background()
	if _, err := c.GetEndpoint(ctx, "p-1", "../../api_keys"); err == nil || !strings.Contains(err.Error(), "not a valid endpoint id") {
		t.Errorf("bad endpoint id: %v", err)
	}
	if _, err := c.ListEndpoints(ctx, ""); err == nil || !strings.Contains(err.Error(), "project id is empty") {
		t.Errorf("empty project id: %v", err)
	}
	if err := c.Do(ctx, http.MethodGet, "https://elsewhere.example/steal", nil, nil); err == nil {
		t.Error("Do sent a request to an absolute URL")
	}
	if err := c.Do(ctx, http.MethodGet, "//elsewhere.example/steal", nil, nil); err == nil {
		t.Error("Do sent a request to a scheme-relative URL")
	}
	if s.hits() != 0 {
		t.Errorf("%d requests reached the server", s.hits())
	}
}

func TestLogHasOneLinePerAttemptAndNoKey(t *testing.T) {
	s := newStub(t, answer(503, generalError("SERVICE_UNAVAILABLE", "try later", "")), answer(401, generalError("UNAUTHORIZED", "bad key", "")))
	var log bytes.Buffer
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.Log = &log })
	api.RecordSleeps(c)
	_, err := c.ListEndpoints(context.Background(), "p-1")
	if api.StatusOf(err) != 401 {
		t.Fatalf("want the 401, got %v", err)
	}
	want := []string{"GET /projects/p-1/endpoints 503 ", "GET /projects/p-1/endpoints 401 "}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("log lines:\n%s", log.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], w)
		}
	}
	if strings.Contains(log.String()+err.Error(), testKey) {
		t.Error("the key reached the log or the error")
	}
}

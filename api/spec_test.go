package api_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The spec is the part of the service's OpenAPI description that neonform
// uses, verbatim (docs/service.md says where it comes from); it is the one
// copy in the repository: the emulator's tests read it from here too.
const specFile = "testdata/neon-openapi-v2-computes.json"

var spec = sync.OnceValues(func() (routers.Router, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(specFile)
	if err != nil {
		return nil, err
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, err
	}
	return gorillamux.NewRouter(doc)
})

// specCheck wraps next with a check of every request under /api/v2 against
// the OpenAPI description, so the client and the spec cannot drift apart.
// A request the spec refuses fails the test; it is still sent, so the test
// goes on to show what the server makes of it.
func specCheck(t *testing.T, next http.RoundTripper) http.RoundTripper {
	router, err := spec()
	if err != nil {
		t.Fatalf("loading %s: %v", specFile, err)
	}
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		if strings.HasPrefix(req.URL.Path, "/api/v2/") {
			if err := validateRequest(router, req); err != nil {
				t.Errorf("request %s %s does not match the OpenAPI description: %v", req.Method, req.URL.RequestURI(), err)
			}
		}
		return next.RoundTrip(req)
	})
}

// answerCheck wraps next with a check of every answer under /api/v2 against the
// OpenAPI description: used with the emulator, whose answers must all match it,
// errors included (as GeneralError).
func answerCheck(t *testing.T, next http.RoundTripper) http.RoundTripper {
	router, err := spec()
	if err != nil {
		t.Fatalf("loading %s: %v", specFile, err)
	}
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err != nil || !strings.HasPrefix(req.URL.Path, "/api/v2/") {
			return resp, err
		}
		body, readErr := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if readErr != nil {
			return resp, nil // the client sees the same cut-short body
		}
		if err := validateResponse(router, req, resp, body); err != nil {
			t.Errorf("answer to %s %s (%d) does not match the OpenAPI description: %v\n%s", req.Method, req.URL.RequestURI(), resp.StatusCode, err, body)
		}
		return resp, nil
	})
}

func validateResponse(router routers.Router, req *http.Request, resp *http.Response, body []byte) error {
	probe := req.Clone(context.Background())
	probe.URL.Scheme, probe.URL.Host, probe.Host = "https", "console.neon.tech", "console.neon.tech"
	probe.Body = http.NoBody
	route, params, err := router.FindRoute(probe)
	if err != nil {
		return err
	}
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status:  resp.StatusCode,
		Header:  resp.Header,
		Body:    io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func validateRequest(router routers.Router, req *http.Request) error {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return err
		}
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	// The spec's server is the public one; the route is the same under any host.
	probe := req.Clone(context.Background())
	probe.URL.Scheme, probe.URL.Host, probe.Host = "https", "console.neon.tech", "console.neon.tech"
	probe.Body = io.NopCloser(bytes.NewReader(body))
	route, params, err := router.FindRoute(probe)
	if err != nil {
		return err
	}
	return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request:    probe,
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			MultiError: true,
			AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
				if in.SecuritySchemeName != "BearerAuth" {
					return errors.New("only bearer keys are used")
				}
				if !strings.HasPrefix(in.RequestValidationInput.Request.Header.Get("Authorization"), "Bearer ") {
					return errors.New("no Authorization: Bearer header")
				}
				return nil
			},
		},
	})
}

// TestSpecCheckCatchesBadRequests shows the check is not a rubber stamp: it
// refuses what the spec does not allow.
func TestSpecCheckCatchesBadRequests(t *testing.T) {
	router, err := spec()
	if err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name, method, path, body string
		auth                     bool
	}{
		{"no key", "GET", "/api/v2/projects", "", false},
		{"limit over the maximum", "GET", "/api/v2/projects?limit=401", "", true},
		{"create without type", "POST", "/api/v2/projects/p-1/endpoints", `{"endpoint":{"branch_id":"br-1"}}`, true},
		{"update with a bad size", "PATCH", "/api/v2/projects/p-1/endpoints/ep-1", `{"endpoint":{"autoscaling_limit_min_cu":0.1}}`, true},
		{"unknown path", "GET", "/api/v2/nothing", "", true},
	}
	for _, tc := range bad {
		req, _ := http.NewRequest(tc.method, "http://127.0.0.1/"+strings.TrimPrefix(tc.path, "/"), strings.NewReader(tc.body))
		if tc.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if tc.auth {
			req.Header.Set("Authorization", "Bearer x")
		}
		if err := validateRequest(router, req); err == nil {
			t.Errorf("%s: %s %s passed the spec check", tc.name, tc.method, tc.path)
		}
	}
	good, _ := http.NewRequest("PATCH", "http://127.0.0.1/api/v2/projects/p-1/endpoints/ep-1",
		strings.NewReader(`{"endpoint":{"autoscaling_limit_max_cu":2}}`))
	good.Header.Set("Content-Type", "application/json")
	good.Header.Set("Authorization", "Bearer x")
	if err := validateRequest(router, good); err != nil {
		t.Errorf("a valid PATCH failed the spec check: %v", err)
	}
}

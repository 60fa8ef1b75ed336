package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/neonform/neonform/api"
)

// The specs are verbatim extracts of the service's OpenAPI description, kept in the
// repository so the tests need nothing outside it: specFile is the one copy of the
// part neonform manages (package api's tests read it too), sandboxSpecFile
// the paths served so that the official CLI works beside it (current user, shared
// projects, roles, databases, connection URI), taken from neon-openapi-v2.json with
// every component they reference that specFile does not hold (its info.x-note says
// so; loadSpec adds specFile's).
const (
	specFile        = "../api/testdata/neon-openapi-v2-computes.json"
	sandboxSpecFile = "testdata/neon-openapi-v2-sandbox.json"
)

// specHost is the spec's server; requests are matched against it whatever port the
// test server got.
const specHost = "console.neon.tech"

// specs are the routers of both descriptions, tried in order: the sandbox paths first,
// because /projects/shared would otherwise match /projects/{project_id}.
var specs = sync.OnceValues(func() ([]routers.Router, error) {
	// Formats the spec uses that kin-openapi does not check by default.
	openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC4122))
	openapi3.DefineStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail))
	var out []routers.Router
	for _, file := range []string{sandboxSpecFile, specFile} {
		loader := openapi3.NewLoader()
		doc, err := loadSpec(loader, file)
		if err != nil {
			return nil, fmt.Errorf("loading %s: %v", file, err)
		}
		if err := doc.Validate(loader.Context); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		out = append(out, router)
	}
	return out, nil
})

// loadSpec loads one of the specs. The sandbox extract leaves out the
// components it shares with specFile (schemas, parameters, responses,
// security schemes: written once, there), so it is loaded with specFile's
// components added where it has none of the name.
func loadSpec(loader *openapi3.Loader, file string) (*openapi3.T, error) {
	if file != sandboxSpecFile {
		return loader.LoadFromFile(file)
	}
	var sandbox, computes map[string]json.RawMessage
	var own, shared map[string]map[string]json.RawMessage
	for _, r := range []struct {
		file      string
		doc       *map[string]json.RawMessage
		component *map[string]map[string]json.RawMessage
	}{{sandboxSpecFile, &sandbox, &own}, {specFile, &computes, &shared}} {
		data, err := os.ReadFile(r.file)
		if err == nil {
			err = json.Unmarshal(data, r.doc)
		}
		if err == nil {
			err = json.Unmarshal((*r.doc)["components"], r.component)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.file, err)
		}
	}
	for kind, cs := range shared {
		if own[kind] == nil {
			own[kind] = map[string]json.RawMessage{}
		}
		for name, c := range cs {
			if _, ok := own[kind][name]; !ok {
				own[kind][name] = c
			}
		}
	}
	components, err := json.Marshal(own)
	if err != nil {
		return nil, err
	}
	sandbox["components"] = components
	data, err := json.Marshal(sandbox)
	if err != nil {
		return nil, err
	}
	return loader.LoadFromData(data)
}

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// service is an emulator on a FakeClock behind a real HTTP server.
type service struct {
	t     testing.TB
	emu   *Emulator
	srv   *httptest.Server
	clock *FakeClock
	key   string // the console key
	// validated records the answers checked against the spec, as "METHOD /template
	// status", so a test can make sure its calls did go through the check.
	validated map[string]int
	mu        sync.Mutex // guards validated for tests that call at once
}

// newService starts an emulator. Unless the options say otherwise it runs on a
// FakeClock at t0, without rate limit, with operations that take 10 seconds.
func newService(t testing.TB, opts Options) *service {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = NewFakeClock(t0)
	}
	if opts.RatePerMinute == 0 {
		opts.RatePerMinute = -1
	}
	if opts.OpDelay == 0 {
		opts.OpDelay = 10 * time.Second
	}
	if opts.OpDelay < 0 {
		opts.OpDelay = 0
	}
	e, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := serve(t, e)
	fc, _ := opts.Clock.(*FakeClock)
	return &service{t: t, emu: e, srv: srv, clock: fc, key: e.APIKey(), validated: map[string]int{}}
}

// reply is one answer of the emulator.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

func (r reply) err(t testing.TB) api.GeneralError {
	t.Helper()
	var ge api.GeneralError
	r.decode(t, &ge)
	return ge
}

// call sends a request with the console key.
func (s *service) call(method, path string, body any) reply {
	s.t.Helper()
	return s.callAs(s.key, method, path, body)
}

// callAs sends a request under /api/v2 with a key ("" sends none) and checks the
// answer against the OpenAPI description when the path is a documented one.
func (s *service) callAs(key, method, path string, body any) reply {
	s.t.Helper()
	header := ""
	if key != "" {
		header = "Bearer " + key
	}
	return s.send(header, method, path, body)
}

// callWithHeader sends a request without a body with this Authorization header.
func (s *service) callWithHeader(authorization, method, path string) reply {
	s.t.Helper()
	return s.send(authorization, method, path, nil)
}

func (s *service) send(authorization, method, path string, body any) reply {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, s.srv.URL+apiPrefix+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := s.srv.Client().Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	r := reply{status: resp.StatusCode, header: resp.Header, body: raw}
	s.validate(req, r)
	return r
}

// validate checks an answer against the spec; paths the spec does not have (the
// organization key paths) are skipped.
func (s *service) validate(req *http.Request, r reply) {
	s.t.Helper()
	documented, err := checkAnswer(req, r)
	if err != nil {
		s.t.Errorf("%s %s -> %d does not match the OpenAPI description: %v\nbody: %s", req.Method, req.URL.Path, r.status, err, r.body)
	}
	if documented != "" {
		s.mu.Lock()
		s.validated[fmt.Sprintf("%s %d", documented, r.status)]++
		s.mu.Unlock()
	}
}

// checkAnswer validates an answer to req against the spec. It returns the spec's
// "METHOD /template" of the request, or "" when the spec does not have the path.
func checkAnswer(req *http.Request, r reply) (string, error) {
	all, err := specs()
	if err != nil {
		return "", err
	}
	probe := req.Clone(context.Background())
	probe.URL.Scheme, probe.URL.Host, probe.Host = "https", specHost, specHost
	probe.Body = http.NoBody
	var route *routers.Route
	var params map[string]string
	for _, router := range all {
		if route, params, err = router.FindRoute(probe); err == nil {
			break
		}
	}
	if route == nil {
		return "", nil
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status:  r.status,
		Header:  r.header,
		Body:    io.NopCloser(bytes.NewReader(r.body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	return route.Method + " " + route.Path, openapi3filter.ValidateResponse(context.Background(), in)
}

// want fails the test unless the answer has the status.
func (r reply) want(t testing.TB, status int) reply {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body: %s", r.status, status, r.body)
	}
	return r
}

// hook calls a test hook under /_emulator.
func (s *service) hook(method, path string) reply {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.srv.URL+hooksPrefix+path, nil)
	resp, err := s.srv.Client().Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: raw}
}

// newProject creates a project with the console key and returns it.
func (s *service) newProject(name string) api.ProjectCreated {
	s.t.Helper()
	var out api.ProjectCreated
	s.call("POST", "/projects", map[string]any{"project": map[string]any{"name": name}}).want(s.t, 201).decode(s.t, &out)
	return out
}

// settle moves the fake clock past the operations of any one call (at most a few of
// OpDelay each), but not as far as the 5-minute suspend of an idle compute.
func (s *service) settle() {
	s.t.Helper()
	s.clock.Advance(time.Minute)
}

func (s *service) endpoint(projectID, id string) api.Endpoint {
	s.t.Helper()
	var out api.EndpointResponse
	s.call("GET", "/projects/"+projectID+"/endpoints/"+id, nil).want(s.t, 200).decode(s.t, &out)
	return out.Endpoint
}

func (s *service) createEndpoint(projectID string, ep map[string]any) reply {
	s.t.Helper()
	return s.call("POST", "/projects/"+projectID+"/endpoints", map[string]any{"endpoint": ep})
}

func (s *service) patchEndpoint(projectID, id string, ep map[string]any) reply {
	s.t.Helper()
	return s.call("PATCH", "/projects/"+projectID+"/endpoints/"+id, map[string]any{"endpoint": ep})
}

// serve puts an emulator behind a loopback HTTP server until the test ends.
func serve(t testing.TB, e *Emulator) *httptest.Server {
	srv := httptest.NewServer(e.Handler())
	t.Cleanup(func() {
		srv.Close()
		if err := e.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return srv
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

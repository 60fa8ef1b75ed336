package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/neonform/neonform/api"
)

// testKey looks like a real key, so a leak shows up in any output checked for it.
const testKey = "napi_k3y0ftheteststhatmustneverbeprintedanywhere0123456789abcdefgh"

// counter is a RoundTripper that counts the attempts that reach the network,
// by "METHOD /path" (query left out).
type counter struct {
	next http.RoundTripper
	mu   sync.Mutex
	n    map[string]int
	all  int
}

func (c *counter) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[req.Method+" "+req.URL.Path]++
	c.all++
	c.mu.Unlock()
	return c.next.RoundTrip(req)
}

func (c *counter) count(methodPath string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[methodPath]
}

func (c *counter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.all
}

// newClient builds a client for baseURL whose requests are checked against
// the OpenAPI description and counted. tune adjusts the options.
func newClient(t *testing.T, baseURL string, tune func(*api.Options)) (*api.Client, *counter) {
	t.Helper()
	return newCheckedClient(t, baseURL, tune, false)
}

// newCheckedClient is newClient; with answers, the answers are checked against
// the OpenAPI description too (for the emulator, not for the stubs, which send
// broken answers on purpose).
func newCheckedClient(t *testing.T, baseURL string, tune func(*api.Options), answers bool) (*api.Client, *counter) {
	t.Helper()
	transport := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(transport.CloseIdleConnections)
	var rt http.RoundTripper = transport
	if answers {
		rt = answerCheck(t, rt)
	}
	count := &counter{next: specCheck(t, rt)}
	opts := api.Options{
		BaseURL:       baseURL,
		APIKey:        testKey,
		UserAgent:     "neonform/test",
		HTTPClient:    &http.Client{Transport: count},
		RatePerMinute: -1,
		PollInterval:  5e6, // 5ms: the emulator's operations are short in tests
	}
	if tune != nil {
		tune(&opts)
	}
	c, err := api.New(opts)
	if err != nil {
		t.Fatalf("api.New: %v", err)
	}
	return c, count
}

// stub is a small server for retry edge cases: it answers each request with
// the next of its answers, repeating the last, and keeps what it received.
type stub struct {
	*httptest.Server
	mu      sync.Mutex
	answers []http.HandlerFunc
	got     []received
}

type received struct {
	method, path string
	header       http.Header
	body         string
}

func newStub(t *testing.T, answers ...http.HandlerFunc) *stub {
	t.Helper()
	s := &stub{answers: answers}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		i := min(len(s.got), len(s.answers)-1)
		s.got = append(s.got, received{r.Method, r.URL.Path, r.Header.Clone(), string(body)})
		answer := s.answers[i]
		s.mu.Unlock()
		answer(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *stub) hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.got)
}

func (s *stub) requests() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.got...)
}

func (s *stub) api() string { return s.URL + "/api/v2" }

// answer replies with status and a JSON body; headers are name, value pairs.
func answer(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// hangUp closes the connection without answering, after reading the request.
func hangUp(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	conn.Close()
}

// outlast answers only once the client has given up on the request.
func outlast(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

func generalError(code, message, requestID string) string {
	s := `{"code":"` + code + `","message":"` + message + `"`
	if requestID != "" {
		s += `,"request_id":"` + requestID + `"`
	}
	return s + "}"
}

// endpointJSON is a minimal valid Endpoint.
func endpointJSON(id string) string {
	return strings.ReplaceAll(`{"host":"ID.us-east-2.aws.neon.tech","id":"ID","project_id":"p-1","branch_id":"br-1",
"autoscaling_limit_min_cu":1,"autoscaling_limit_max_cu":1,"region_id":"aws-us-east-2","type":"read_write",
"current_state":"active","settings":{},"pooler_enabled":false,"pooler_mode":"transaction","disabled":false,
"passwordless_access":true,"creation_source":"console","created_at":"2025-01-01T00:00:00Z",
"updated_at":"2025-01-01T00:00:00Z","proxy_host":"us-east-2.aws.neon.tech","suspend_timeout_seconds":0,
"provisioner":"k8s-neonvm"}`, "ID", id)
}

func operationJSON(id, action, status, errText string) string {
	s := `{"id":"` + id + `","project_id":"p-1","endpoint_id":"ep-one","action":"` + action + `","status":"` + status +
		`","failures_count":0,"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z","total_duration_ms":0`
	if errText != "" {
		s += `,"error":"` + errText + `"`
	}
	return s + "}"
}

package api_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

const endpointOps = `{"endpoint":{"host":"h","id":"ep-one","project_id":"p-1","branch_id":"br-1","autoscaling_limit_min_cu":1,
"autoscaling_limit_max_cu":1,"region_id":"r","type":"read_write","current_state":"active","settings":{},"pooler_enabled":false,
"pooler_mode":"transaction","disabled":false,"passwordless_access":true,"creation_source":"console",
"created_at":"2025-01-01T00:00:00Z","updated_at":"2025-01-01T00:00:00Z","proxy_host":"p","suspend_timeout_seconds":0,
"provisioner":"k8s-neonvm"},"operations":[]}`

// cloudflare524 is the kind of page a proxy sends when the service is slow.
const cloudflare524 = `<!DOCTYPE html><html><head><title>console.neon.tech | 524: A timeout occurred</title>
<style>` + "body{margin:0} .cf-error{padding:4em} /* lots of css */" + `</style></head>
<body><div class="cf-error"><h1>A timeout occurred</h1><p>The origin web server timed out responding to this request.</p></div></body></html>`

func TestReadIsRetriedOnServerErrorsUntilItSucceeds(t *testing.T) {
	s := newStub(t,
		answer(503, generalError("SERVICE_UNAVAILABLE", "busy", "")),
		answer(500, generalError("INTERNAL", "oops", "")),
		answer(524, cloudflare524, "Content-Type", "text/html"),
		answer(423, generalError("RUNNING_OPERATIONS", "locked", "")),
		answer(429, generalError("RATE_LIMIT_EXCEEDED", "slow down", "")),
		answer(200, `{"endpoint":`+endpointJSON("ep-one")+`}`))
	c, _ := newClient(t, s.api(), nil)
	sleeps := api.RecordSleeps(c)
	ep, err := c.GetEndpoint(context.Background(), "p-1", "ep-one")
	if err != nil {
		t.Fatal(err)
	}
	if ep.ID != "ep-one" || s.hits() != 6 || len(sleeps()) != 5 {
		t.Errorf("got %q after %d requests and %d waits, want ep-one after 6 and 5", ep.ID, s.hits(), len(sleeps()))
	}
}

func TestReadGivesUpAfterMaxRetries(t *testing.T) {
	s := newStub(t, answer(502, "bad gateway", "Content-Type", "text/plain"))
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.MaxRetries = 3 })
	api.RecordSleeps(c)
	_, err := c.ListEndpoints(context.Background(), "p-1")
	if api.StatusOf(err) != 502 || s.hits() != 4 {
		t.Errorf("want a 502 after 4 attempts, got %v after %d", err, s.hits())
	}
}

func TestMutationIsNotRetriedOnAnErrorThatMayHaveRun(t *testing.T) {
	s := newStub(t, answer(500, generalError("INTERNAL", "internal error", "req-9")))
	c, _ := newClient(t, s.api(), nil)
	api.RecordSleeps(c)
	_, err := c.UpdateEndpoint(context.Background(), "p-1", "ep-one", api.EndpointUpdate{Name: new("x")})
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || apiErr.RequestID != "req-9" {
		t.Fatalf("want the 500 as *api.Error, got %#v", err)
	}
	if s.hits() != 1 || api.IsAmbiguous(err) {
		t.Errorf("a 500 on PATCH: %d attempts, ambiguous %v; want 1 and false", s.hits(), api.IsAmbiguous(err))
	}
}

func TestMutationIsRetriedWhenTheServiceSaysItDidNotRun(t *testing.T) {
	for _, status := range []int{423, 429, 503} {
		// The 423 makes the client wait for the project's operations: the
		// stub lists none running, so the retry follows.
		mux := http.NewServeMux()
		s := newStub(t, answer(status, generalError("X", "not now", "")), answer(200, endpointOps))
		var listed int
		mux.HandleFunc("GET /api/v2/projects/p-1/operations", func(w http.ResponseWriter, r *http.Request) {
			listed++
			answer(200, `{"operations":[`+operationJSON("0c5ab8a3-0000-4000-8000-000000000001", "apply_config", "finished", "")+`]}`)(w, r)
		})
		mux.Handle("/", s.Config.Handler)
		s.Config.Handler = mux
		c, _ := newClient(t, s.api(), nil)
		sleeps := api.RecordSleeps(c)
		out, err := c.UpdateEndpoint(context.Background(), "p-1", "ep-one", api.EndpointUpdate{Name: new("x")})
		if err != nil || out.Endpoint.ID != "ep-one" {
			t.Fatalf("%d: %v", status, err)
		}
		if s.hits() != 2 || len(sleeps()) != 1 {
			t.Errorf("%d: %d attempts and %d waits, want 2 and 1", status, s.hits(), len(sleeps()))
		}
		if wantListed := map[bool]int{true: 1, false: 0}[status == 423]; listed != wantListed {
			t.Errorf("%d: listed operations %d times, want %d", status, listed, wantListed)
		}
	}
}

func TestMutationAnsweredByAGatewayTimeoutIsAmbiguous(t *testing.T) {
	s := newStub(t, answer(524, cloudflare524, "Content-Type", "text/html; charset=UTF-8"))
	c, _ := newClient(t, s.api(), nil)
	api.RecordSleeps(c)
	_, err := c.CreateEndpoint(context.Background(), "p-1", api.EndpointCreate{BranchID: "br-1", Type: api.EndpointTypeReadOnly})
	if !api.IsAmbiguous(err) || api.StatusOf(err) != 524 || s.hits() != 1 {
		t.Fatalf("want one attempt, ambiguous, status 524; got %d attempts and %v", s.hits(), err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "524: A timeout occurred") || strings.Contains(msg, "<") || len(msg) > 400 {
		t.Errorf("the message should name the page's title in one short line, got:\n%s", msg)
	}
}

func TestErrorTextNamesMethodPathStatusMessageAndRequestID(t *testing.T) {
	const locked = "project already has running conflicting operations, scheduling of new ones is prohibited"
	s := newStub(t, answer(423, generalError("RUNNING_OPERATIONS", locked, "")),
		answer(404, generalError("ENDPOINT_NOT_FOUND", "endpoint ep-x not found", "r-42")),
		answer(401, "", "X-Neon-Ret-Request-Id", "r-7"))
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.MaxRetries = -1 })
	ctx := context.Background()

	_, err := c.UpdateEndpoint(ctx, "p", "ep-x", api.EndpointUpdate{Name: new("n")})
	want := "PATCH /projects/p/endpoints/ep-x: 423 Locked: " + locked
	if err == nil || err.Error() != want {
		t.Errorf("423:\n got %v\nwant %s", err, want)
	}
	_, err = c.GetEndpoint(ctx, "p", "ep-x")
	want = "GET /projects/p/endpoints/ep-x: 404 Not Found: endpoint ep-x not found (request id r-42)"
	if err == nil || err.Error() != want || !api.IsNotFound(err) {
		t.Errorf("404:\n got %v\nwant %s", err, want)
	}
	_, err = c.ListProjects(ctx)
	if err == nil || !strings.HasPrefix(err.Error(), "GET /projects?limit=400: 401 Unauthorized; check the API key") ||
		!strings.HasSuffix(err.Error(), "(request id r-7)") || strings.Contains(err.Error(), testKey) {
		t.Errorf("401 with an empty body: %v", err)
	}
}

func TestRetryAfterIsTheLeastWait(t *testing.T) {
	date := time.Now().Add(45 * time.Second).UTC().Format(http.TimeFormat)
	s := newStub(t,
		answer(429, generalError("RATE_LIMIT_EXCEEDED", "slow down", ""), "Retry-After", "7"),
		answer(429, generalError("RATE_LIMIT_EXCEEDED", "slow down", ""), "Retry-After", date),
		answer(201, endpointOps))
	c, _ := newClient(t, s.api(), nil)
	sleeps := api.RecordSleeps(c)
	if _, err := c.CreateEndpoint(context.Background(), "p-1", api.EndpointCreate{BranchID: "br-1", Type: "read_only"}); err != nil {
		t.Fatal(err)
	}
	got := sleeps()
	if len(got) != 2 || got[0] < 7*time.Second || got[1] < 35*time.Second {
		t.Errorf("waits %v: want at least 7s, then about 45s (an HTTP date)", got)
	}
}

func TestRetryAfterBeyondTheDeadlineEndsTheCallAtOnce(t *testing.T) {
	s := newStub(t, answer(429, generalError("RATE_LIMIT_EXCEEDED", "slow down", ""), "Retry-After", "3600"))
	c, _ := newClient(t, s.api(), nil)
	sleeps := api.RecordSleeps(c)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.ListEndpoints(ctx, "p-1")
	if api.StatusOf(err) != 429 || s.hits() != 1 || len(sleeps()) != 0 {
		t.Errorf("want the 429 at once: %v after %d attempts and waits %v", err, s.hits(), sleeps())
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	for value, want := range map[string]time.Duration{
		"":                              0,
		"3":                             3 * time.Second,
		"-5":                            0,
		"soon":                          0,
		"Wed, 01 Jan 2025 12:00:30 GMT": 30 * time.Second,
		"Wed, 01 Jan 2025 11:00:00 GMT": 0,
		// A day is waited a minute at most.
		"86400":                         time.Minute,
		"Thu, 02 Jan 2025 12:00:00 GMT": time.Minute,
	} {
		if got := api.RetryAfter(http.Header{"Retry-After": {value}}, now); got != want {
			t.Errorf("Retry-After %q = %s, want %s", value, got, want)
		}
	}
}

func TestBackoffIsFullJitterUnderACap(t *testing.T) {
	for attempt, ceiling := range map[int]time.Duration{0: 250 * time.Millisecond, 2: time.Second, 6: 10 * time.Second, 60: 10 * time.Second} {
		var low, high bool
		for range 2000 {
			d := api.Backoff(attempt)
			if d < 0 || d > ceiling {
				t.Fatalf("attempt %d: %s outside [0, %s]", attempt, d, ceiling)
			}
			low = low || d < ceiling/4
			high = high || d > ceiling*3/4
		}
		if !low || !high {
			t.Errorf("attempt %d: 2000 waits did not spread over [0, %s]", attempt, ceiling)
		}
	}
}

// A refused connection means nothing was sent: a mutation may be retried.
func TestMutationIsRetriedWhenTheConnectionWasRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, count := newClient(t, "http://"+addr+"/api/v2", func(o *api.Options) { o.MaxRetries = 3 })
	api.RecordSleeps(c)
	_, err = c.CreateEndpoint(context.Background(), "p-1", api.EndpointCreate{BranchID: "br-1", Type: "read_only"})
	if err == nil || api.IsAmbiguous(err) || api.StatusOf(err) != 0 {
		t.Fatalf("want a plain connection error, got %v", err)
	}
	if count.total() != 4 {
		t.Errorf("%d attempts, want 4 (1 + MaxRetries)", count.total())
	}
	if !strings.Contains(err.Error(), "POST /projects/p-1/endpoints: no answer from the service") {
		t.Errorf("error text: %v", err)
	}
}

// A connection lost after the request was written leaves the outcome
// unknown: a mutation is returned as ambiguous, never repeated.
func TestMutationLostAfterSendingIsAmbiguousAndNotRetried(t *testing.T) {
	s := newStub(t, hangUp)
	c, _ := newClient(t, s.api(), nil)
	api.RecordSleeps(c)
	_, err := c.DeleteEndpoint(context.Background(), "p-1", "ep-one")
	var amb *api.AmbiguousError
	if !errors.As(err, &amb) || amb.Method != "DELETE" || amb.Path != "/projects/p-1/endpoints/ep-one" {
		t.Fatalf("want *AmbiguousError for DELETE, got %v", err)
	}
	if s.hits() != 1 {
		t.Errorf("%d attempts, want 1", s.hits())
	}
}

func TestReadIsRetriedAfterAHangUp(t *testing.T) {
	s := newStub(t, hangUp, answer(200, `{"endpoints":[`+endpointJSON("ep-one")+`]}`))
	c, _ := newClient(t, s.api(), nil)
	api.RecordSleeps(c)
	eps, err := c.ListEndpoints(context.Background(), "p-1")
	if err != nil || len(eps) != 1 || s.hits() != 2 {
		t.Fatalf("got %d endpoints after %d requests: %v", len(eps), s.hits(), err)
	}
}

func TestAttemptDeadline(t *testing.T) {
	s := newStub(t, outlast, answer(200, `{"endpoints":[]}`))
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.CallTimeout = 50 * time.Millisecond })
	api.RecordSleeps(c)
	if _, err := c.ListEndpoints(context.Background(), "p-1"); err != nil || s.hits() != 2 {
		t.Fatalf("a read past its attempt deadline should be retried: %v after %d requests", err, s.hits())
	}

	s = newStub(t, outlast)
	c, _ = newClient(t, s.api(), func(o *api.Options) { o.CallTimeout = 50 * time.Millisecond })
	_, err := c.RestartEndpoint(context.Background(), "p-1", "ep-one")
	if !api.IsAmbiguous(err) || !errors.Is(err, context.DeadlineExceeded) || s.hits() != 1 {
		t.Fatalf("a mutation past its deadline: want ambiguous deadline after 1 request, got %v after %d", err, s.hits())
	}
}

func TestCancelEndsTheWaitBeforeARetry(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hit := make(chan struct{}, 1)
	s := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		answer(429, generalError("RATE_LIMIT_EXCEEDED", "slow down", ""), "Retry-After", "30")(w, r)
		hit <- struct{}{}
	})
	c, _ := newClient(t, s.api(), nil)
	go func() { <-hit; cancel() }()
	_, err := c.ListEndpoints(ctx, "p-1")
	if !errors.Is(err, context.Canceled) || s.hits() != 1 {
		t.Fatalf("want context.Canceled after 1 request, got %v after %d", err, s.hits())
	}
}

// The budget is counted, not timed: for 2 requests a minute, a caller whose
// deadline is 50 seconds away gets exactly two requests out; the rest fail
// at once because the minute's window does not free before the deadline.
// Polls draw from the same budget.
func TestLimiterBoundsTheRate(t *testing.T) {
	s := newStub(t, answer(200, `{"endpoints":[]}`))
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.RatePerMinute, o.Burst = 2, 40 })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	var failed int
	for range 3 {
		if _, err := c.ListEndpoints(ctx, "p-1"); err != nil {
			if !strings.Contains(err.Error(), "rate budget") {
				t.Errorf("unexpected error: %v", err)
			}
			failed++
		}
	}
	running := []api.Operation{{ID: "0c5ab8a3-0000-4000-8000-000000000001", ProjectID: "p-1", Status: api.OperationRunning}}
	c2err := c.WaitOperations(ctx, "p-1", running)
	if s.hits() != 2 || failed != 1 || c2err == nil {
		t.Errorf("%d requests reached the server (want 2), %d calls failed (want 1), poll error %v (want one)", s.hits(), failed, c2err)
	}
}

func TestDeleteOfAGoneEndpointIsNilNil(t *testing.T) {
	s := newStub(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	c, _ := newClient(t, s.api(), nil)
	out, err := c.DeleteEndpoint(context.Background(), "p-1", "ep-gone")
	if out != nil || err != nil {
		t.Errorf("204: got (%v, %v), want (nil, nil)", out, err)
	}
}

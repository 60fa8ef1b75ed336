package apply

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/fetch"
	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/diff/view"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/internal/planschema"
	"github.com/neonform/neonform/state"
)

// world is a running emulator with the client, state and configuration
// directory of one test: what the CLI wires together, without the CLI.
type world struct {
	t     testing.TB
	emu   *emulator.Emulator
	srv   *httptest.Server
	c     *api.Client
	state *state.Local
	dir   string
	// tamper, when set, handles every request: it may answer it without the
	// service, or forward it and lose or replace the answer (see tamperTransport).
	tamper tamperFunc
	mu     sync.Mutex
	// scope is the -target, -replace or -destroy of the next plan.
	scope diff.Scope
}

type worldOptions struct {
	opDelay  time.Duration
	faults   emulator.Faults
	projects []string            // ids; each gets branch main with its primary, and branch dev
	clock    *emulator.FakeClock // nil: the emulator runs on real time
	// rateMinute is the emulator's emulator.Options.RateMinute (its rate
	// limit is off until the test sets one).
	rateMinute time.Duration
	// postgres backs the computes with real Postgres (emulator/pgcompute).
	postgres bool
}

func newWorld(t testing.TB, o worldOptions) *world {
	t.Helper()
	opts := emulator.Options{RatePerMinute: -1, OpDelay: o.opDelay, RateMinute: o.rateMinute}
	if o.clock != nil {
		opts.Clock = o.clock
	}
	var proxy *pgcompute.Proxy
	if o.postgres {
		var err error
		if proxy, err = pgcompute.Listen("127.0.0.1:0", pgtest.Computes(t)); err != nil {
			t.Fatal(err)
		}
		opts.Postgres = proxy
		t.Cleanup(func() { proxy.Close() })
	}
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	if proxy != nil {
		go proxy.Serve(emu)
	}
	for _, id := range o.projects {
		if _, err := emu.EnsureProject(id, id); err != nil {
			t.Fatal(err)
		}
		if _, _, err := emu.EnsureBranch(id, "dev"); err != nil {
			t.Fatal(err)
		}
	}
	emu.SetFaults(o.faults)
	w := &world{t: t, emu: emu, srv: httptest.NewServer(emu.Handler()), dir: t.TempDir()}
	t.Cleanup(func() {
		w.srv.Close()
		emu.Close()
	})
	w.state = state.NewLocal(filepath.Join(w.dir, "neonform.state.json"))
	w.c, err = api.New(api.Options{
		BaseURL: w.srv.URL + "/api/v2", APIKey: emu.APIKey(), RatePerMinute: -1,
		PollInterval: 5 * time.Millisecond,
		HTTPClient:   &http.Client{Transport: &tamperTransport{w: w, next: http.DefaultTransport}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// tamperFunc handles one request; forward sends it to the service.
type tamperFunc func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error)

// tamperTransport lets a test lose the answer of a request the service
// carried out (the case that tempts a client to create twice), or answer in
// the service's place.
type tamperTransport struct {
	w    *world
	next http.RoundTripper
}

func (tt *tamperTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tt.w.mu.Lock()
	tamper := tt.w.tamper
	tt.w.mu.Unlock()
	forward := func() (*http.Response, error) { return tt.next.RoundTrip(req) }
	if tamper != nil {
		return tamper(req, forward)
	}
	return forward()
}

func (w *world) setTamper(f tamperFunc) {
	w.mu.Lock()
	w.tamper = f
	w.mu.Unlock()
}

// loseAnswers drops the answers of the first n requests that match, after
// the service carried them out.
func (w *world) loseAnswers(method, pathPart string, n int) {
	lost := 0
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		resp, err := forward()
		if err == nil && req.Method == method && strings.Contains(req.URL.Path, pathPart) && lost < n {
			lost++
			resp.Body.Close()
			return nil, errConnectionLost
		}
		return resp, err
	})
}

// refuse answers the requests of method in the service's place, with status
// and message, without forwarding them.
func (w *world) refuse(method, pathPart string, status int, message string) {
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method != method || !strings.Contains(req.URL.Path, pathPart) {
			return forward()
		}
		return refusal(req, status, message), nil
	})
}

// refusal is an answer of status and message to req, made in the service's
// place.
func refusal(req *http.Request, status int, message string) *http.Response {
	if req.Body != nil {
		io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	body := `{"code":"REFUSED","message":"` + message + `"}`
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}
}

// loseBeforeArrival makes the first request of method look sent to the
// client, then fails it before the service sees it: the client cannot know
// which happened, so it must look before sending it again.
func (w *world) loseBeforeArrival(method string) {
	lost := false
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method != method || lost {
			return forward()
		}
		lost = true
		return loseOnTheWay(req)
	})
}

// loseOnTheWay makes req look sent to the client, then fails it before the
// service sees it.
func loseOnTheWay(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close()
	}
	if tr := httptrace.ContextClientTrace(req.Context()); tr != nil && tr.WroteRequest != nil {
		tr.WroteRequest(httptrace.WroteRequestInfo{})
	}
	return nil, errConnectionLost
}

var errConnectionLost = &lostError{}

type lostError struct{}

func (*lostError) Error() string { return "connection reset by peer (lost by the test)" }

// plan makes a plan of the configuration src against the world, as neonform
// plan does.
func (w *world) plan(src string) *diff.Plan {
	w.t.Helper()
	p, err := w.tryPlan(src)
	if err != nil {
		w.t.Fatal(err)
	}
	return p
}

// tryPlan is plan, which says why it made no plan instead of failing the test.
func (w *world) tryPlan(src string) (*diff.Plan, error) {
	files := map[string][]byte{"main.hcl": []byte(src)}
	cfg, diags := config.LoadSources(w.dir, files, config.Options{})
	if diags.HasErrors() {
		return nil, fmt.Errorf("config: %v", diags)
	}
	st, err := w.state.Read(context.Background())
	if err != nil {
		return nil, err
	}
	live, diags := fetch.Live(context.Background(), w.c, cfg, st, fetch.Options{Parallelism: 4})
	if diags.HasErrors() {
		return nil, fmt.Errorf("fetch: %v", diags)
	}
	p, diags := diff.Build(cfg, st, live, diff.Options{ToolVersion: "test", APIURL: w.srv.URL, Now: time.Now(), Scope: w.scope,
		ConfigDigest: diff.ConfigDigest(files), ConfigFiles: diff.FileDigests(files)})
	if diags.HasErrors() {
		return nil, fmt.Errorf("plan: %v", diags)
	}
	// Every plan these tests make matches the plan file's schema.
	if err := planschema.CheckPlan(planfile.Schema, p); err != nil {
		return nil, err
	}
	return p, nil
}

// apply applies p with the world's client and state; what it tells its
// hooks goes to out, a line of facts a call (logHook).
func (w *world) apply(ctx context.Context, p *diff.Plan, out *bytes.Buffer) (*Report, error) {
	if out == nil {
		out = &bytes.Buffer{}
	}
	return Apply(ctx, p, Options{Client: w.c, State: w.state, Hooks: []Hook{&logHook{b: out}}, Parallelism: 4})
}

// mustApply plans src, applies it, and fails the test unless every step was done.
func (w *world) mustApply(src string) *Report {
	w.t.Helper()
	var out bytes.Buffer
	rep, err := w.apply(context.Background(), w.plan(src), &out)
	if err != nil {
		w.t.Fatalf("apply: %v\n%s", err, out.String())
	}
	return rep
}

// endpoints lists the live endpoints of a project.
func (w *world) endpoints(project string) []api.Endpoint {
	w.t.Helper()
	eps, err := w.c.ListEndpoints(context.Background(), project)
	if err != nil {
		w.t.Fatal(err)
	}
	return eps
}

// checkConverged checks what every apply must leave: a following plan has
// nothing to do, no branch has two endpoints of one name, and the state and
// the service agree on which endpoints exist.
func (w *world) checkConverged(src string, projects ...string) {
	w.t.Helper()
	if p := w.plan(src); p.HasChanges() {
		var b bytes.Buffer
		view.Human(&b, p, view.HumanOptions{})
		w.t.Errorf("a plan after apply still has %d steps:\n%s", len(p.Steps), b.String())
	}
	st, err := w.state.Read(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	var inState []string
	for _, c := range st.Computes {
		inState = append(inState, c.EndpointID)
	}
	var live []string
	for _, id := range projects {
		names := map[string]string{}
		for _, ep := range w.endpoints(id) {
			live = append(live, ep.ID)
			key := ep.BranchID + "/" + ep.Name
			if other, dup := names[key]; dup {
				w.t.Errorf("duplicate endpoints named %q on branch %s: %s and %s", ep.Name, ep.BranchID, other, ep.ID)
			}
			names[key] = ep.ID
		}
	}
	slices.Sort(inState)
	slices.Sort(live)
	if !slices.Equal(inState, live) {
		w.t.Errorf("the state records %v, but the live endpoints are %v", inState, live)
	}
}

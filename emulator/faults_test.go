package emulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
)

func TestParseFaults(t *testing.T) {
	f, err := ParseFaults(" 5xx=0.05, 429=0.1,423=0.02,drop=0.03,latency=0.5:200ms,seed=7 ")
	must(t, err)
	want := Faults{ServerError: 0.05, RateLimited: 0.1, Locked: 0.02, Drop: 0.03, Latency: 0.5, LatencyDelay: 200 * time.Millisecond, Seed: 7}
	if f != want {
		t.Errorf("parsed %+v, want %+v", f, want)
	}
	if back, err := ParseFaults(f.String()); err != nil || back != f {
		t.Errorf("String() %q does not parse back: %+v, %v", f.String(), back, err)
	}
	slow, err := ParseFaults("429=1:24h")
	if err != nil || slow.RateLimited != 1 || slow.RetryAfter != 24*time.Hour {
		t.Errorf("429=1:24h: %+v, %v; want every request answered 429 with Retry-After 24h", slow, err)
	}
	if back, err := ParseFaults(slow.String()); err != nil || back != slow {
		t.Errorf("String() %q does not parse back: %+v, %v", slow.String(), back, err)
	}
	if f, err := ParseFaults(""); err != nil || f.any() {
		t.Errorf("an empty spec: %+v, %v; want no faults", f, err)
	}
	for spec, want := range map[string]string{
		"5xx":               "has no value",
		"5xx=2":             "from 0 to 1",
		"500=0.1":           `unknown fault "500"`,
		"latency=0.1":       "a rate and a delay",
		"latency=0.1:fast":  "not a duration",
		"seed=-1":           "not a whole number",
		"429=1:soon":        "not a duration",
		"429=1:10ms":        "a second or more",
		"5xx=0.6,drop=0.6":  "add up to 1.2",
		"429=0.5,,423=0.25": "has no value",
		"5xx=NaN":           `rate of 5xx is "NaN"; write a number from 0 to 1`,
		"drop=nan":          "from 0 to 1",
		"423=+Inf":          "from 0 to 1",
		"latency=NaN:1s":    "from 0 to 1",
	} {
		if _, err := ParseFaults(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseFaults(%q) = %v, want an error saying %q", spec, err, want)
		}
	}
}

func TestInjectedFaultsAnswerBeforeProcessing(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	p := s.newProject("shop")
	body := map[string]any{"branch_id": p.Branch.ID, "type": "read_only"}
	for _, tc := range []struct {
		spec   string
		status int
		code   string
	}{
		{"5xx=1", 503, codeUnavailable},
		{"429=1", 429, codeRateLimited},
		{"429=1:24h", 429, codeRateLimited},
		{"423=1", 423, codeLocked},
	} {
		s.emu.SetFaults(must2(t, ParseFaults)(tc.spec))
		r := s.createEndpoint(p.Project.ID, body)
		wantCode(t, r, tc.status, tc.code)
		if want := map[string]string{"429=1": "1", "429=1:24h": "86400"}[tc.spec]; r.header.Get("Retry-After") != want {
			t.Errorf("%s: Retry-After %q, want %q", tc.spec, r.header.Get("Retry-After"), want)
		}
	}
	s.emu.SetFaults(Faults{})
	var list api.EndpointsResponse
	s.call("GET", "/projects/"+p.Project.ID+"/endpoints", nil).want(t, 200).decode(t, &list)
	if len(list.Endpoints) != 1 {
		t.Errorf("%d endpoints: a faulted create ran", len(list.Endpoints))
	}
	st := s.emu.Stats()
	for _, kind := range []string{fault5xx, fault429, fault423} {
		want := int64(1)
		if kind == fault429 {
			want = 2 // with its own Retry-After, and without
		}
		if st.Faults[kind] != want {
			t.Errorf("stats count %d faults %s, want %d", st.Faults[kind], kind, want)
		}
	}
}

// A dropped answer comes after the request ran: the case that tempts a client to
// create twice.
func TestDroppedConnectionAfterProcessing(t *testing.T) {
	s := newService(t, Options{OpDelay: -1, Faults: Faults{Drop: 1}})
	req, _ := http.NewRequest("POST", s.srv.URL+"/api/v2/projects", strings.NewReader(`{"project":{"name":"dropped"}}`))
	req.Header.Set("Authorization", "Bearer "+s.key)
	if resp, err := s.srv.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("got an answer (%d), want the connection dropped", resp.StatusCode)
	}
	s.emu.SetFaults(Faults{})
	var list api.ProjectsResponse
	s.call("GET", "/projects", nil).want(t, 200).decode(t, &list)
	if len(list.Projects) != 1 || list.Projects[0].Name != "dropped" {
		t.Errorf("projects %+v: the create should have run once", list.Projects)
	}
	st := s.emu.Stats()
	if st.Faults[faultDrop] != 1 || st.Responses["POST /projects 201"] != 1 {
		t.Errorf("stats: %d drops, %d creates answered 201; want 1 and 1", st.Faults[faultDrop], st.Responses["POST /projects 201"])
	}
}

func TestFaultsAreDrawnAtTheirRateFromTheSeed(t *testing.T) {
	draws := func(spec string) string {
		d := newFaultDice(must2(t, ParseFaults)(spec))
		var b strings.Builder
		for range 2000 {
			kind, delay := d.draw()
			b.WriteString(kind + "/" + delay.String() + ",")
		}
		return b.String()
	}
	a, b, c := draws("5xx=0.1,drop=0.2,latency=0.5:1s,seed=1"), draws("5xx=0.1,drop=0.2,latency=0.5:1s,seed=1"), draws("5xx=0.1,drop=0.2,latency=0.5:1s,seed=2")
	if a != b || a == c {
		t.Error("the same seed should give the same faults, another seed others")
	}
	for _, tc := range []struct {
		what string
		want float64
	}{{"5xx/", 0.1}, {"drop/", 0.2}, {"/1s", 0.5}} {
		got := float64(strings.Count(a, tc.what)) / 2000
		if got < tc.want-0.04 || got > tc.want+0.04 {
			t.Errorf("%s drawn at a rate of %.3f, want about %.2f", tc.what, got, tc.want)
		}
	}
}

func TestLatencyDelaysEveryRequest(t *testing.T) {
	s := newService(t, Options{Latency: 30 * time.Millisecond, Faults: Faults{Latency: 1, LatencyDelay: 20 * time.Millisecond}})
	start := time.Now()
	s.call("GET", "/projects", nil).want(t, 200)
	if took := time.Since(start); took < 50*time.Millisecond {
		t.Errorf("answered in %s, before the 30ms latency and the 20ms injected delay", took)
	}
	if got := s.emu.Stats().Faults[faultLatency]; got != 1 {
		t.Errorf("stats count %d delayed requests, want 1", got)
	}
}

func TestStatsCountRequestsByRouteAndStatus(t *testing.T) {
	s := newService(t, Options{OpDelay: -1})
	p := s.newProject("shop")
	pid := p.Project.ID
	for range 3 {
		s.call("GET", "/projects/"+pid+"/endpoints", nil).want(t, 200)
	}
	s.call("GET", "/projects/nope-00000000/endpoints", nil).want(t, 404)
	s.callAs("", "GET", "/projects", nil).want(t, 401)
	s.call("GET", "/no/such/path", nil).want(t, 404)
	s.call("PUT", "/projects", nil).want(t, 405)

	var st Stats
	s.hook("GET", "/stats").want(t, 200).decode(t, &st)
	want := Stats{
		Total: 8,
		Requests: map[string]int64{"POST /projects": 1, "GET /projects/{project_id}/endpoints": 4, "GET /projects": 1,
			"unmatched": 2},
		Statuses: map[string]int64{"201": 1, "200": 3, "404": 2, "401": 1, "405": 1},
	}
	if st.Total != want.Total || !equalCounts(st.Requests, want.Requests) || !equalCounts(st.Statuses, want.Statuses) {
		t.Errorf("stats %+v\nwant  %+v", st, want)
	}
	if st.Responses["GET /projects/{project_id}/endpoints 404"] != 1 || st.Responses["GET /projects/{project_id}/endpoints 200"] != 3 {
		t.Errorf("responses by route and status: %v", st.Responses)
	}
	// The hooks are not counted; a reset zeroes the counters.
	s.hook("DELETE", "/stats").want(t, 204)
	var reset Stats
	s.hook("GET", "/stats").want(t, 200).decode(t, &reset)
	if reset.Total != 0 || len(reset.Requests) != 0 || s.emu.Stats().Total != 0 {
		t.Errorf("after a reset: %+v", reset)
	}
}

func TestHooksChangeFaultsAndClock(t *testing.T) {
	s := newService(t, Options{})
	r := s.hookBody("PUT", "/faults", `{"faults":"423=1,seed=3"}`).want(t, 200)
	if !strings.Contains(string(r.body), "423=1,seed=3") {
		t.Errorf("PUT /faults answered %s", r.body)
	}
	s.call("GET", "/projects", nil).want(t, 423)
	s.hookBody("PUT", "/faults?spec=", "").want(t, 200)
	s.call("GET", "/projects", nil).want(t, 200)
	s.hookBody("PUT", "/faults", "5xx=7").want(t, 400)

	var clock clockAnswer
	s.hook("POST", "/clock/advance?by=90s").want(t, 200).decode(t, &clock)
	if !clock.Fake || !clock.Now.Equal(t0.Add(90*time.Second)) {
		t.Errorf("clock after advancing 90s: %+v", clock)
	}
	s.hook("POST", "/clock/advance?by=-1s").want(t, 400)
	s.hook("GET", "/nothing").want(t, 404)

	real := newService(t, Options{Clock: realClock{}})
	real.hook("POST", "/clock/advance?by=1s").want(t, 409)
}

func (s *service) hookBody(method, path, body string) reply {
	s.t.Helper()
	req, _ := http.NewRequest(method, s.srv.URL+hooksPrefix+path, strings.NewReader(body))
	resp, err := s.srv.Client().Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return reply{status: resp.StatusCode, header: resp.Header, body: b.Bytes()}
}

func equalCounts(a, b map[string]int64) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// must2 turns a function that can fail into one that fails the test.
func must2[A, R any](t testing.TB, f func(A) (R, error)) func(A) R {
	return func(a A) R {
		t.Helper()
		r, err := f(a)
		must(t, err)
		return r
	}
}

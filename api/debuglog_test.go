package api_test

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// The debug log has one line per attempt against the emulator: method, path
// with its query, status, duration, attempt, the service's request id, and
// what the client does next; never the key.
// refuseOnce answers the first request that match picks with status,
// header and body in the service's place, and passes the rest to the
// emulator; seen gets the X-Request-ID of every request.
func refuseOnce(match func(*http.Request) bool, status int, header map[string]string, body string, seen func(id string)) func(http.Handler) http.Handler {
	var mu sync.Mutex
	refused := false
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			if seen != nil {
				seen(r.Header.Get("X-Request-ID"))
			}
			first := !refused && match(r)
			refused = refused || first
			mu.Unlock()
			if !first {
				next.ServeHTTP(w, r)
				return
			}
			for k, v := range header {
				w.Header().Set(k, v)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(body))
		})
	}
}

func TestDebugLogHasOneLinePerAttemptWithTheRequestIDAndNoKey(t *testing.T) {
	var sentIDs []string // written under refuseOnce's lock, read after the calls
	// The service's rate limit, once.
	wrap := refuseOnce(func(r *http.Request) bool {
		return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/endpoints")
	},
		http.StatusTooManyRequests, map[string]string{"Retry-After": "2", "X-Neon-Ret-Request-Id": "svc-429-id"},
		`{"code":"TOO_MANY_REQUESTS","message":"slow down"}`, func(id string) { sentIDs = append(sentIDs, id) })
	var log bytes.Buffer
	s := newService(t, emulator.Options{}, func(o *api.Options) { o.Log = &log }, wrap)
	sleeps := api.RecordSleeps(s.client)
	if _, err := s.emu.EnsureProject("dark-sun-46453911", "shop"); err != nil {
		t.Fatal(err)
	}
	eps, err := s.client.ListEndpoints(context.Background(), "dark-sun-46453911")
	if err != nil || len(eps) != 1 {
		t.Fatalf("ListEndpoints = %v, %v", eps, err)
	}
	if _, err := s.client.GetEndpoint(context.Background(), "dark-sun-46453911", "ep-nothing-here"); api.StatusOf(err) != 404 {
		t.Fatalf("GetEndpoint of nothing = %v, want a 404", err)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	want := []*regexp.Regexp{
		regexp.MustCompile(`^GET /projects/dark-sun-46453911/endpoints 429 \d+\.\dms attempt 1 request_id svc-429-id: retrying in 2s \(Retry-After 2s; every run sharing the rate budget pauses, and its limits halve for a minute\)$`),
		regexp.MustCompile(`^GET /projects/dark-sun-46453911/endpoints 200 \d+\.\dms attempt 2 request_id ` + regexp.QuoteMeta(sentIDs[1]) + `$`),
		regexp.MustCompile(`^GET /projects/dark-sun-46453911/endpoints/ep-nothing-here 404 \d+\.\dms attempt 1 request_id ` + regexp.QuoteMeta(sentIDs[2]) + `$`),
	}
	if len(lines) != len(want) {
		t.Fatalf("log has %d lines, want %d:\n%s", len(lines), len(want), log.String())
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("line %d = %q, want %s", i+1, lines[i], re)
		}
	}
	if sentIDs[1] == "" || sentIDs[1] == sentIDs[2] {
		t.Errorf("request ids sent: %q, want one of its own for each attempt", sentIDs)
	}
	if got := sleeps(); len(got) == 0 {
		t.Error("the 429 was not waited out")
	}
	if strings.Contains(log.String(), s.emu.APIKey()) || strings.Contains(log.String(), "Bearer") {
		t.Error("the key reached the log")
	}
}

// A mutation refused with 423 waits for the project's operations, and the
// log says so, not a guessed wait.
func TestDebugLogSaysA423WaitsForTheProject(t *testing.T) {
	wrap := refuseOnce(func(r *http.Request) bool { return r.Method == http.MethodPost }, http.StatusLocked, nil,
		`{"code":"RUNNING_OPERATIONS","message":"project already has running conflicting operations"}`, nil)
	var log bytes.Buffer
	s := newService(t, emulator.Options{}, func(o *api.Options) { o.Log = &log }, wrap)
	api.RecordSleeps(s.client)
	if _, err := s.emu.EnsureProject("dark-sun-46453911", "shop"); err != nil {
		t.Fatal(err)
	}
	branches, err := s.client.ListBranches(context.Background(), "dark-sun-46453911")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.client.CreateEndpoint(context.Background(), "dark-sun-46453911", api.EndpointCreate{BranchID: branches[0].ID, Type: api.EndpointTypeReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^POST /projects/dark-sun-46453911/endpoints 423 \d+\.\dms attempt 1 request_id [0-9a-f]+: retrying once project dark-sun-46453911 runs no operation\n` +
		`GET /projects/dark-sun-46453911/operations\?limit=50 200 .*\n` +
		`POST /projects/dark-sun-46453911/endpoints 201 \d+\.\dms attempt 2 request_id [0-9a-f]+$`)
	if !re.MatchString(log.String()) {
		t.Errorf("log:\n%s\nwant the 423, the wait for the project's operations, and the second attempt", log.String())
	}
}

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
func TestDebugLogHasOneLinePerAttemptWithTheRequestIDAndNoKey(t *testing.T) {
	var mu sync.Mutex
	var sentIDs []string
	refused := false
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			sentIDs = append(sentIDs, r.Header.Get("X-Request-ID"))
			first := !refused && r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/endpoints")
			refused = refused || first
			mu.Unlock()
			if first { // the service's rate limit, once
				w.Header().Set("Retry-After", "2")
				w.Header().Set("X-Neon-Ret-Request-Id", "svc-429-id")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				w.Write([]byte(`{"code":"TOO_MANY_REQUESTS","message":"slow down"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
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
	mu.Lock()
	defer mu.Unlock()
	want := []*regexp.Regexp{
		regexp.MustCompile(`^GET /projects/dark-sun-46453911/endpoints 429 \d+\.\dms attempt 1 request_id svc-429-id: retrying in 2s \(Retry-After 2s; every request of this client pauses, and its pace halves\)$`),
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
	refused := false
	var mu sync.Mutex
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			first := !refused && r.Method == http.MethodPost
			refused = refused || first
			mu.Unlock()
			if first {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusLocked)
				w.Write([]byte(`{"code":"RUNNING_OPERATIONS","message":"project already has running conflicting operations"}`))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
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

package command

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	neonapi "github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
)

// The client connect builds never follows a redirect: the API key must not
// travel to another host, whatever the API URL answers.
func TestConnectDoesNotFollowRedirects(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.Write([]byte(`{"endpoints": []}`))
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer api.Close()

	env := newEnvironment([]string{"NEON_API_URL=" + api.URL + "/api/v2", "NEON_API_KEY=napi_secret_for_the_test"})
	conn, err := connect(&config.Config{Dir: t.TempDir()}, env, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.client.ListEndpoints(context.Background(), "dark-sun-46453911")
	if err == nil || !strings.Contains(err.Error(), "307") {
		t.Errorf("a redirect gave %v, want an error naming the 307", err)
	}
	if elsewhere.Load() != 0 {
		t.Errorf("the redirect was followed")
	}
}

// Without a key, and outside the sandbox, connect refuses before any call.
func TestConnectNeedsAKey(t *testing.T) {
	var calls atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer api.Close()
	env := newEnvironment([]string{"NEON_API_URL=" + api.URL + "/api/v2"})
	_, err := connect(&config.Config{Dir: t.TempDir()}, env, nil, 0)
	if err == nil || !strings.Contains(err.Error(), "NEON_API_KEY is not set") || !strings.Contains(err.Error(), `api_url = "embedded"`) {
		t.Errorf("err = %v", err)
	}
	if calls.Load() != 0 {
		t.Errorf("%d calls made without a key", calls.Load())
	}
}

// How often operations are polled does not depend on where the service is:
// a loopback URL is polled as the service is, unless NEONFORM_POLL_INTERVAL
// says otherwise (tests against an emulator set it).
func TestPollIntervalIsTheEnvironmentsNotTheURLs(t *testing.T) {
	url := "NEON_API_URL=http://127.0.0.1:1/api/v2"
	for _, c := range []struct {
		env  []string
		want time.Duration
		err  string
	}{
		{env: []string{url}, want: time.Second},
		{env: []string{url, "NEONFORM_POLL_INTERVAL=50ms"}, want: 50 * time.Millisecond},
		{env: []string{"NEON_API_URL=https://console.neon.tech/api/v2", "NEONFORM_POLL_INTERVAL=300ms"}, want: 300 * time.Millisecond},
		{env: []string{url, "NEONFORM_POLL_INTERVAL=soon"}, err: `NEONFORM_POLL_INTERVAL="soon": give the longest pause`},
		{env: []string{url, "NEONFORM_POLL_INTERVAL=0s"}, err: "e.g. 50ms or 2s"},
	} {
		env := newEnvironment(append(c.env, "NEON_API_KEY=napi_secret_for_the_test"))
		conn, err := connect(&config.Config{Dir: t.TempDir()}, env, nil, 0)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: err = %v, want %q", c.env, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// Before any operation was seen to finish, one is expected to take a
		// second, or the longest pause between polls if shorter.
		if got := conn.client.ExpectedDuration(neonapi.ActionApplyConfig); got != c.want {
			t.Errorf("%v: polls after %s, want %s", c.env, got, c.want)
		}
		conn.Close()
	}
}

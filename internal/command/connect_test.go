package command

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

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

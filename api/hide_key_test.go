package api_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// echoKey answers the first request that match picks in the service's place
// with status and body, where KEY stands for the Authorization header the
// request sent (a server echoing it back), and the header in
// X-Neon-Ret-Request-Id too.
func echoKey(match func(*http.Request) bool, status int, body string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		done := false
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if done || !match(r) {
				next.ServeHTTP(w, r)
				return
			}
			done = true
			auth := r.Header.Get("Authorization")
			w.Header().Set("X-Neon-Ret-Request-Id", "id-"+strings.TrimPrefix(auth, "Bearer "))
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(strings.ReplaceAll(body, "KEY", auth)))
		})
	}
}

// A server that echoes the Authorization header in an error (401 "bad key:
// Bearer napi_...") gets neither the key nor "Bearer <key>" into the error
// or the debug log: the client knows its key and takes it out of every
// answer, whoever sends it back.
func TestTheKeyEchoedBackIsNeverShown(t *testing.T) {
	reads := func(r *http.Request) bool { return r.Method == http.MethodGet }
	var log bytes.Buffer
	s := newService(t, emulator.Options{}, func(o *api.Options) { o.Log = &log },
		echoKey(reads, http.StatusUnauthorized, `{"code":"UNAUTHORIZED","message":"bad key: KEY"}`))
	_, err := s.client.ListProjects(context.Background())
	if err == nil {
		t.Fatal("no error for a 401")
	}
	key := s.emu.APIKey()
	for what, text := range map[string]string{"the error": err.Error(), "the debug log": log.String()} {
		if strings.Contains(text, key) {
			t.Errorf("%s shows the key: %s", what, text)
		}
	}
	if !strings.Contains(err.Error(), "bad key: Bearer "+api.KeyHidden) {
		t.Errorf("the error does not keep the rest of the service's message: %s", err)
	}
	if !strings.Contains(log.String(), "request_id id-"+api.KeyHidden) {
		t.Errorf("the debug log does not show the request id with the key hidden:\n%s", log.String())
	}
}

// The key written with JSON escapes is the key once decoded: hidden too,
// in a failed answer's message and in a successful answer's values.
func TestTheKeyEscapedInJSONIsHiddenToo(t *testing.T) {
	escape := func(s string) string { return strings.ReplaceAll(s, "_", `\u005f`) }
	var key string
	failing := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"code":"FORBIDDEN","message":"not for ` + escape(key) + `","extra":[1.50,{"k":"` + escape(key) + `"}]}`))
		})
	}
	s := newService(t, emulator.Options{}, nil, failing)
	_, err := s.client.ListProjects(context.Background())
	if err == nil || strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), "not for "+api.KeyHidden) {
		t.Errorf("the key escaped in JSON reached the error: %v", err)
	}

	renamed := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			k := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"endpoints":[` + strings.Replace(endpointJSON("ep-one"), `"host"`, `"name":"`+escape(k)+`","host"`, 1) + `]}`))
		})
	}
	sr := newService(t, emulator.Options{}, nil, renamed)
	got, err := sr.client.ListEndpoints(context.Background(), "dark-sun-46453911")
	if err != nil || len(got) != 1 || got[0].Name != api.KeyHidden {
		t.Errorf("an endpoint named with the key escaped: got %+v, %v; want the name %q", got, err, api.KeyHidden)
	}
}

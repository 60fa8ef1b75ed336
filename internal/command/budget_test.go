package command

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/pgtest"
	"github.com/neonform/neonform/state/pgbudget"
)

// A run whose state is in Postgres draws on the account's budget kept
// there: a 429 another run recorded there pauses it before its first
// request. Without a Postgres state, the run's budget is its own.
func TestAPostgresStateSharesTheRateBudget(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"endpoints": []}`))
	}))
	defer srv.Close()
	url, key := srv.URL+"/api/v2", "napi_budget_"+time.Now().Format("150405.000000000")
	dsn := postgresURL(pgtest.DSN(t))
	other, err := pgbudget.Open(context.Background(), dsn, pgbudget.Account(url, key), api.Options{}.Limits())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Throttled(context.Background(), "GET /projects", time.Minute); err != nil {
		t.Fatal(err)
	}

	env := newEnvironment([]string{"NEON_API_URL=" + url, "NEON_API_KEY=" + key})
	for _, c := range []struct {
		state  string
		shared bool
	}{{"", false}, {dsn, true}} {
		conn, err := connect(&config.Config{Dir: t.TempDir(), Settings: config.Settings{StatePath: c.state}}, env, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = conn.client.ListEndpoints(ctx, "dark-sun-46453911")
		cancel()
		conn.Close()
		if paused := err != nil; paused != c.shared {
			t.Errorf("state %q: the call gave %v; want it paused by the other run's 429: %t", c.state, err, c.shared)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls reached the service, want 1 (the run of a local state)", n)
	}
}

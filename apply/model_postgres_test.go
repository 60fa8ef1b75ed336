package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/neonform/neonform/diff"
)

// modelFixedPostgresWalks are the walks of TestModelPostgres in go test ./...:
// fewer, as every step connects to every compute.
const modelFixedPostgresWalks = 4

// TestModelPostgres walks as TestModel with every compute backed by real Postgres
// (emulator/pgcompute): before each plan a client connects to every compute that
// takes connections, and after the apply exactly the computes the plan marked as
// restarting, suspending, recreated or deleted have lost their connection; every
// other keeps it (docs/development.md).
//
//	go test ./apply/ -run 'TestModelPostgres$' -seed 17
func TestModelPostgres(t *testing.T) {
	runModelOn(t, "TestModelPostgres$", modelFixedPostgresWalks, worldOptions{postgres: true}, func(mw *modelWalk) {
		mw.held = &heldConnections{}
		mw.walk(modelSteps, mw.step)
	})
}

// heldConnections are a walk step's connections, by endpoint id.
type heldConnections struct {
	conns map[string]*pgx.Conn
}

// connect opens a connection to every compute of the walk's projects that is not
// disabled (a disabled one refuses it), which wakes the idle ones.
func (h *heldConnections) connect(mw *modelWalk) {
	h.conns = map[string]*pgx.Conn{}
	for _, project := range modelProjects {
		for _, ep := range mw.w.endpoints(project) {
			if ep.Disabled {
				continue
			}
			uri := mw.w.connectionURI(project, ep.BranchID, ep.ID)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			conn, err := pgx.Connect(ctx, uri)
			cancel()
			if err != nil {
				mw.t.Fatalf("seed %d: connecting to %s (%s): %v", mw.seed, ep.ID, ep.Type, err)
			}
			h.conns[ep.ID] = conn
		}
	}
}

// check compares the connections that dropped with the plan's marks.
func (h *heldConnections) check(mw *modelWalk, p *diff.Plan) {
	interrupts := map[string]string{}
	for _, ch := range p.Changes {
		if ch.EndpointID != "" && ch.Disruption != diff.None {
			interrupts[ch.EndpointID] = fmt.Sprintf("%s (%s)", ch.Address, ch.Disruption)
		}
	}
	ids := make([]string, 0, len(h.conns))
	for id := range h.conns {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		err := ping(h.conns[id])
		why, marked := interrupts[id]
		switch {
		case marked && err == nil:
			mw.failf("the plan marks %s as interrupting %s, but its connection held", why, id)
		case !marked && err != nil:
			mw.failf("%s lost its connection (%v), but the plan marks no interruption for it", id, err)
		}
	}
}

func (h *heldConnections) closeAll() {
	for _, c := range h.conns {
		c.Close(context.Background())
	}
}

func ping(conn *pgx.Conn) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var n int
	return conn.QueryRow(ctx, "SELECT 1").Scan(&n)
}

// connectionURI is the URI of the branch's database through an endpoint, as the
// service gives it (its role and database are the project's defaults).
func (w *world) connectionURI(project, branchID, endpointID string) string {
	w.t.Helper()
	q := url.Values{"branch_id": {branchID}, "endpoint_id": {endpointID}, "database_name": {"neondb"}, "role_name": {"neondb_owner"}}
	req, _ := http.NewRequest("GET", w.srv.URL+"/api/v2/projects/"+project+"/connection_uri?"+q.Encode(), nil)
	req.Header.Set("Authorization", "Bearer "+w.emu.APIKey())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		URI string `json:"uri"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil {
		w.t.Fatalf("connection_uri of %s: %s", endpointID, resp.Status)
	}
	return out.URI
}

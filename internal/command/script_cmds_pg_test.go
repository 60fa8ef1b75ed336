package command

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/emulator/pgcompute"
	"github.com/neonform/neonform/internal/pgtest"
)

// The custom commands and condition of the scripts that run computes as real
// Postgres (registered in scriptCommands and scriptParams):
//
//	[postgres]
//	    the real-Postgres scripts run here: PostgreSQL's server programs are
//	    found, or CI is set (which installs them, so that there a missing
//	    program fails the script instead of skipping it; internal/pgtest).
//	    A script starts with [!postgres] skip.
//	emulator -postgres ...
//	    the emulator's computes are real Postgres, through a proxy of its own
//	    on a free loopback port, in the test binary's one cluster. Use -project
//	    rather than a world file: a branch's databases are named by its id,
//	    which must differ between the scripts sharing the cluster.
//	pghold PROJECT_ID...
//	    holds one connection to every compute of the projects, through the
//	    connection URI the API gives (role neondb_owner, database neondb),
//	    waking the idle ones, until the script ends.
//	pgdropped PLANFILE
//	    checks that exactly the held connections to the computes whose change
//	    in the saved plan drops connections (restart, suspend, recreate,
//	    delete) are gone, and that every other one still answers a query;
//	    prints each endpoint id with "dropped" or "kept", in order.
//	pgconnect FILE ADDRESS
//	    connects with the connection_uri of ADDRESS in FILE (what output -json
//	    -connection-uris printed, e.g. stdout), which must hold no password,
//	    with the role's password from the API (reveal_password), as psql with
//	    PGPASSWORD would, and runs a query.

// scriptCondition answers the scripts' custom conditions.
func scriptCondition(cond string) (bool, error) {
	if cond == "postgres" {
		return pgtest.ComputesRun(), nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// startScriptPostgres starts the proxy of emulator -postgres, closed when the script ends.
func startScriptPostgres(ts *testscript.TestScript) *pgcompute.Proxy {
	cluster, err := pgtest.ComputesCluster()
	ts.Check(err)
	proxy, err := pgcompute.Listen("127.0.0.1:0", cluster)
	ts.Check(err)
	ts.Defer(func() { proxy.Close() })
	return proxy
}

// pgTimeout bounds a connection or a query of pghold and pgdropped: the first
// connection starts the cluster (initdb), which takes seconds on a loaded machine.
const pgTimeout = 2 * time.Minute

func cmdPGHold(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: pghold PROJECT_ID...")
	}
	se := emulatorOf(ts)
	if se.proxy == nil {
		ts.Fatalf("pghold: start the emulator with -postgres")
	}
	for _, project := range args {
		var list api.EndpointsResponse
		se.getJSON(ts, "/projects/"+project+"/endpoints", &list)
		for _, ep := range list.Endpoints {
			se.hold(ts, project, ep)
		}
	}
}

// hold opens a connection to ep through the URI the API gives for it.
func (se *scriptEmulator) hold(ts *testscript.TestScript, project string, ep api.Endpoint) {
	q := url.Values{"branch_id": {ep.BranchID}, "endpoint_id": {ep.ID}, "database_name": {"neondb"}, "role_name": {"neondb_owner"}}
	var uri api.ConnectionURIResponse
	se.getJSON(ts, "/projects/"+project+"/connection_uri?"+q.Encode(), &uri)
	ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, uri.URI)
	if err != nil {
		ts.Fatalf("pghold: connecting to %s: %v", ep.ID, err)
	}
	if se.held == nil {
		se.held = map[string]*pgx.Conn{}
		ts.Defer(func() {
			for _, c := range se.held {
				c.Close(context.Background())
			}
		})
	}
	if old := se.held[ep.ID]; old != nil {
		old.Close(ctx)
	}
	se.held[ep.ID] = conn
}

// getJSON reads path of the emulator's API into v.
func (se *scriptEmulator) getJSON(ts *testscript.TestScript, path string, v any) {
	req, err := http.NewRequest("GET", se.baseURL()+path, nil)
	ts.Check(err)
	req.Header.Set("Authorization", "Bearer "+se.emu.APIKey())
	resp, err := se.srv.Client().Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		ts.Fatalf("GET %s: status %d", path, resp.StatusCode)
	}
	ts.Check(json.NewDecoder(resp.Body).Decode(v))
}

func cmdPGDropped(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pgdropped PLANFILE")
	}
	var plan diff.Plan
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &plan))
	drops := map[string]bool{}
	for _, ch := range plan.Changes {
		if ch.EndpointID != "" && ch.Disruption.DropsConnections() {
			drops[ch.EndpointID] = true
		}
	}
	se := emulatorOf(ts)
	ids := make([]string, 0, len(se.held))
	for id := range se.held {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var wrong []string
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
		var one int
		alive := se.held[id].QueryRow(ctx, "SELECT 1").Scan(&one) == nil
		cancel()
		verdict := map[bool]string{true: "kept", false: "dropped"}[alive]
		fmt.Fprintf(ts.Stdout(), "%s %s\n", id, verdict)
		if alive == drops[id] {
			wrong = append(wrong, fmt.Sprintf("%s %s its connection, but the plan's change to it %s", id, verdict,
				map[bool]string{true: "drops connections", false: "does not drop them"}[drops[id]]))
		}
	}
	if len(wrong) > 0 {
		ts.Fatalf("pgdropped:\n%s", strings.Join(wrong, "\n"))
	}
}

func cmdPGConnect(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: pgconnect FILE ADDRESS")
	}
	var out map[string]outputEntry
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &out))
	e, ok := out[args[1]]
	if !ok || e.ConnectionURI == "" {
		ts.Fatalf("pgconnect: %s has no connection_uri in %s", args[1], args[0])
	}
	cfg, err := pgx.ParseConfig(e.ConnectionURI)
	ts.Check(err)
	if cfg.Password != "" {
		ts.Fatalf("pgconnect: the connection URI of %s holds a password", args[1])
	}
	var pw api.RolePasswordResponse
	emulatorOf(ts).getJSON(ts, "/projects/"+e.ProjectID+"/branches/"+e.BranchID+"/roles/"+cfg.User+"/reveal_password", &pw)
	cfg.Password = pw.Password
	ctx, cancel := context.WithTimeout(context.Background(), pgTimeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		ts.Fatalf("pgconnect: %s: %v", args[1], err)
	}
	defer conn.Close(ctx)
	var db string
	ts.Check(conn.QueryRow(ctx, "SELECT current_database()").Scan(&db))
	fmt.Fprintf(ts.Stdout(), "%s: connected to %s\n", args[1], db)
}

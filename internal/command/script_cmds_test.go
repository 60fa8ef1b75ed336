package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/emulator/pgcompute"
)

// scriptCommands are the custom commands available in testdata/script/*.txtar:
//
//	emulator [-op-delay D] [-faults SPEC] [-fake-clock] [-data FILE] [-rate-limit N/B] [-project ID]...
//	    starts an emulator on a free loopback port for the rest of the script and
//	    sets NEON_API_URL and NEON_API_KEY; each -project ID is created (with its
//	    default branch "main" and primary compute), as the console would.
//	    The emulator enforces no rate limit, and NEONFORM_RATE_LIMIT=off says so
//	    to neonform, unless -rate-limit gives the requests a minute and a
//	    route's burst a second it enforces: then neonform paces as it would
//	    for the service. NEONFORM_POLL_INTERVAL=50ms: the emulator's
//	    operations are short.
//	    -data FILE loads the world from FILE (a world file, e.g. inline in the
//	    script, with fixed ids so golden outputs can name them) and keeps it there.
//	    -postgres backs the computes with real Postgres (script_cmds_pg_test.go).
//	neonapi METHOD PATH [JSON]
//	    calls the emulator's API with the script's key and prints the answer:
//	    out-of-band changes ("someone clicked in the console") and checks.
//	emustats [ROUTE COUNT]...
//	    with no arguments prints the request counts; otherwise checks that each
//	    route ("GET /projects/{project_id}/endpoints") was called COUNT times
//	    since the last emustats -reset (or the start); "total" counts every
//	    request, "status:429" the answers of that status. emustats -reset zeroes them.
//	emuclock DURATION
//	    advances the fake clock (needs emulator -fake-clock).
//	emuactivity ENDPOINT_ID
//	    a client query on the compute: wakes it if idle, counts as activity.
//	jsonset FILE PATH VALUE
//	    edits a JSON file (a plan) by hand: sets the value at PATH.
//	pgholdprojects PROJECT_ID...
//	    holds the locks of projects of the pgstate state; sets LOCK_ID.
//	suggested stdout|stderr [TEXT]
//	    runs, as printed, the first neonform command that the last command's
//	    output suggests (containing TEXT): every suggestion must work pasted.
func scriptCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"emulator":       cmdEmulator,
		"neonapi":        cmdNeonAPI,
		"emustats":       cmdEmuStats,
		"emuclock":       cmdEmuClock,
		"emuactivity":    cmdEmuActivity,
		"scrub":          cmdScrub,          // script_cmds_apply_test.go
		"genconfig":      cmdGenConfig,      // plan_cmds_test.go
		"maxchars":       cmdMaxChars,       // plan_cmds_test.go
		"jsonset":        cmdJSONSet,        // script_cmds_edit_test.go
		"suggested":      cmdSuggested,      // script_cmds_suggested_test.go
		"holdlock":       cmdHoldLock,       // script_cmds_observe_test.go
		"emufaults":      cmdEmuFaults,      // script_cmds_observe_test.go
		"jsonlines":      cmdJSONLines,      // script_cmds_observe_test.go
		"pgstate":        cmdPGState,        // script_cmds_state_test.go
		"pgholdprojects": cmdPGHoldProjects, // script_cmds_state_test.go
		"emuechokey":     cmdEmuEchoKey,     // script_cmds_leaks_test.go
		"pghold":         cmdPGHold,         // script_cmds_pg_test.go
		"pgdropped":      cmdPGDropped,      // script_cmds_pg_test.go
		"pgconnect":      cmdPGConnect,      // script_cmds_pg_test.go
	}
}

// scriptPollInterval is NEONFORM_POLL_INTERVAL in scripts and the other
// tests that run neonform against an emulator whose operations are short.
const scriptPollInterval = "50ms"

// scriptEmulators remembers the emulator each running script started.
var scriptEmulators sync.Map // *testscript.TestScript -> *scriptEmulator

type scriptEmulator struct {
	emu   *emulator.Emulator
	srv   *httptest.Server
	clock *emulator.FakeClock
	// proxy is the Postgres proxy of emulator -postgres (nil without), and
	// held the connections pghold holds, by endpoint id.
	proxy *pgcompute.Proxy
	held  map[string]*pgx.Conn
	// echoKey is the method whose requests are answered 401 echoing their
	// Authorization header (emuechokey); "" for none.
	echoKey atomic.Value
}

func (s *scriptEmulator) baseURL() string { return s.srv.URL + "/api/v2" }

func emulatorOf(ts *testscript.TestScript) *scriptEmulator {
	v, ok := scriptEmulators.Load(ts)
	if !ok {
		ts.Fatalf("no emulator: start one with the emulator command first")
	}
	return v.(*scriptEmulator)
}

func cmdEmulator(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! emulator")
	}
	opts := emulator.Options{APIKey: "napi_scripttestkey0123456789", RatePerMinute: -1}
	var projects []string
	var clock *emulator.FakeClock
	withPostgres := false
	for i := 0; i < len(args); i++ {
		next := func() string {
			i++
			if i >= len(args) {
				ts.Fatalf("emulator: %s needs a value", args[i-1])
			}
			return args[i]
		}
		switch args[i] {
		case "-op-delay":
			d, err := time.ParseDuration(next())
			ts.Check(err)
			opts.OpDelay = d
		case "-faults":
			f, err := emulator.ParseFaults(next())
			ts.Check(err)
			opts.Faults = f
		case "-fake-clock":
			clock = emulator.NewFakeClock(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC))
			opts.Clock = clock
		case "-project":
			projects = append(projects, next())
		case "-data":
			opts.DataFile = ts.MkAbs(next())
		case "-postgres":
			withPostgres = true
		case "-rate-limit":
			_, err := fmt.Sscanf(next(), "%d/%d", &opts.RatePerMinute, &opts.Burst)
			ts.Check(err)
		default:
			ts.Fatalf("emulator: unknown argument %q", args[i])
		}
	}
	var proxy *pgcompute.Proxy
	if withPostgres {
		proxy = startScriptPostgres(ts)
		opts.Postgres = proxy
	}
	emu, err := emulator.New(opts)
	ts.Check(err)
	if proxy != nil {
		go proxy.Serve(emu)
	}
	for _, id := range projects {
		_, err := emu.EnsureProject(id, id)
		ts.Check(err)
	}
	se := &scriptEmulator{emu: emu, clock: clock, proxy: proxy}
	srv := httptest.NewServer(se.echoingKey(emu.Handler()))
	se.srv = srv
	scriptEmulators.Store(ts, se)
	ts.Defer(func() {
		srv.Close()
		emu.Close()
		scriptEmulators.Delete(ts)
	})
	ts.Setenv("NEON_API_URL", se.baseURL())
	ts.Setenv("NEON_API_KEY", emu.APIKey())
	ts.Setenv("NEONFORM_POLL_INTERVAL", scriptPollInterval)
	if opts.RatePerMinute < 0 {
		ts.Setenv("NEONFORM_RATE_LIMIT", "off")
	}
}

func cmdNeonAPI(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: neonapi METHOD PATH [JSON]")
	}
	se := emulatorOf(ts)
	var body io.Reader
	if len(args) == 3 {
		body = strings.NewReader(args[2])
	}
	req, err := http.NewRequest(args[0], se.baseURL()+args[1], body)
	ts.Check(err)
	req.Header.Set("Authorization", "Bearer "+se.emu.APIKey())
	req.Header.Set("Content-Type", "application/json")
	resp, err := se.srv.Client().Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	ts.Check(err)
	var pretty bytes.Buffer
	if json.Indent(&pretty, out, "", "  ") == nil {
		out = pretty.Bytes()
	}
	fmt.Fprintf(ts.Stdout(), "%d\n%s\n", resp.StatusCode, out)
	failed := resp.StatusCode >= 400
	if failed != neg {
		ts.Fatalf("neonapi %s %s: status %d", args[0], args[1], resp.StatusCode)
	}
}

func cmdEmuStats(ts *testscript.TestScript, neg bool, args []string) {
	se := emulatorOf(ts)
	if len(args) == 1 && args[0] == "-reset" {
		se.emu.ResetStats()
		return
	}
	st := se.emu.Stats()
	if len(args) == 0 {
		routes := make([]string, 0, len(st.Requests))
		for r := range st.Requests {
			routes = append(routes, r)
		}
		sort.Strings(routes)
		for _, r := range routes {
			fmt.Fprintf(ts.Stdout(), "%s %d\n", r, st.Requests[r])
		}
		fmt.Fprintf(ts.Stdout(), "total %d\n", st.Total)
		return
	}
	if len(args)%2 != 0 {
		ts.Fatalf("usage: emustats [ROUTE COUNT]...")
	}
	for i := 0; i < len(args); i += 2 {
		want, err := strconv.ParseInt(args[i+1], 10, 64)
		ts.Check(err)
		got := st.Requests[args[i]]
		if args[i] == "total" {
			got = st.Total
		}
		if status, ok := strings.CutPrefix(args[i], "status:"); ok {
			got = st.Statuses[status]
		}
		if (got == want) == neg {
			ts.Fatalf("%s was called %d times, want %d", args[i], got, want)
		}
	}
}

func cmdEmuClock(ts *testscript.TestScript, neg bool, args []string) {
	se := emulatorOf(ts)
	if se.clock == nil || len(args) != 1 {
		ts.Fatalf("usage: emuclock DURATION (after emulator -fake-clock)")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	se.clock.Advance(d)
}

func cmdEmuActivity(ts *testscript.TestScript, neg bool, args []string) {
	se := emulatorOf(ts)
	if len(args) != 1 {
		ts.Fatalf("usage: emuactivity ENDPOINT_ID")
	}
	resp, err := se.srv.Client().Post(se.srv.URL+"/_emulator/activity/"+args[0], "application/json", nil)
	ts.Check(err)
	resp.Body.Close()
	if (resp.StatusCode >= 400) != neg {
		ts.Fatalf("emuactivity %s: status %d", args[0], resp.StatusCode)
	}
}

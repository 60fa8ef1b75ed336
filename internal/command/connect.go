package command

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
)

// connection is how a command reaches the service: the client, the URL it
// talks to (the one plan files record), and the sandbox behind it if embedded.
type connection struct {
	client  *api.Client
	apiURL  string // "embedded" for the sandbox, as the user wrote it
	orgID   string // the organization of the run: NEON_ORG_ID, else org_id; "" for none
	sandbox *sandbox
	budget  func() // closes the shared rate budget (budget.go), if any
}

func (c *connection) Close() {
	if c.budget != nil {
		c.budget()
	}
	if c.sandbox != nil {
		c.sandbox.Close()
	}
}

// environment is what a command reads from the process environment, and the
// flags every command takes that decide how it talks (-no-color, -debug);
// tests fill it directly.
type environment struct {
	vars map[string]string
	list []string
	// noColor is -no-color; debug is -debug (debuglog.go); noLock is
	// -lock=false (lock_timeout.go).
	noColor, debug, noLock bool
}

func newEnvironment(environ []string) environment {
	e := environment{vars: map[string]string{}, list: environ}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			e.vars[k] = v
		}
	}
	return e
}

func (e environment) get(name string) string { return e.vars[name] }

// apiURLOf is the URL a configuration talks to: NEON_API_URL overrides api_url.
func apiURLOf(cfg *config.Config, env environment) string {
	if u := fromEnvURL(env); u != "" {
		return u
	}
	if cfg.Settings.APIURL != "" {
		return cfg.Settings.APIURL
	}
	return config.DefaultAPIURL
}

// fromEnvURL is NEON_API_URL, "" when unset.
func fromEnvURL(env environment) string { return env.get("NEON_API_URL") }

// connect builds the client for a configuration. With api_url = "embedded" it
// starts the sandbox and creates what the configuration names; otherwise a
// missing NEON_API_KEY is an error before any call. waitTimeout is
// -wait-timeout (0: not given); a long wait is said on notes.
func connect(cfg *config.Config, env environment, notes io.Writer, waitTimeout time.Duration) (*connection, error) {
	apiURL := apiURLOf(cfg, env)
	if u := fromEnvURL(env); u != "" {
		// api_url was checked with the configuration, where an error points
		// at the file; a URL from the environment is checked here, and the
		// error says it came from there.
		if summary, detail, near := config.CheckAPIURL("NEON_API_URL", u); summary != "" {
			return nil, fmt.Errorf("%s: NEON_API_URL=%s, set in the environment, overrides api_url in the configuration. %s", summary, api.ShownURL(u), near.In(detail))
		}
	}
	conn := &connection{apiURL: apiURL}
	key := env.get("NEON_API_KEY")
	base := apiURL
	if apiURL == config.EmbeddedAPIURL {
		sb, err := startSandbox(sandboxDir(cfg), notes)
		if err != nil {
			return nil, err
		}
		diags, err := sb.ensure(cfg, notes)
		if err == nil && diags.HasErrors() {
			printDiagnostics(notes, diags, cfg.Files, env)
			err = reported(diags)
		}
		if err != nil {
			sb.Close()
			return nil, err
		}
		conn.sandbox, base, key = sb, sb.url, sandboxKey
	} else if key == "" {
		return nil, fmt.Errorf("NEON_API_KEY is not set: create an API key in the console (Account settings, API keys) and run\n  export NEON_API_KEY=<key>\nor try neonform offline with api_url = \"embedded\" in the neonform block (or NEON_API_URL=embedded)")
	}
	orgID, err := orgIDOf(cfg, env)
	if err != nil {
		conn.Close()
		return nil, err
	}
	conn.orgID = orgID
	opts := api.Options{BaseURL: base, APIKey: key, OrgID: orgID, UserAgent: "neonform/" + version, HTTPClient: httpClient()}
	if conn.sandbox != nil {
		opts.RatePerMinute = -1 // the sandbox serves this neonform alone, with no limit
		// Its operations take no time: poll them soon.
		opts.PollInterval = sandboxPollInterval
	}
	if opts.WaitTimeout, err = waitTimeoutFrom(waitTimeout, env); err != nil {
		conn.Close()
		return nil, err
	}
	if err := pollIntervalFromEnv(env, &opts); err != nil {
		conn.Close()
		return nil, err
	}
	if notes != nil {
		opts.OnWait = waitNote(notes)
	}
	if err := rateLimitFromEnv(env, &opts); err != nil {
		conn.Close()
		return nil, err
	}
	if debug, err := wantDebugLog(env); err != nil {
		conn.Close()
		return nil, err
	} else if debug {
		opts.Log = debugLog{w: notes}
	}
	if conn.budget, err = shareBudget(cfg, &opts, notes); err != nil {
		conn.Close()
		return nil, err
	}
	client, err := api.New(opts)
	if err != nil {
		conn.Close()
		return nil, err
	}
	conn.client = client
	return conn, nil
}

// rateLimitFromEnv reads NEONFORM_RATE_LIMIT, the limits requests are paced
// under: "off", "PER_MINUTE" or "PER_MINUTE/BURST" (the service's: 700/40).
// For an account whose limits differ, two runs that share one account's
// budget, or an emulator that enforces none.
func rateLimitFromEnv(env environment, opts *api.Options) error {
	v := strings.TrimSpace(env.get("NEONFORM_RATE_LIMIT"))
	if v == "" {
		return nil
	}
	if v == "off" {
		opts.RatePerMinute = -1
		return nil
	}
	perMinute, burst, hasBurst := strings.Cut(v, "/")
	m, err := strconv.Atoi(perMinute)
	b := api.DefaultBurst
	if err == nil && hasBurst {
		b, err = strconv.Atoi(burst)
	}
	if err != nil || m < 1 || b < 1 {
		return fmt.Errorf("NEONFORM_RATE_LIMIT=%q: give the requests a minute the account may send, and optionally a route's burst a second, "+
			"as whole numbers (the service's limits are 700/40), or \"off\" not to pace requests", v)
	}
	opts.RatePerMinute, opts.Burst = m, b
	return nil
}

// sandboxPollInterval is how often the embedded sandbox's operations are
// polled: they take no time.
const sandboxPollInterval = 50 * time.Millisecond

// pollIntervalFromEnv reads NEONFORM_POLL_INTERVAL, the longest pause between
// two polls of operations, which is also how long an operation is expected
// to take before one was seen to finish (docs/limits.md, "Requests are
// paced"): for an emulator whose operations take no time, which tests run.
func pollIntervalFromEnv(env environment, opts *api.Options) error {
	v := strings.TrimSpace(env.get("NEONFORM_POLL_INTERVAL"))
	if v == "" {
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("NEONFORM_POLL_INTERVAL=%q: give the longest pause between two polls of operations as a duration, e.g. 50ms or 2s, or leave it unset for %s", v, api.DefaultPollInterval)
	}
	opts.PollInterval = d
	return nil
}

// maxIdlePerHost is how many connections to the service stay open between
// requests: more than -parallelism ever asks for at once. Go's default keeps
// two, so with more projects read in parallel every other request would open
// (and, against the real service, handshake) a new connection.
const maxIdlePerHost = 64

// httpClient is the client's HTTP client: Go's default transport keeping
// enough idle connections, and no redirects followed, so the API key is never
// sent anywhere but the API URL (what api.New builds when given none).
func httpClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = maxIdlePerHost
	return &http.Client{
		Transport: t,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// statePath is where the configuration's state file lives.
func statePath(cfg *config.Config) string { return cfg.StateFile() }

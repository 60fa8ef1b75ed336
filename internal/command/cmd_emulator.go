package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/apiurl"
)

// defaultEmulatorAddr is a fixed port on loopback, so the URL a newcomer copies
// from docs/emulator.md works; tests and parallel runs pass -addr 127.0.0.1:0.
const defaultEmulatorAddr = "127.0.0.1:5454"

// defaultPostgresAddr is the Postgres proxy's port beside it (-postgres): not
// 5432, which a local Postgres may hold.
const defaultPostgresAddr = "127.0.0.1:5455"

// defaultAvailabilityChecks is the chance of an availability check at a change to
// a project with an idle compute, by default: now and then, as the service's.
const defaultAvailabilityChecks = 0.02

func emulatorCommand() *cli.Command {
	return &cli.Command{
		Name:      "emulator",
		Usage:     "run a local emulator of the service API, for trying neonform and for tests",
		UsageText: "neonform emulator [-addr HOST:PORT [-allow-remote]] [-data FILE] [-api-key KEY] [-op-delay D] [-latency D] [-faults SPEC] [-availability-checks R] [-rate-limit N] [-burst N] [-fake-clock] [-postgres [-postgres-addr HOST:PORT]] [-quiet]",
		Description: `Serves the hosted-Postgres service's API (Neon API v2) under /api/v2 on this
machine, with the service's rules: projects with a default branch and its
read_write compute, one read_write compute per branch, the compute sizes,
states (init, active, idle after the suspend timeout), operations that lock
their project (423), API keys (401), the rate limit (429: 700 requests a
minute per account, bursts of 40 a second per route). No account, no
network. Point neonform at it with NEON_API_URL and NEON_API_KEY.

The first line of standard output is the API's base URL, so a script can read
it; when no -api-key is given, the second is the generated key, shown this once:
   http://127.0.0.1:5454/api/v2
   NEON_API_KEY=napi_...
Requests are logged on standard error (never the key). Ctrl-C or SIGTERM stops
the emulator and writes the data file; a second one, or one while the world
loads, stops it at once.

-data FILE keeps the world (users, keys as hashes, projects, branches,
endpoints, operations) in FILE, written after every change, so a restarted
emulator carries on. A hand-written FILE seeds a world with fixed ids: its
format is in emulator/README.md. FILE must be a regular file (or a link to
one) of at most 256 MiB: a device or a named pipe is refused.

-faults SPEC injects failures into a share of the API requests, to see how a
client copes. SPEC is a comma-separated list of KIND=RATE, rates from 0 to 1:
   5xx=R          answer 503 without doing anything
   429=R[:D]      answer 429 Too Many Requests, with Retry-After D (default 1s)
   423=R          answer 423 Locked, as when operations run
   drop=R         do the request, then drop the connection without an answer
                  (the case that tempts a client to create twice)
   latency=R:D    delay a request by the duration D (e.g. latency=0.2:500ms)
   seed=N         seed of the draws: the same seed gives the same faults
5xx, 429, 423 and drop exclude each other, so their rates add up to 1 at most.

-postgres backs every compute with real Postgres (PostgreSQL's server programs,
found under /usr/lib/postgresql/*/bin or on PATH): one server, started on the
first connection, a database per branch (a new branch starts with a copy of its
parent's), and a proxy on -postgres-addr that the API's connection URIs name.
A connection wakes an idle compute; a restart or suspend drops its connections;
pg_settings apply to every session; a read replica refuses writes; a disabled
compute refuses connections. Without the programs it says so and runs as without.

-availability-checks R (default 0.02) is the chance that a change to a project
with an idle compute meets the service's availability check of that compute:
a check_availability operation, and 423 until it is over (-op-delay long), as
real idle computes cause now and then. 0 turns the checks off.

Test hooks, outside /api/v2 and without a key:
   GET  /_emulator/stats                     requests by route and by status
   POST /_emulator/activity/ENDPOINT_ID      a client query: wakes an idle compute
   POST /_emulator/clock/advance?by=5m       move time (with -fake-clock)
   PUT  /_emulator/faults?spec=SPEC          change the faults

Examples:
   neonform emulator
   neonform emulator -data world.json -api-key napi_dev
   neonform emulator -addr 127.0.0.1:0 -op-delay 0 -rate-limit 0
   neonform emulator -faults 5xx=0.05,drop=0.05,latency=0.1:300ms,seed=7
   neonform emulator -postgres
   NEON_API_URL=http://127.0.0.1:5454/api/v2 NEON_API_KEY=napi_dev neonform plan`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: defaultEmulatorAddr, Usage: "listen on `HOST:PORT`, a loopback address unless -allow-remote; port 0 picks a free one"},
			&cli.BoolFlag{Name: "allow-remote", Usage: "let -addr be an address other machines may reach (keys would cross the network in clear text)"},
			&cli.StringFlag{Name: "data", Usage: "load the world from `FILE` and keep it there (default: memory only)"},
			&cli.StringFlag{Name: "api-key", Usage: "the console `KEY` of the first user (default: generate one and print it)"},
			&cli.DurationFlag{Name: "op-delay", Value: 2 * time.Second, Usage: "how long (`DURATION`) each operation runs; the project answers 423 meanwhile"},
			&cli.DurationFlag{Name: "latency", Usage: "delay (`DURATION`) added to every API request"},
			&cli.StringFlag{Name: "faults", Usage: "inject failures (`SPEC`), e.g. 5xx=0.05,drop=0.05 (see above)"},
			&cli.Float64Flag{Name: "availability-checks", Value: defaultAvailabilityChecks, Usage: "chance (`R`, 0 to 1) that a change to a project with an idle compute meets an availability check (423); 0 for none"},
			&cli.IntFlag{Name: "rate-limit", Value: 700, Usage: "requests (`N`) an account (all its keys and routes) may send in any minute before 429; 0 turns the limit off"},
			&cli.IntFlag{Name: "burst", Value: 40, Usage: "requests (`N`) an account may send to one route in any second before 429"},
			&cli.BoolFlag{Name: "fake-clock", Usage: "stop time; move it with POST /_emulator/clock/advance?by=DURATION"},
			&cli.BoolFlag{Name: "postgres", Usage: "back the computes with real Postgres, reached through a local proxy (see above)"},
			&cli.StringFlag{Name: "postgres-addr", Value: defaultPostgresAddr, Usage: "where (`HOST:PORT`) the Postgres proxy of -postgres listens, a loopback address unless -allow-remote"},
			&cli.BoolFlag{Name: "quiet", Usage: "do not log requests on standard error"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("emulator takes no arguments, got %q; use flags, e.g. neonform emulator -data world.json", c.Args().First())
			}
			if os.Getenv("GOGC") == "" {
				// main trades memory for CPU for short commands; a server that runs
				// for hours keeps Go's default (docs/PERFORMANCE.md).
				debug.SetGCPercent(100)
			}
			return runEmulator(c.Context, emulatorOptions{
				Addr:         c.String("addr"),
				DataFile:     c.String("data"),
				APIKey:       c.String("api-key"),
				OpDelay:      c.Duration("op-delay"),
				Latency:      c.Duration("latency"),
				Faults:       c.String("faults"),
				Checks:       c.Float64("availability-checks"),
				RateLimit:    c.Int("rate-limit"),
				Burst:        c.Int("burst"),
				FakeClock:    c.Bool("fake-clock"),
				Quiet:        c.Bool("quiet"),
				AllowRemote:  c.Bool("allow-remote"),
				Postgres:     c.Bool("postgres"),
				PostgresAddr: c.String("postgres-addr"),
				Stdout:       c.App.Writer,
				Stderr:       c.App.ErrWriter,
			})
		},
	}
}

// emulatorOptions are the inputs of neonform emulator.
type emulatorOptions struct {
	Addr     string
	DataFile string
	APIKey   string
	OpDelay  time.Duration
	Latency  time.Duration
	Faults   string
	// Checks is -availability-checks: the chance of an availability check.
	Checks    float64
	RateLimit int // a minute, per account; 0 = off
	Burst     int // a second, per account and route
	FakeClock bool
	Quiet     bool
	// AllowRemote lets -addr be an address other machines may reach.
	AllowRemote bool
	// Postgres backs the computes with real Postgres, through a proxy on PostgresAddr.
	Postgres     bool
	PostgresAddr string
	Stdout       io.Writer
	Stderr       io.Writer
	// Load and Save build the emulator, loading the data file, and save its
	// world when it stops (nil: emulator.New and Close). Tests give ones that
	// wait, to send a signal during either.
	Load func(emulator.Options) (*emulator.Emulator, error)
	Save func(*emulator.Emulator) error
}

// runEmulator serves until ctx ends (Ctrl-C), then writes the data file. It takes its
// address before it loads the world: an emulator that cannot listen leaves the data
// file as it found it. A stop signal ends every phase: loading (a large world file),
// serving, and saving, where it is the second one, the first having asked for the
// save (docs/security.md).
func runEmulator(ctx context.Context, o emulatorOptions) error {
	opts, err := o.emulatorOptions()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w; choose another port with -addr, or -addr 127.0.0.1:0 for a free one", o.Addr, err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.IsLoopback() {
		if !o.AllowRemote {
			ln.Close()
			return fmt.Errorf("-addr %s listens on %s, which is not loopback; %s", o.Addr, addr.IP, remoteAdvice)
		}
		fmt.Fprintf(o.Stderr, "Warning: listening on %s, which other machines may reach: requests and keys travel in clear text. neonform itself sends keys over http:// only to loopback.\n", addr)
	}
	var pg *emulatorPostgres
	if o.Postgres {
		var note string
		if pg, note, err = startEmulatorPostgres(o.PostgresAddr, o.AllowRemote); err != nil {
			ln.Close()
			return err
		}
		if note != "" {
			fmt.Fprintln(o.Stderr, note)
		}
	}
	if pg != nil {
		opts.Postgres = pg.proxy
		defer pg.stop()
	}
	stops := make(chan os.Signal, 2)
	signal.Notify(stops, stopSignals...)
	defer signal.Stop(stops)

	emu, err := o.loadWorld(ctx, stops, opts)
	if err != nil {
		ln.Close()
		return err
	}
	base := "http://" + printableHost(addr) + "/api/v2"
	o.printIntro(base, emu.APIKey())
	if pg != nil {
		pg.serve(emu)
		fmt.Fprint(o.Stdout, pg.intro())
	}

	srv := &http.Server{Handler: emu.Handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	signals := 0
	select {
	case err = <-served:
	case <-ctx.Done():
	case <-stops:
		signals++
	}
	saved := make(chan error, 1)
	go func(err error) { // Serve's error, if it ended by itself
		if err == nil {
			shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err = srv.Shutdown(shutdown)
			cancel()
		}
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		if cerr := o.save(emu); cerr != nil && err == nil {
			err = cerr
		}
		saved <- err
	}(err)
	for {
		select {
		case err = <-saved:
			if err == nil {
				where := "the world was in memory only and is gone"
				if o.DataFile != "" {
					where = "the world is saved in " + o.DataFile
				}
				fmt.Fprintf(o.Stderr, "Emulator stopped; %s.\n", where)
			}
			return err
		case sig := <-stops:
			// The first signal (seen here when ctx saw it first) asked for this save.
			if signals++; signals < 2 {
				continue
			}
			msg := fmt.Sprintf("Received %s again: the emulator stopped without waiting for the world to be saved.", sig)
			if o.DataFile != "" {
				msg += " " + o.DataFile + " holds the world as of its last complete write."
			}
			return &exitError{code: 1, msg: msg}
		}
	}
}

// loadWorld builds the emulator, loading the data file, unless a stop signal
// comes first (a world file may be large): the emulator then stops, and the
// data file stays as it was.
func (o emulatorOptions) loadWorld(ctx context.Context, stops <-chan os.Signal, opts emulator.Options) (*emulator.Emulator, error) {
	type loaded struct {
		emu *emulator.Emulator
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		emu, err := o.load(opts)
		done <- loaded{emu, err}
	}()
	stopped := ""
	select {
	case l := <-done:
		return l.emu, l.err
	case <-ctx.Done():
		stopped = "Interrupted"
	case sig := <-stops:
		stopped = "Received " + sig.String()
	}
	return nil, &exitError{code: 1, msg: stopped + " while the emulator was loading its world: it stopped without serving."}
}

func (o emulatorOptions) load(opts emulator.Options) (*emulator.Emulator, error) {
	if o.Load != nil {
		return o.Load(opts)
	}
	return emulator.New(opts)
}

func (o emulatorOptions) save(e *emulator.Emulator) error {
	if o.Save != nil {
		return o.Save(e)
	}
	return e.Close()
}

// emulatorOptions checks the flags and turns them into the emulator's options.
func (o emulatorOptions) emulatorOptions() (emulator.Options, error) {
	faults, err := emulator.ParseFaults(o.Faults)
	if err != nil {
		return emulator.Options{}, fmt.Errorf("-faults: %w", err)
	}
	if err := emulator.CheckAvailabilityRate(o.Checks); err != nil {
		return emulator.Options{}, fmt.Errorf("-availability-checks: %w", err)
	}
	if o.OpDelay < 0 || o.Latency < 0 {
		return emulator.Options{}, errors.New("-op-delay and -latency cannot be negative; use 0 for none")
	}
	if o.RateLimit < 0 {
		return emulator.Options{}, fmt.Errorf("-rate-limit %d: give requests a minute (the service allows 700), or 0 to turn the limit off", o.RateLimit)
	}
	if o.Burst < 1 {
		return emulator.Options{}, fmt.Errorf("-burst %d: give how many requests an account may send to one route in a second, 1 or more (the service allows 40)", o.Burst)
	}
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return emulator.Options{}, fmt.Errorf("-addr %q is not HOST:PORT, e.g. 127.0.0.1:5454 (or port 0 for a free one)", o.Addr)
	}
	if !o.AllowRemote && !apiurl.Loopback(host) {
		where := host
		if where == "" {
			where = "every interface"
		}
		return emulator.Options{}, fmt.Errorf("-addr %s would listen on %s, which other machines may reach; %s", o.Addr, where, remoteAdvice)
	}
	opts := emulator.Options{APIKey: o.APIKey, DataFile: o.DataFile, OpDelay: o.OpDelay, Latency: o.Latency,
		Faults: faults, AvailabilityChecks: o.Checks, RatePerMinute: o.RateLimit, Burst: o.Burst}
	if o.RateLimit == 0 {
		opts.RatePerMinute = -1
	}
	if o.FakeClock {
		opts.Clock = emulator.NewFakeClock(time.Now().Truncate(time.Second))
	}
	if !o.Quiet {
		opts.Log = o.Stderr
	}
	return opts, nil
}

// remoteAdvice ends the refusal of an address beyond loopback (docs/emulator.md).
const remoteAdvice = "the API key would cross the network in clear text (plain http). Use 127.0.0.1 (the default) or [::1], or add -allow-remote if other machines are meant to reach it"

// printIntro writes the base URL first (scripts read that line), then the key if
// it was generated (only then: a key given with -api-key is already known), then
// how to use it.
func (o emulatorOptions) printIntro(base, key string) {
	w := o.Stdout
	fmt.Fprintln(w, base)
	keyRef := "<the key given with -api-key>"
	if o.APIKey == "" {
		fmt.Fprintf(w, "NEON_API_KEY=%s\n", key)
		keyRef = "<the key above>"
	}
	data := "memory only (use -data FILE to keep it)"
	if o.DataFile != "" {
		data = o.DataFile
	}
	fmt.Fprintf(w, `
The service's API is emulated at the URL above. World: %s; operations take %s.
Try it:
   export NEON_API_URL=%s NEON_API_KEY=%s
   curl -H "Authorization: Bearer $NEON_API_KEY" $NEON_API_URL/projects
   curl -H "Authorization: Bearer $NEON_API_KEY" -H "Content-Type: application/json" \
        -d '{"project":{"name":"shop"}}' $NEON_API_URL/projects
Request counts: %s/_emulator/stats
Stop with Ctrl-C.
`, data, o.OpDelay, base, keyRef, base[:len(base)-len("/api/v2")])
}

// printableHost is the address to print: an unspecified IP (listening on all
// interfaces) is reached through loopback.
func printableHost(addr *net.TCPAddr) string {
	ip := addr.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(addr.Port))
}

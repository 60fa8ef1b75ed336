package command

import (
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/urfave/cli/v2"
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
		Name:        "emulator",
		Usage:       "run a local emulator of the service API, for trying neonform and for tests",
		UsageText:   "neonform emulator [-addr HOST:PORT [-allow-remote]] [-data FILE] [-api-key KEY] [-op-delay D] [-latency D] [-faults SPEC] [-availability-checks R] [-rate-limit N] [-burst N] [-fake-clock] [-postgres [-postgres-addr HOST:PORT]] [-quiet]",
		Description: emulatorDescription,
		Flags:       emulatorFlags(),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("emulator takes no arguments, got %q; use flags, e.g. neonform emulator -data world.json", c.Args().First())
			}
			if os.Getenv("GOGC") == "" {
				// main trades memory for CPU for short commands; a server that runs
				// for hours keeps Go's default (docs/PERFORMANCE.md).
				debug.SetGCPercent(100)
			}
			return runEmulator(c.Context, emulatorOptionsFrom(c))
		},
	}
}

// emulatorFlags are the emulator's flags; the help text above explains
// each.
func emulatorFlags() []cli.Flag {
	return []cli.Flag{
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
	}
}

// emulatorOptionsFrom reads the emulator's flags.
func emulatorOptionsFrom(c *cli.Context) emulatorOptions {
	return emulatorOptions{
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
	}
}

const emulatorDescription = `Serves the hosted-Postgres service's API (Neon API v2) under /api/v2 on this
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
compute refuses connections. The proxy's port also answers SQL over HTTP (POST
/sql), as the service's serverless driver and MCP server send it. With -data
FILE the data is kept beside FILE (world.postgres for world.json) when the
emulator stops, and is there again at the next start. Without the programs it
says so and runs as without.

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
   NEON_API_URL=http://127.0.0.1:5454/api/v2 NEON_API_KEY=napi_dev neonform plan`

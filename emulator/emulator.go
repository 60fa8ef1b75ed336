package emulator

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/sizing"
)

// Options configure an Emulator. The zero value is a memory-only emulator on real time
// whose operations finish at once, with the service's rate limit and no faults.
type Options struct {
	// APIKey is the console key of the first user (a personal key). "" generates one;
	// read it with APIKey. With a data file, a key not yet in it is added to it.
	APIKey string
	// DataFile is where the world is kept: "" is memory only; otherwise the world is
	// loaded from it if it exists, and written atomically after every change.
	DataFile string
	// OpDelay is how long each operation runs. Operations of one call run one after
	// another, so a call that starts two finishes after 2*OpDelay. 0 (the default)
	// finishes them at once: the answer of the call still shows them running, as the
	// service does, and the next read shows them finished.
	OpDelay time.Duration
	// Latency is added to every API request.
	Latency time.Duration
	// Faults are failures injected at given rates; see ParseFaults.
	Faults Faults
	// Clock is nil for real time; tests pass a *FakeClock.
	Clock Clock
	// RatePerMinute is how many requests an account (all its keys, all routes) may
	// send in any minute: 0 is the service's 700; < 0 turns the rate limit off.
	RatePerMinute int
	// Burst is how many requests an account may send to one route in any second: 0
	// is the service's 40.
	Burst int
	// RateMinute is how long the rate limit's minute lasts: 0 is a minute, and a
	// route's second is a sixtieth of it. Tests shrink it (with the client's
	// api.Options.RateMinute) to run an apply of many requests at the service's
	// ratio of requests to time in a fraction of the time.
	RateMinute time.Duration
	// AvailabilityChecks is the chance, from 0 (the default: none) to 1, that a change
	// to a project with an idle compute meets the control plane's check of it
	// (availability.go): a check_availability operation, and 423 until it is over.
	AvailabilityChecks float64
	// Log, if set, gets one line per API request. It never holds a key.
	Log io.Writer
	// Postgres, if set, backs the computes with real Postgres (sessions.go).
	Postgres Postgres
}

// Emulator is a running emulated service. Serve its Handler over HTTP.
type Emulator struct {
	opts       Options
	clock      Clock
	fake       *FakeClock
	w          *world
	ids        *idSource
	router     *router
	hooks      http.Handler
	counters   *counters
	dice       atomic.Pointer[faultDice]
	checks     atomic.Pointer[availability]
	limits     atomic.Pointer[limiter] // nil: no rate limit
	opDelay    atomic.Int64            // Options.OpDelay, SetTiming
	latency    atomic.Int64            // Options.Latency, SetTiming
	consoleKey string

	sessions sessions // client connections to computes (sessions.go)

	saves saver // writes of the data file
	logMu sync.Mutex
}

// New builds an emulator: it loads opts.DataFile if it exists, or starts a new world
// with one user (the console user) in one organization, where the user is admin.
func New(opts Options) (*Emulator, error) {
	if opts.OpDelay < 0 || opts.Latency < 0 || opts.RateMinute < 0 {
		return nil, errors.New("emulator: OpDelay, Latency and RateMinute cannot be negative")
	}
	e := &Emulator{opts: opts, clock: opts.Clock, ids: newIDSource(), counters: newCounters()}
	e.saves.done = sync.NewCond(&e.saves.mu)
	if e.clock == nil {
		e.clock = realClock{}
	}
	e.fake, _ = e.clock.(*FakeClock)
	e.SetTiming(opts.OpDelay, opts.Latency)
	e.SetRateLimit(opts.RatePerMinute, opts.Burst)
	e.dice.Store(newFaultDice(opts.Faults))
	if err := e.SetAvailabilityChecks(opts.AvailabilityChecks); err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	e.router = e.routes()
	e.hooks = e.hookRoutes()

	now := e.clock.Now()
	var err error
	if opts.DataFile != "" {
		// Temporary files of writes that a killed emulator left behind; those
		// of a running one (another run sharing a sandbox) are left alone.
		if err := atomicfile.RemoveStale(opts.DataFile); err != nil {
			return nil, fmt.Errorf("emulator: %w", err)
		}
		e.w, err = loadWorldFile(opts.DataFile, now)
		if err != nil {
			return nil, err
		}
	}
	if e.w == nil {
		e.w = e.newDefaultWorld(now)
	}
	if err := e.addConsoleKey(opts.APIKey, now); err != nil {
		return nil, err
	}
	if err := e.save(); err != nil {
		return nil, err
	}
	return e, nil
}

// newDefaultWorld is a new account: one paid user, admin of one organization.
func (e *Emulator) newDefaultWorld(now time.Time) *world {
	w := newWorld()
	u := &user{ID: e.ids.uuid(), Name: "Console User", Email: "console@example.com", Tier: sizing.Paid}
	w.users[u.ID] = u
	w.firstUser = u.ID
	o := &org{ID: e.ids.orgID(), Name: "My Organization", Tier: sizing.Paid, Members: map[string]orgRole{u.ID: roleAdmin}, CreatedAt: now}
	w.orgs[o.ID] = o
	return w
}

// addConsoleKey makes sure the console key exists: the first key, made in the console.
func (e *Emulator) addConsoleKey(secret string, now time.Time) error {
	if secret == "" {
		secret = newSecret()
	}
	if strings.ContainsAny(secret, " \t\r\n") {
		return errors.New("emulator: the API key cannot contain spaces or line breaks")
	}
	e.consoleKey = secret
	w := e.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if k := w.keys[hashSecret(secret)]; k != nil {
		if k.Revoked {
			return errors.New("emulator: the API key given was revoked in the data file; revocation is permanent, start with another key")
		}
		return nil
	}
	if w.users[w.firstUser] == nil {
		return errors.New("emulator: the world has no user to own the console key; add one to \"users\"")
	}
	w.addKey(&apiKey{Name: "console", Kind: keyPersonal, Hash: hashSecret(secret), UserID: w.firstUser,
		CreatedBy: w.firstUser, CreatedAt: now})
	return nil
}

// addKey gives a key its id and stores it. Caller holds w.mu for writing.
func (w *world) addKey(k *apiKey) {
	if k.ID == 0 {
		k.ID = w.nextKeyID
	}
	if k.ID >= w.nextKeyID {
		w.nextKeyID = k.ID + 1
	}
	w.keys[k.Hash] = k
	w.keysByID[k.ID] = k
}

// Handler serves the API under /api/v2 and the test hooks under /_emulator.
func (e *Emulator) Handler() http.Handler { return e }

// APIKey returns the console key: a personal key of the first user.
func (e *Emulator) APIKey() string { return e.consoleKey }

// SetFaults changes the injected faults from now on.
func (e *Emulator) SetFaults(f Faults) { e.dice.Store(newFaultDice(f)) }

// Stats returns the request counters, as GET /_emulator/stats does.
func (e *Emulator) Stats() Stats { return e.counters.snapshot() }

// ResetStats sets the request counters to zero.
func (e *Emulator) ResetStats() { e.counters.reset() }

// Close writes the data file one last time (with the keys' last use).
func (e *Emulator) Close() error { return e.save() }

// EnsureProject makes sure a project with this id exists, owned by the first user. A new
// one is created as the service creates projects: with a default branch "main" and its
// read_write compute, started by operations that take OpDelay.
func (e *Emulator) EnsureProject(id, name string) (bool, error) {
	return e.ensureProject(id, name, e.clock.Now())
}

// idleProjectAge is how long ago EnsureIdleProject dates a new project: longer than
// its operations and the default suspend timeout (5 minutes) together.
const idleProjectAge = time.Hour

// EnsureIdleProject is EnsureProject for a project made a while ago and not used since,
// as the embedded sandbox makes them: its operations are over and its primary compute
// has scaled to zero (nobody connects to a sandbox), as a project created in the console
// earlier would have. So the first plan of a configuration whose primary may not be
// restarted while active (lifecycle.allow_restart = false) works at once, instead of
// after the suspend timeout.
func (e *Emulator) EnsureIdleProject(id, name string) (bool, error) {
	return e.ensureProject(id, name, e.clock.Now().Add(-idleProjectAge))
}

func (e *Emulator) ensureProject(id, name string, at time.Time) (bool, error) {
	if !validID(id) {
		return false, fmt.Errorf("emulator: project id %q must be 1 to 60 lowercase letters, digits or dashes", id)
	}
	if e.w.project(id) != nil {
		return false, nil
	}
	e.w.mu.RLock()
	owner := e.w.users[e.w.firstUser]
	e.w.mu.RUnlock()
	if owner == nil {
		return false, errors.New("emulator: the world has no user to own the project")
	}
	if name == "" {
		name = id
	}
	_, err := e.newProject(projectSpec{id: id, name: name, ownerID: owner.ID, tier: owner.Tier, creationSource: "console",
		region: defaultRegion, pgVersion: defaultPgVersion, retention: defaultRetention, branchName: "main", compute: defaultCompute()},
		at)
	if err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.status == http.StatusConflict {
			return false, nil // created meanwhile by another caller
		}
		return false, fmt.Errorf("emulator: %w", err)
	}
	return true, e.save()
}

// SetProjectTier puts a project's account on a plan (plans.go): on free, computes
// above 2 CU are refused, and so are suspend timeouts other than 5 minutes.
func (e *Emulator) SetProjectTier(projectID string, tier sizing.Tier) error {
	if _, err := parseTier(tier, ""); err != nil || tier == "" {
		return fmt.Errorf("emulator: tier %q is not %s", tier, tierList())
	}
	p := e.w.project(projectID)
	if p == nil {
		return fmt.Errorf("emulator: project %s not found", projectID)
	}
	p.mu.Lock()
	p.Tier = tier
	p.mu.Unlock()
	return e.save()
}

// EnsureBranch makes sure the project has a branch with this name and returns it. A new
// branch is a child of the default branch without computes (as POST /branches without
// endpoints makes it).
func (e *Emulator) EnsureBranch(projectID, name string) (api.Branch, bool, error) {
	p := e.w.project(projectID)
	if p == nil {
		return api.Branch{}, false, fmt.Errorf("emulator: project %s not found; create it first with EnsureProject", projectID)
	}
	now := e.clock.Now()
	if err := e.catchUp(p, now); err != nil {
		return api.Branch{}, false, err
	}
	p.mu.Lock()
	if b := p.branchByName(name); b != nil {
		out := b.wire(now, false)
		p.mu.Unlock()
		return out, false, nil
	}
	b, _, _, err := e.addBranch(p, branchSpec{name: name}, now)
	var out api.Branch
	if err == nil {
		out = b.wire(now, false)
	}
	p.mu.Unlock()
	if err != nil {
		return api.Branch{}, false, fmt.Errorf("emulator: %w", err)
	}
	return out, true, e.save()
}

package command

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/fetch"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

// planInputs are what plan and apply (with a directory) need to make a plan.
type planInputs struct {
	Dir string
	// Chdir is the -chdir this run was given, "" for none: every command
	// the run suggests carries it, so that it works when pasted where the
	// run was started.
	Chdir       string
	Vars        []string
	VarFiles    []string
	Parallelism int
	// SettingsOnly: read only the neonform block (applying a saved plan needs
	// the service and the state, not the projects).
	SettingsOnly bool
	// KnownDir: where the configuration is known to be, when Dir may not be
	// it (the directory a saved plan was made from): advice names it.
	KnownDir string
	// RefreshBranches: list every project's branches, so that every branch
	// block is found by its name again, not as the state records it.
	RefreshBranches bool
	// LiveProgress: stderr is a terminal, where the progress of a long read
	// is a status line rather than a line every 10 seconds.
	LiveProgress bool
	// Lock: take the state lock before reading the state or the service, and
	// hold it until Close (apply DIR: nobody changes the state between the
	// plan it shows and the apply, and a locked state is refused before any
	// call or any output). Not with a backend that locks projects one by
	// one (Postgres): apply locks the projects the plan changes, reads the
	// state again and refuses the plan if one of them changed since. What
	// the plan read of their endpoints (KeepRead) stays current all the
	// same: another run changes a project only under its lock, and records
	// what it did in the project's state entries, which apply checks.
	Lock bool
	// LockTimeout is how long to wait for a state lock another run holds
	// (-lock-timeout): 0 = fail at once.
	LockTimeout time.Duration
	// WaitTimeout is how long the run may wait for the service in all
	// (-wait-timeout): 0 = NEONFORM_WAIT_TIMEOUT, or the default.
	WaitTimeout time.Duration
	// Scope: -target, -replace, -destroy (scope.go).
	Scope diff.Scope
	// KeepRead: keep what the plan reads of the endpoints of the projects it
	// changes (planned.read), for an apply that follows at once.
	KeepRead bool
	// Secrets learns, once the configuration is read, which variables are
	// sensitive, so that their -var values are never repeated in a
	// suggestion. Shared by the copies of a planInputs; nil: nothing learnt.
	Secrets *sensitiveVars
}

// planned is a plan and everything it was made from, for the command to show,
// save or apply it.
type planned struct {
	conn    *connection
	backend state.Backend
	state   *state.State
	plan    *diff.Plan
	reads   int // API reads made to plan
	// read is the endpoints the plan read of the projects it changes, when
	// planInputs.KeepRead asked for them (apply.Options.PlanRead).
	read map[string][]api.Endpoint
	// unlock releases the state lock when planInputs.Lock took it.
	unlock func() error
	// settingsVars are the variables the neonform block uses: all that
	// applying the saved plan needs (config.Settings.Variables).
	settingsVars []string
}

// Close releases the state lock, if it was taken, and what the plan held
// open; a lock that could not be released cleanly is a warning on w.
func (p *planned) Close(w io.Writer) {
	if p.unlock != nil {
		if err := p.unlock(); err != nil {
			fmt.Fprintf(w, "Warning: %s\n", textsafe.TerminalText(err.Error()))
		}
	}
	if p.conn != nil {
		p.conn.Close()
	}
	if p.backend != nil {
		closeBackend(p.backend)
	}
}

// reported is the error of diagnostics already printed: the command only
// has to exit 1, and apply -json reports them in its last event
// (applyEvents.end).
func reported(diags diag.Diagnostics) error {
	return &exitError{code: 1, diags: diags}
}

// loadConfig reads and checks the configuration, printing its diagnostics. A
// configuration with errors stops here: no API call is made.
func loadConfig(ctx context.Context, in planInputs, env environment, stderr io.Writer) (*config.Config, error) {
	cfg, diags := config.Load(in.Dir, config.Options{Vars: in.Vars, VarFiles: in.VarFiles, Environ: env.list, SettingsOnly: in.SettingsOnly, KnownDir: in.KnownDir, Context: ctx})
	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	if cfg != nil {
		in.Secrets.learn(cfg.SensitiveVariables)
	}
	if len(diags) > 0 {
		configArgsOf(in).completeDiagnostics(diags)
		printDiagnostics(stderr, diags, files, env)
	}
	if err := interruptedReading(ctx, diags.HasErrors()); err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, reported(diags)
	}
	return cfg, nil
}

// makePlan loads the configuration, reads the state and the live endpoints, and
// builds the plan. Notes (what the sandbox created) and diagnostics go to
// stderr: standard output holds the plan alone, in every format, so that a
// Markdown comment or a JSON plan piped from it has nothing else in it.
func makePlan(ctx context.Context, in planInputs, env environment, stderr io.Writer) (*planned, error) {
	cfg, err := loadConfig(ctx, in, env, stderr)
	if err != nil {
		return nil, err
	}
	// The configuration is not kept: with thousands of projects it is the
	// most memory a plan holds, and nothing after Build needs it.
	out := &planned{settingsVars: cfg.Settings.Variables}
	ok := false
	defer func() {
		if !ok {
			out.Close(stderr)
		}
	}()
	if err := out.open(ctx, cfg, in, env, stderr); err != nil {
		return nil, err
	}
	live, counted, kept, diags := readLive(ctx, out.conn.client, cfg, out.state, in, stderr)
	if diags.HasErrors() {
		configArgsOf(in).completeDiagnostics(diags)
		printDiagnostics(stderr, diags, cfg.Files, env)
		return nil, reported(diags)
	}
	sources := sourcesOf(cfg)
	// Nothing after Build reads cfg but its files, for diagnostics: Build
	// lets the rest go before it derives the steps (a third of what a plan
	// of 100,000 computes holds), as long as nothing here holds it.
	files := cfg.Files
	plan, bdiags, err := diff.BuildContext(ctx, cfg, out.state, live, diff.Options{
		ToolVersion:  version,
		APIURL:       out.conn.apiURL,
		Now:          time.Now().UTC(),
		ConfigDigest: diff.ConfigDigest(sources),
		ConfigFiles:  diff.FileDigests(sources),
		Scope:        in.Scope,
	})
	if err != nil {
		return nil, err // interrupted: nothing was changed, and out.Close releases the lock
	}
	diags = append(diags, bdiags...)
	if len(diags) > 0 {
		configArgsOf(in).completeDiagnostics(diags)
		printDiagnostics(stderr, diags, files, env)
	}
	if diags.HasErrors() {
		return nil, reported(diags)
	}
	// Held to the rules apply holds every plan to, before it is shown, saved
	// or applied: a plan that fails is the planner's mistake, never a file
	// apply refuses later.
	if err := diff.CheckMade(plan); err != nil {
		return nil, fmt.Errorf("neonform made a plan it cannot apply: %v. Nothing was saved or changed. "+
			"This is a bug in neonform: please report it, with the configuration if you can", err)
	}
	out.plan = plan
	out.reads = int(counted.calls.Load())
	if kept != nil {
		out.read = kept.forPlan(plan)
	}
	ok = true
	return out, nil
}

// open opens and reads the state, under its lock when in.Lock asks,
// checks the scope against it, and connects to the service.
func (out *planned) open(ctx context.Context, cfg *config.Config, in planInputs, env environment, stderr io.Writer) error {
	var err error
	if out.backend, err = openState(ctx, cfg, env); err != nil {
		return err
	}
	// A backend that locks projects one by one (Postgres) is planned
	// unlocked: only the plan knows which projects it changes, and apply
	// locks those, then reads them again (apply.Options.Locked false). The
	// lock's connection opens while the plan is made, not after it.
	if pg, ok := out.backend.(*state.Postgres); ok && in.Lock && state.LocksProjects(pg) {
		pg.DialLockAhead()
	}
	if in.Lock && !state.LocksProjects(out.backend) {
		if out.unlock, err = lockState(ctx, out.backend, "apply", in.LockTimeout, stderr); err != nil {
			return err
		}
	}
	if out.state, err = out.backend.Read(ctx); err != nil {
		return err
	}
	if err := checkScope(in.Scope, cfg, out.state); err != nil {
		return err
	}
	out.conn, err = connect(cfg, env, stderr, in.WaitTimeout)
	return err
}

// readLive reads the live endpoints the plan compares with, showing its
// progress on stderr; counted counts the calls, and kept, when in.KeepRead
// asks, keeps what was read for the apply that follows.
func readLive(ctx context.Context, client fetch.Reader, cfg *config.Config, st *state.State, in planInputs, stderr io.Writer) (*diff.Live, *countingReader, *keptReads, diag.Diagnostics) {
	reader := client
	var kept *keptReads
	if in.KeepRead {
		kept = &keptReads{Reader: reader}
		reader = kept
	}
	counted := &countingReader{Reader: reader}
	progress := startReadProgress(stderr, in.LiveProgress)
	live, diags := fetch.Live(ctx, counted, cfg, st, fetch.Options{
		Parallelism: in.Parallelism, RefreshBranches: in.RefreshBranches, Progress: progress.update, Scope: in.Scope})
	progress.finish()
	return live, counted, kept, diags
}

// sourcesOf is the configuration's files by their path within the
// directory, so the digest does not depend on where neonform was run from.
// Variable files are left out: apply PLANFILE is not given them (the plan
// holds every value they made), so they would always look changed.
func sourcesOf(cfg *config.Config) map[string][]byte {
	m := make(map[string][]byte, len(cfg.Files))
	for name, f := range cfg.Files {
		if cfg.VarFiles[name] {
			continue
		}
		if rel, err := filepath.Rel(cfg.Dir, name); err == nil {
			name = filepath.ToSlash(rel)
		}
		m[name] = f.Bytes
	}
	return m
}

// openState opens the state backend the configuration names: a local file, or
// a Postgres database when state is a postgres:// URL.
//
// With -lock=false (env.noLock) the backend is handed out unlocked.
func openState(ctx context.Context, cfg *config.Config, env environment) (state.Backend, error) {
	var b state.Backend = state.NewLocal(statePath(cfg))
	if p := cfg.Settings.StatePath; postgresState(p) {
		pb, err := state.NewPostgres(ctx, p, stateName(env))
		if err != nil {
			return nil, fmt.Errorf("state: %w", err)
		}
		b = pb
	}
	if env.noLock {
		return unlocked{b}, nil
	}
	return b, nil
}

// postgresState reports whether the state setting is a Postgres connection
// URL rather than a file path.
func postgresState(setting string) bool { return config.PostgresState(setting) }

// stateName tells apart several configurations that keep their state in one
// Postgres database: NEONFORM_STATE_NAME, or "default".
func stateName(env environment) string {
	if n := env.get("NEONFORM_STATE_NAME"); n != "" {
		return n
	}
	return "default"
}

// closeBackend releases what a state backend holds open (the Postgres connection).
func closeBackend(b state.Backend) {
	if c, ok := b.(interface{ Close(context.Context) error }); ok {
		c.Close(context.Background())
	}
}

package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/generate"
	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/state"
)

// generateOptions are what generate was asked to do (cmd_generate.go reads
// them from its flags).
type generateOptions struct {
	// planInputs are the directory, and the -var and -var-file values its
	// configuration may need.
	planInputs
	ProjectIDs []string
	All        bool
	// Rule, when set, gathers the branches it matches into a branches block.
	Rule   *generate.Rule
	Env    environment
	Stdout io.Writer
	Stderr io.Writer
}

// runGenerate reads the projects o names, writes their configuration into
// o.Dir and records their computes in the state; it writes nothing when
// the generated configuration would not plan to nothing.
func runGenerate(ctx context.Context, o generateOptions) (err error) {
	if err := o.check(); err != nil {
		return err
	}
	cfg, taken, err := generateInto(ctx, o)
	if err != nil {
		return err
	}
	// DIR is made first, for the lock file of a local state; a failed
	// generate takes away the directory it made.
	if _, statErr := os.Stat(o.Dir); errors.Is(statErr, fs.ErrNotExist) {
		if err := os.MkdirAll(o.Dir, 0o755); err != nil {
			return err
		}
		defer func() {
			if err != nil {
				os.Remove(o.Dir)
			}
		}()
	}
	backend, err := openState(ctx, cfg, o.Env)
	if err != nil {
		return err
	}
	defer closeBackend(backend)
	st, unlock, err := readLocked(ctx, backend, "generate", o.LockTimeout, o.Stderr)
	if err != nil {
		return err
	}
	defer unlock()
	conn, err := connect(cfg, o.Env, o.Stderr, o.WaitTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	res, err := generateFrom(ctx, conn, cfg, o, st, taken)
	if err != nil {
		return err
	}
	return recordGenerated(ctx, o, backend, st, res)
}

// check refuses options that name no projects, or a rule that cannot match.
func (o generateOptions) check() error {
	switch {
	case o.All && len(o.ProjectIDs) > 0:
		return errors.New("give -project IDs or -all, not both")
	case !o.All && len(o.ProjectIDs) == 0:
		return errors.New("say which projects to generate: -project ID (repeatable), or -all for every project the API key can see")
	}
	if o.Rule != nil {
		return o.Rule.Check()
	}
	return nil
}

// generateInto reads the configuration already in o.Dir, which says how to
// reach the service and where the state is (a new directory has none, and
// takes the defaults), and refuses a project -project names that it
// configures already. taken: the labels of its projects.
func generateInto(ctx context.Context, o generateOptions) (*config.Config, map[string]bool, error) {
	cfg := &config.Config{Dir: o.Dir, Files: map[string]*hcl.File{}}
	if config.HasFiles(o.Dir) {
		var err error
		if cfg, err = loadConfig(ctx, o.planInputs, o.Env, o.Stderr); err != nil {
			return nil, nil, err
		}
	}
	taken := map[string]bool{}
	for _, p := range cfg.Projects {
		taken[p.Label] = true
		for _, id := range o.ProjectIDs {
			if id == p.ID {
				return nil, nil, fmt.Errorf("project %s is already configured, as project %q at %s:%d: generate writes only projects the configuration does not have",
					id, p.Label, p.DeclRange.Filename, p.DeclRange.Start.Line)
			}
		}
	}
	return cfg, taken, nil
}

// generateFrom reads the projects and makes their files and records,
// checked against the state and the configuration (checkGenerated).
func generateFrom(ctx context.Context, conn *connection, cfg *config.Config, o generateOptions, st *state.State, taken map[string]bool) (*generate.Result, error) {
	projects, err := generate.Read(ctx, conn.client, o.ProjectIDs, o.All)
	if err != nil {
		return nil, explainProjectList(ctx, conn, err)
	}
	projects, configured := unconfigured(projects, cfg)
	gen := generate.Options{Dir: o.Dir, Taken: taken, Tier: cfg.Settings.AccountTier, Rule: o.Rule}
	if cfg.Settings.DeclRange == (hcl.Range{}) {
		gen.Settings = &generate.Settings{APIURL: conn.apiURL, OrgID: conn.orgID}
	}
	res, err := generate.Make(projects, gen)
	if err != nil {
		return nil, err
	}
	res.LeftOut = append(configured, res.LeftOut...)
	if err := checkGenerated(ctx, cfg, o, st, projects, res, conn.apiURL); err != nil {
		return nil, fmt.Errorf("%w. Nothing was written", err)
	}
	return res, nil
}

// recordGenerated writes the files and records the computes in the state;
// when the state cannot be written, it takes the files away again.
func recordGenerated(ctx context.Context, o generateOptions, backend state.Backend, st *state.State, res *generate.Result) error {
	written, err := writeGenerated(o.Dir, res.Files)
	if err != nil {
		return err
	}
	for _, c := range res.Computes {
		st.Computes[c.Address] = c.Record()
	}
	if len(res.Computes) == 0 {
		reportGenerated(o, backend, res)
		return nil // nothing to record: the state stays as it was, serial and all
	}
	if err := backend.Write(ctx, st); err != nil {
		for _, p := range written {
			os.Remove(p)
		}
		return fmt.Errorf("%w. The files generate wrote were removed again", err)
	}
	reportGenerated(o, backend, res)
	return nil
}

// unconfigured drops, from every project the key sees (-all), those the
// configuration already declares, with a warning about each, left out as
// generate leaves out an endpoint.
func unconfigured(projects []*generate.Project, cfg *config.Config) ([]*generate.Project, diag.Diagnostics) {
	out := projects[:0]
	var leftOut diag.Diagnostics
	for _, p := range projects {
		if i := indexOfProject(cfg, p.ID); i >= 0 {
			leftOut = append(leftOut, generate.ConfiguredLeftOut(p, cfg.Projects[i].Label))
			continue
		}
		out = append(out, p)
	}
	return out, leftOut
}

func indexOfProject(cfg *config.Config, id string) int {
	for i, p := range cfg.Projects {
		if p.ID == id {
			return i
		}
	}
	return -1
}

// checkGenerated refuses to overwrite a file, or to record an endpoint the
// state has under another address, or another endpoint at an address the
// state has (the same endpoint at the same address is recorded afresh: its
// file was moved away); and it checks that the configuration in the
// directory, with the generated files, loads and plans to nothing.
func checkGenerated(ctx context.Context, cfg *config.Config, o generateOptions, st *state.State, projects []*generate.Project, res *generate.Result, apiURL string) error {
	for _, f := range res.Files {
		path := filepath.Join(cfg.Dir, f.Name)
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s already exists: generate never overwrites a file. Move it away, or generate into another directory", path)
		}
	}
	for _, c := range res.Computes {
		if addr, ok := st.ByEndpoint(c.Endpoint.ID); ok && addr != c.Address {
			return fmt.Errorf("endpoint %s is already in the state, as %s; generate would record it as %s. Remove that entry first (`%s`), or leave its project out",
				c.Endpoint.ID, addr, c.Address, configArgsOf(o.planInputs).command("state", "rm", addr))
		}
		if other := st.Computes[c.Address]; other != nil && other.EndpointID != c.Endpoint.ID {
			return fmt.Errorf("%s is already in the state, as endpoint %s; generate would record endpoint %s there. Remove that entry first (`%s`)",
				c.Address, other.EndpointID, c.Endpoint.ID, configArgsOf(o.planInputs).command("state", "rm", c.Address))
		}
	}
	sources := map[string][]byte{}
	for name, f := range cfg.Files {
		if !cfg.VarFiles[name] {
			sources[filepath.Base(name)] = f.Bytes
		}
	}
	for _, f := range res.Files {
		sources[f.Name] = f.Src
	}
	all, diags := config.LoadSources(cfg.Dir, sources, config.Options{Vars: o.Vars, VarFiles: o.VarFiles, Environ: o.Env.list, Context: ctx})
	if err := interruptedReading(ctx, diags.HasErrors()); err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("the generated configuration does not load (this is a bug in neonform): %s", diags.String())
	}
	return generate.Check(all, projects, res, diff.Options{
		ToolVersion: version, APIURL: apiURL, Now: time.Now().UTC(),
		ConfigDigest: diff.ConfigDigest(sources), ConfigFiles: diff.FileDigests(sources),
	})
}

// writeGenerated writes each file, refusing one that appeared meanwhile; on
// an error it removes what it wrote.
func writeGenerated(dir string, files []*generate.File) ([]string, error) {
	var written []string
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		// Configuration, to commit and share: readable by others, unlike the
		// state (docs/generate.md).
		err := atomicfile.CreateNewMode(path, f.Src, 0o644)
		if err != nil {
			for _, p := range written {
				os.Remove(p)
			}
			if errors.Is(err, fs.ErrExist) {
				return nil, fmt.Errorf("%s already exists: generate never overwrites a file. Nothing was written", path)
			}
			return nil, fmt.Errorf("writing %s: %w. Nothing was written", path, err)
		}
		written = append(written, path)
	}
	return written, nil
}

// reportGenerated says what was written, what was left out and why, and
// what the first apply will still do.
func reportGenerated(o generateOptions, backend state.Backend, res *generate.Result) {
	var match []string // nil without -match
	if o.Rule != nil {
		match = append([]string{}, o.Rule.Match...)
	}
	views.WriteGeneratedFiles(o.Stdout, res.Files, match)
	// Warnings, as every diagnostic is printed (they escape the service's
	// names and ids).
	writeDiagnostics(o.Stderr, res.LeftOut, nil, o.Env.color(o.Stderr))
	views.WriteGeneratedRecorded(o.Stdout, len(res.Computes), backend.Describe(), configArgsOf(o.planInputs).context())
}

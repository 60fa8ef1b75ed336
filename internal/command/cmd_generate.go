package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/generate"
	"github.com/neonform/neonform/internal/atomicfile"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/shellquote"
	"github.com/neonform/neonform/internal/textsafe"
	"github.com/neonform/neonform/state"
)

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

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "write the configuration of computes that already exist, and record them in the state",
		UsageText: "neonform generate (-project ID [-project ID]... | -all) [-match GLOB [-match GLOB]... [-exclude GLOB]... [-rule NAME]] [DIR] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-var NAME=VALUE]... [-var-file FILE]...",
		Description: `Onboards an account that already has projects, branches and computes: reads
each project's branches and endpoints and writes one file per project into
DIR (default the current directory; created if missing), in the layout fmt
writes, with a compute block for each endpoint that describes it as it is,
and records every one of them in the state. The next plan then has nothing
to do.

A file is named after the project (shop.hcl); branch and compute labels come
from their names in the service, made valid and unique. A read_write endpoint
without a name is labelled primary (a replica, replica), and its block writes
no name, which leaves the endpoint unnamed. Attributes at their default are
left out, as in a compute block written by hand.

generate never overwrites: a file of the same name, a project the
configuration in DIR already declares, or an endpoint the state already
records under another address, is an error that names it, and nothing is
written. It prints each file it wrote, and warns of each endpoint it left
out and why (a disabled compute, an endpoint whose branch is being deleted,
one named as another on its branch, one whose block the configuration would
refuse). Before writing, it plans what it wrote against what it read:
anything but nothing to do is a bug, and nothing is written.

A fleet of branches (a preview branch per pull request) is one branches
block with -match GLOB (repeatable; * is any characters but /, as in
match = "preview/*"), less -exclude GLOB: the branches it matches that have
the same computes (the most of them alike) are its instances, each compute
recorded at its rule address, shop.previews["preview/pr-1"].primary.
-rule NAME labels the block; without it, the label is the first glob's text
before its first wildcard, made a label, in the plural ("preview/*" gives
previews, "test-*" tests, "*" branches). A branch that matches but whose
computes differ keeps a branch block of its own, and one without computes
is added to the block's exclude, so the first plan creates nothing; each is
said. The default branch always keeps its own block.

The files are ready to commit: mode 0644; the first starts with a neonform
block when DIR has none (with api_url when the service is not the default,
and org_id when NEON_ORG_ID is set);
the default branch's read_write compute has lifecycle { prevent_destroy =
true }, so that no plan deletes it by accident (delete the lifecycle block
and apply once to drop it).

It reaches the service as plan does: NEON_API_KEY, and NEON_API_URL or the
api_url of the configuration already in DIR. -all lists the projects of the
organization that NEON_ORG_ID or org_id names, and an account that belongs
to organizations only must name one; a project-scoped key lists none: name
its project with -project.

Examples:
   neonform generate -project dark-sun-46453911 infra/
   neonform generate -all infra/ && neonform plan infra/
   neonform generate -project dark-sun-46453911 -match 'preview/*' infra/`,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "project", Usage: "generate the project with this `ID` (repeatable)"},
			&cli.BoolFlag{Name: "all", Usage: "generate every project the API key can see (of the organization org_id names)"},
			&cli.StringSliceFlag{Name: "match", Usage: "gather the branches whose name matches `GLOB` into one branches block (repeatable)"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "leave the branches whose name matches `GLOB` out of the branches block (repeatable)"},
			&cli.StringFlag{Name: "rule", Usage: "label the branches block `NAME` (default: from the first -match glob, as previews for preview/*)"},
			&cli.StringSliceFlag{Name: "var", Usage: "set a variable of the configuration in DIR: `NAME=VALUE` (repeatable)"},
			&cli.StringSliceFlag{Name: "var-file", Usage: "read variables from `FILE` (repeatable)"},
			lockTimeoutFlag(), waitTimeoutFlag(), debugFlag(),
		},
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) > 1 {
				return fmt.Errorf("generate takes one directory, not %d arguments: neonform generate -project ID [DIR]", len(args))
			}
			o := generateOptions{
				planInputs: planInputs{Dir: ".", Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}},
				ProjectIDs: c.StringSlice("project"), All: c.Bool("all"), Rule: ruleOf(c),
				Env: environmentOf(c), Stdout: c.App.Writer, Stderr: c.App.ErrWriter}
			if len(args) == 1 {
				o.Dir = args[0]
			}
			remember(c, o.planInputs)
			var err error
			if o.WaitTimeout, err = waitTimeoutOf(c); err != nil {
				return err
			}
			if o.LockTimeout, err = lockTimeoutOf(c); err != nil {
				return err
			}
			return runGenerate(c.Context, o)
		},
	}
}

// ruleOf is the rule -match, -exclude and -rule ask for; nil when none is
// given.
func ruleOf(c *cli.Context) *generate.Rule {
	r := &generate.Rule{Match: c.StringSlice("match"), Exclude: c.StringSlice("exclude"), Label: c.String("rule")}
	if len(r.Match) == 0 && len(r.Exclude) == 0 && !c.IsSet("rule") {
		return nil
	}
	return r
}

func runGenerate(ctx context.Context, o generateOptions) (err error) {
	switch {
	case o.All && len(o.ProjectIDs) > 0:
		return errors.New("give -project IDs or -all, not both")
	case !o.All && len(o.ProjectIDs) == 0:
		return errors.New("say which projects to generate: -project ID (repeatable), or -all for every project the API key can see")
	}
	if o.Rule != nil {
		if err := o.Rule.Check(); err != nil {
			return err
		}
	}
	// The configuration already in DIR says how to reach the service and
	// where the state is; a new directory has none, and takes the defaults.
	cfg := &config.Config{Dir: o.Dir, Files: map[string]*hcl.File{}}
	if config.HasFiles(o.Dir) {
		var err error
		if cfg, err = loadConfig(ctx, o.planInputs, o.Env, o.Stderr); err != nil {
			return err
		}
	}
	taken := map[string]bool{}
	for _, p := range cfg.Projects {
		taken[p.Label] = true
		for _, id := range o.ProjectIDs {
			if id == p.ID {
				return fmt.Errorf("project %s is already configured, as project %q at %s:%d: generate writes only projects the configuration does not have",
					id, p.Label, p.DeclRange.Filename, p.DeclRange.Start.Line)
			}
		}
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
	projects, err := generate.Read(ctx, conn.client, o.ProjectIDs, o.All)
	if err != nil {
		return explainProjectList(ctx, conn, err)
	}
	projects, configured := unconfigured(projects, cfg)
	gen := generate.Options{Dir: o.Dir, Taken: taken, Tier: cfg.Settings.AccountTier, Rule: o.Rule}
	if cfg.Settings.DeclRange == (hcl.Range{}) {
		gen.Settings = &generate.Settings{APIURL: conn.apiURL, OrgID: conn.orgID}
	}
	res, err := generate.Make(projects, gen)
	if err != nil {
		return err
	}
	res.LeftOut = append(configured, res.LeftOut...)
	if err := checkGenerated(ctx, cfg, o, st, projects, res, conn.apiURL); err != nil {
		return fmt.Errorf("%w. Nothing was written", err)
	}

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
	for _, f := range res.Files {
		rule := ""
		if f.Rule != nil {
			rule = fmt.Sprintf(", and branches %q for %s", f.Rule.Label, english.Plural(f.Rule.Branches, "branch", "branches"))
		}
		fmt.Fprintf(o.Stdout, "wrote %s: %s, %s%s\n", textsafe.Terminal(f.Name), english.Plural(f.Branches, "branch", "branches"), english.Plural(f.Computes, "compute", "computes"), rule)
		reportRule(o, f)
	}
	// Warnings, as every diagnostic is printed (they escape the service's
	// names and ids).
	writeDiagnostics(o.Stderr, res.LeftOut, nil, o.Env.color(o.Stderr))
	if len(res.Computes) == 0 {
		fmt.Fprintln(o.Stdout, "No computes to record.")
		return
	}
	fmt.Fprintf(o.Stdout, "Recorded %s in the %s. Run `%s`: it has nothing to do.\n",
		english.Plural(len(res.Computes), "compute", "computes"), backend.Describe(), configArgsOf(o.planInputs).command("plan"))
}

// reportRule says, for the file of a project generated with -match, which
// branches the rule matches but leaves out, and why; or that it wrote none.
func reportRule(o generateOptions, f *generate.File) {
	switch r := f.Rule; {
	case o.Rule == nil:
	case r == nil:
		globs := make([]string, len(o.Rule.Match))
		for i, g := range o.Rule.Match {
			globs[i] = "-match " + shellquote.Word(g)
		}
		fmt.Fprintf(o.Stdout, "No branch of project %s with computes matches %s: %s has no branches block.\n",
			textsafe.Terminal(f.Label), textsafe.Terminal(strings.Join(globs, " ")), textsafe.Terminal(f.Name))
	default:
		// Branch names are the service's text: shown escaped.
		for _, b := range r.Own {
			fmt.Fprintf(o.Stdout, "Branch %s has a branch block of its own, %q: its computes differ from the ones branches %q gives its %s.\n",
				textsafe.Terminal(strconv.Quote(b.Name)), b.Label, r.Label, english.Plural(r.Branches, "branch", "branches"))
		}
		for _, name := range r.Excluded {
			fmt.Fprintf(o.Stdout, "Branch %s is excluded from branches %q: it has no compute to describe, and the rule would create its computes there.\n",
				textsafe.Terminal(strconv.Quote(name)), r.Label)
		}
	}
}

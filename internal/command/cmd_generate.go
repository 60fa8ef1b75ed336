package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/generate"
	"github.com/neonform/neonform/internal/atomicfile"
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
	Env        environment
	Stdout     io.Writer
	Stderr     io.Writer
}

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "write the configuration of computes that already exist, and record them in the state",
		UsageText: "neonform generate (-project ID [-project ID]... | -all) [DIR] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-var NAME=VALUE]... [-var-file FILE]...",
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
written. It prints each file it wrote, and each endpoint it left out and why
(a disabled compute, an endpoint whose branch is being deleted, one whose
block the configuration would refuse). Before writing, it plans what it
wrote against what it read: anything but nothing to do is a bug, and
nothing is written.

It reaches the service as plan does: NEON_API_KEY, and NEON_API_URL or the
api_url of the configuration already in DIR. It writes no neonform block.

Examples:
   neonform generate -project dark-sun-46453911 infra/
   neonform generate -all infra/ && neonform plan infra/`,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "project", Usage: "generate the project with this `ID` (repeatable)"},
			&cli.BoolFlag{Name: "all", Usage: "generate every project the API key can see"},
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
				planInputs: planInputs{Dir: ".", Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}},
				ProjectIDs: c.StringSlice("project"), All: c.Bool("all"),
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

func runGenerate(ctx context.Context, o generateOptions) (err error) {
	switch {
	case o.All && len(o.ProjectIDs) > 0:
		return errors.New("give -project IDs or -all, not both")
	case !o.All && len(o.ProjectIDs) == 0:
		return errors.New("say which projects to generate: -project ID (repeatable), or -all for every project the API key can see")
	}
	// The configuration already in DIR says how to reach the service and
	// where the state is; a new directory has none, and takes the defaults.
	cfg := &config.Config{Dir: o.Dir, Files: map[string]*hcl.File{}}
	if config.HasFiles(o.Dir) {
		var err error
		if cfg, err = loadConfig(o.planInputs, o.Env, o.Stderr); err != nil {
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
		return err
	}
	projects = unconfigured(projects, cfg, o.Stdout)
	res, err := generate.Make(projects, generate.Options{Dir: o.Dir, Taken: taken, Tier: cfg.Settings.AccountTier})
	if err != nil {
		return err
	}
	if err := checkGenerated(cfg, o, st, projects, res, conn.apiURL); err != nil {
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
// configuration already declares, and says so.
func unconfigured(projects []*generate.Project, cfg *config.Config, w io.Writer) []*generate.Project {
	out := projects[:0]
	for _, p := range projects {
		if i := indexOfProject(cfg, p.ID); i >= 0 {
			fmt.Fprintf(w, "Left out project %s (%s): already configured, as project %q.\n", textsafe.Terminal(p.Name), textsafe.Terminal(p.ID), cfg.Projects[i].Label)
			continue
		}
		out = append(out, p)
	}
	return out
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
func checkGenerated(cfg *config.Config, o generateOptions, st *state.State, projects []*generate.Project, res *generate.Result, apiURL string) error {
	for _, f := range res.Files {
		path := filepath.Join(cfg.Dir, f.Name)
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s already exists: generate never overwrites a file. Move it away, or generate into another directory", path)
		}
	}
	for _, c := range res.Computes {
		if addr, ok := st.ByEndpoint(c.Endpoint.ID); ok && addr != c.Address {
			return fmt.Errorf("endpoint %s is already in the state, as %s; generate would record it as %s. Remove that entry first (`neonform state rm %s`), or leave its project out",
				c.Endpoint.ID, addr, c.Address, shellquote.Word(addr))
		}
		if other := st.Computes[c.Address]; other != nil && other.EndpointID != c.Endpoint.ID {
			return fmt.Errorf("%s is already in the state, as endpoint %s; generate would record endpoint %s there. Remove that entry first (`neonform state rm %s`)",
				c.Address, other.EndpointID, c.Endpoint.ID, shellquote.Word(c.Address))
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
	all, diags := config.LoadSources(cfg.Dir, sources, config.Options{Vars: o.Vars, VarFiles: o.VarFiles, Environ: o.Env.list})
	if diags.HasErrors() {
		return fmt.Errorf("the generated configuration does not load (this is a bug in neonform): %s", diags.Error())
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
		err := atomicfile.CreateNew(path, f.Src)
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
		fmt.Fprintf(o.Stdout, "wrote %s: %s, %s\n", textsafe.Terminal(f.Name), english.Plural(f.Branches, "branch", "branches"), english.Plural(f.Computes, "compute", "computes"))
	}
	for _, l := range res.LeftOut {
		// The service's names and ids, shown escaped (internal/textsafe).
		fmt.Fprintf(o.Stdout, "Left out %s in project %s: %s.\n", textsafe.Terminal(l.EndpointID), textsafe.Terminal(l.ProjectLabel), textsafe.Terminal(strings.TrimSuffix(l.Why, ".")))
	}
	if len(res.Computes) == 0 {
		fmt.Fprintln(o.Stdout, "No computes to record.")
		return
	}
	fmt.Fprintf(o.Stdout, "Recorded %s in the %s. Run `%s`: it has nothing to do.\n",
		english.Plural(len(res.Computes), "compute", "computes"), backend.Describe(), configArgsOf(o.planInputs).command("plan"))
}

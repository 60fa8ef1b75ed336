package command

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/emulator"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/sizing"
)

// sandboxKey is the key of the embedded sandbox. It guards nothing (the sandbox
// listens on loopback for the life of one command and holds no real data), so it
// can be fixed: the sandbox's data file then opens with it on every run.
const sandboxKey = "napi_neonform_embedded_sandbox_key"

// sandbox is the embedded emulator behind api_url = "embedded": an in-process
// service on a loopback port whose world lives in .neonform/sandbox.json beside
// the state, so that plan and apply work with no account, no key and no network.
type sandbox struct {
	emu *emulator.Emulator
	srv *http.Server
	url string
	pg  sandboxPostgres
}

// sandboxDir is where the sandbox keeps its data for a configuration.
func sandboxDir(cfg *config.Config) string {
	if postgresState(cfg.Settings.StatePath) {
		return filepath.Join(cfg.Dir, ".neonform")
	}
	return filepath.Join(filepath.Dir(statePath(cfg)), ".neonform")
}

// startSandbox serves the sandbox kept in dir; should it stop serving, it
// says so on notes, the run's standard error.
func startSandbox(dir string, notes io.Writer) (*sandbox, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded sandbox: %w", err)
	}
	data := filepath.Join(dir, "sandbox.json")
	pg := newSandboxPostgres(data)
	// No rate limit: the sandbox serves one neonform, which paces nothing on loopback.
	emu, err := emulator.New(emulator.Options{APIKey: sandboxKey, DataFile: data, RatePerMinute: -1, Postgres: pg.backing})
	if err != nil {
		return nil, fmt.Errorf("embedded sandbox: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		emu.Close()
		return nil, fmt.Errorf("embedded sandbox: %w", err)
	}
	s := &sandbox{emu: emu, srv: &http.Server{Handler: emu.Handler()}, url: "http://" + ln.Addr().String() + "/api/v2", pg: pg}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			views.WriteSandboxStopped(notes, err)
		}
	}()
	return s, nil
}

// ensure creates the projects and named branches the configuration uses, as a
// person would in the console before using neonform, and says what it made. A
// branch name that is a near miss of an existing branch's is refused first, with
// nothing made (nearMisses).
func (s *sandbox) ensure(cfg *config.Config, notes io.Writer) (diag.Diagnostics, error) {
	if diags := s.nearMisses(cfg); diags.HasErrors() {
		return diags, nil
	}
	return nil, s.create(cfg, notes)
}

// create makes what ensure checked.
func (s *sandbox) create(cfg *config.Config, notes io.Writer) error {
	for _, p := range cfg.Projects {
		created, err := s.emu.EnsureIdleProject(p.ID, p.Label)
		if err != nil {
			return err
		}
		if created {
			s.sayPostgres(notes)
			views.WriteSandboxProject(notes, p.Label, p.ID)
			if cfg.Settings.AccountTier == sizing.Free {
				if err := s.emu.SetProjectTier(p.ID, sizing.Free); err != nil {
					return err
				}
			}
		}
		if created {
			if err := s.seedRuleBranches(p, notes); err != nil {
				return err
			}
		}
		for _, b := range p.Branches {
			if b.ID != "" {
				continue // pinned by id: the sandbox cannot make a branch with a chosen id
			}
			if _, created, err := s.emu.EnsureBranch(p.ID, b.Name); err != nil {
				return err
			} else if created {
				views.WriteSandboxBranch(notes, b.Name, p.Label, "")
			}
		}
	}
	return nil
}

// seedRuleBranches gives a new project two branches that each branch rule
// matches, as a team's open pull requests would have (preview/pr-1 and
// preview/pr-2 for "preview/*"), so that a rule has something to apply to on
// the first plan. Only a new project gets them: a branch deleted afterwards
// stays deleted, as in the service.
func (s *sandbox) seedRuleBranches(p *config.Project, notes io.Writer) error {
	named := map[string]bool{}
	for _, b := range p.Branches {
		named[b.Name] = true
	}
	for _, r := range p.Rules {
		for _, glob := range r.Match {
			if strings.ContainsAny(glob, `[\`) {
				continue // a set or an escape: no sample name to guess
			}
			for _, sample := range []string{"pr-1", "pr-2"} {
				name := strings.ReplaceAll(strings.ReplaceAll(glob, "*", sample), "?", "1")
				if named[name] || !r.Matches(name) {
					continue
				}
				named[name] = true
				if _, created, err := s.emu.EnsureBranch(p.ID, name); err != nil {
					return err
				} else if created {
					views.WriteSandboxBranch(notes, name, p.Label, r.Label)
				}
			}
		}
	}
	return nil
}

// sayPostgres says once what the sandbox's computes are (sandboxPostgres): the
// first line of what it says when it creates a project, and before connection
// URIs.
func (s *sandbox) sayPostgres(notes io.Writer) {
	if s.pg.say != nil {
		views.WriteSandboxPostgres(notes, s.pg.say)
		s.pg.say = nil
	}
}

func (s *sandbox) Close() error {
	s.srv.Close()
	return s.emu.Close()
}

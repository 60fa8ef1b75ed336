// Package difftest builds the situations the tests of the plan packages set
// up: configurations (projects, branches, computes with the defaults config
// applies) and live endpoints as the service lists them, so each test reads as
// the situation it sets up. It imports no plan package, so the model's own
// tests (package diff) and those of the plan file, the views and the reader
// share it. Tests only; it is internal to diff.
package difftest

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
)

// line numbers the blocks of a test binary one after another.
var line = 0

// At gives every block its own line in a pretend main.hcl, so a test can check
// which block a diagnostic points at.
func At() hcl.Range {
	line++
	return hcl.Range{Filename: "main.hcl", Start: hcl.Pos{Line: line, Column: 1}, End: hcl.Pos{Line: line, Column: 10}}
}

func CfgOf(projects ...*config.Project) *config.Config {
	return &config.Config{Dir: ".", Projects: projects, Files: map[string]*hcl.File{}}
}

func WithMoves(cfg *config.Config, pairs ...string) *config.Config {
	for i := 0; i+1 < len(pairs); i += 2 {
		cfg.Moves = append(cfg.Moves, &config.Move{From: pairs[i], To: pairs[i+1], DeclRange: At()})
	}
	return cfg
}

func Project(label, id string, branches ...*config.Branch) *config.Project {
	p := &config.Project{Label: label, ID: id, Branches: branches, DeclRange: At()}
	for _, b := range branches {
		for _, c := range b.Computes {
			c.ProjectLabel, c.BranchLabel = label, b.Label
			c.Address = label + "." + b.Label + "." + c.Label
		}
	}
	return p
}

// BranchID is a branch pinned by id; BranchNamed is found by name.
func BranchID(label, id string, computes ...*config.Compute) *config.Branch {
	return &config.Branch{Label: label, Name: label, ID: id, Computes: computes, DeclRange: At()}
}

func BranchNamed(label, name string, computes ...*config.Compute) *config.Branch {
	return &config.Branch{Label: label, Name: name, Computes: computes, DeclRange: At()}
}

func Exclusive(b *config.Branch) *config.Branch { b.Exclusive = true; return b }

type Opt func(*config.Compute)

// Compute is a block with the defaults config applies: read_write, 1 CU fixed,
// default suspend timeout, no settings, enabled, name = label.
func Compute(label string, opts ...Opt) *config.Compute {
	c := &config.Compute{
		Label: label, Type: config.ReadWrite, MinCU: 1, MaxCU: 1, PgSettings: map[string]string{},
		Name: label, AllowRestart: true, DeclRange: At(),
	}
	for _, o := range opts {
		o(c)
	}
	return c
}

func ReadOnly(c *config.Compute) { c.Type = config.ReadOnly }

func CU(min, max float64) Opt { return func(c *config.Compute) { c.MinCU, c.MaxCU = min, max } }

func PG(k, v string) Opt { return func(c *config.Compute) { c.PgSettings[k] = v } }

func SuspendAfter(s int64) Opt { return func(c *config.Compute) { c.SuspendTimeoutSeconds = s } }

func Disabled(c *config.Compute) { c.Disabled = true }

func Named(n string) Opt { return func(c *config.Compute) { c.Name = n; c.Ranges.Set("name", At()) } }

func PreventDestroy(c *config.Compute) {
	c.PreventDestroy = true
	c.Ranges.Set("lifecycle.prevent_destroy", At())
}

func NoRestart(c *config.Compute) {
	c.AllowRestart = false
	c.Ranges.Set("lifecycle.allow_restart", At())
}

func WithType(t config.ComputeType) Opt { return func(c *config.Compute) { c.Type = t } }

type EpOpt func(*api.Endpoint)

// Endpoint is a live endpoint as the service lists it: 1 CU fixed, default
// suspend, no settings, enabled, idle unless told.
func Endpoint(id, branch string, t api.EndpointType, opts ...EpOpt) api.Endpoint {
	e := api.Endpoint{
		ID: id, BranchID: branch, Type: t, AutoscalingLimitMinCU: 1, AutoscalingLimitMaxCU: 1,
		CurrentState: api.EndpointStateIdle, Host: id + ".us-east-2.aws.neon.tech", RegionID: "aws-us-east-2",
		Settings: api.EndpointSettings{PgSettings: map[string]string{}},
	}
	for _, o := range opts {
		o(&e)
	}
	return e
}

func Active(e *api.Endpoint) { e.CurrentState = api.EndpointStateActive }

func EpName(n string) EpOpt { return func(e *api.Endpoint) { e.Name = n } }

func EpCU(min, max float64) EpOpt {
	return func(e *api.Endpoint) { e.AutoscalingLimitMinCU, e.AutoscalingLimitMaxCU = min, max }
}

func EpPG(k, v string) EpOpt { return func(e *api.Endpoint) { e.Settings.PgSettings[k] = v } }

func EpSuspend(s int64) EpOpt { return func(e *api.Endpoint) { e.SuspendTimeoutSeconds = s } }

func EpDisabled(e *api.Endpoint) { e.Disabled = true }

const (
	RW = api.EndpointTypeReadWrite
	RO = api.EndpointTypeReadOnly
)

// Rule is a branches block with its computes, as config decodes it.
func Rule(label string, match, exclude []string, computes ...*config.Compute) *config.BranchRule {
	return &config.BranchRule{Label: label, Match: match, Exclude: exclude, Computes: computes, DeclRange: At()}
}

func WithRules(p *config.Project, rules ...*config.BranchRule) *config.Project {
	for _, r := range rules {
		for _, c := range r.Computes {
			c.ProjectLabel, c.BranchLabel = p.Label, r.Label
			c.Address = config.AddressOf(p.Label, config.AllInstances(r.Label), c.Label)
		}
	}
	p.Rules = append(p.Rules, rules...)
	return p
}

// The project and branches most tests plan in.
const (
	Proj   = "dark-sun-46453911"
	BrMain = "br-withered-paper-a5o7qhfg"
	BrDev  = "br-small-term-a5b6c7d8"
)

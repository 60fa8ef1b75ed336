// Package difftest builds the situations the tests of the plan packages set
// up: configurations (projects, branches, computes with the defaults config
// applies) and live endpoints as the service lists them, so each test reads as
// the situation it sets up. It imports no plan package, so the model's own
// tests (package diff) and those of the plan file, the views and the reader
// share it. Tests only; it is internal to diff.
package difftest

import (
	"slices"

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

// Compute is a block with the defaults config applies (config.EmptyCompute:
// read_write, 1 CU fixed, default suspend timeout, no settings, enabled,
// name = label), changed by opts.
func Compute(label string, opts ...Opt) *config.Compute {
	c := config.EmptyCompute(label)
	c.DeclRange = At()
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

// World is a situation to plan: a configuration, the endpoints a previous
// apply recorded in the state (by project id, then address) and the live
// endpoints (by project id).
type World struct {
	Config   *config.Config
	Recorded map[string]map[string]api.Endpoint
	Live     map[string][]api.Endpoint
}

// Busy is a world with something of everything to plan: creates, updates, a
// replacement, deletes, a move, drift, unmanaged endpoints, over two
// projects; reverse lists the endpoints and projects the other way round.
func Busy(reverse bool) World {
	const proj2 = "hidden-river-50598307"
	eps := []api.Endpoint{
		Endpoint("ep-primary", BrMain, RW, EpName("primary"), EpCU(0.25, 2), Active),
		Endpoint("ep-reports", BrMain, RO, EpName("reports")),
		Endpoint("ep-old", BrMain, RO, EpName("old")),
		Endpoint("ep-dev-app", BrDev, RO, EpName("app")),
		Endpoint("ep-stray", BrDev, RO, EpName("stray")),
	}
	eps2 := []api.Endpoint{Endpoint("ep-web", "br-web-main", RW, EpName("primary"), EpPG("work_mem", "4MB"))}
	recorded := map[string]map[string]api.Endpoint{Proj: {
		"shop.main.primary":  Endpoint("ep-primary", BrMain, RW, EpName("primary"), EpCU(0.25, 1)), // drifted
		"shop.main.reports":  eps[1],
		"shop.main.old":      eps[2],
		"shop.dev.app":       eps[3],
		"shop.main.vanished": Endpoint("ep-vanished", BrMain, RO),
	}, proj2: {"web.main.primary": eps2[0]}}
	projects := []*config.Project{
		Project("shop", Proj,
			BranchID("main", BrMain, Compute("primary", CU(0.25, 4), PG("work_mem", "64MB")), Compute("reports", ReadOnly, CU(2, 2)), Compute("new", ReadOnly)),
			BranchID("dev", BrDev, Compute("app"))), // read_only -> read_write: replace
		Project("web", proj2, BranchID("main", "br-web-main", Compute("primary", Named("primary")))),
	}
	if reverse {
		slices.Reverse(eps)
		slices.Reverse(projects)
	}
	return World{Config: CfgOf(projects...), Recorded: recorded, Live: map[string][]api.Endpoint{Proj: eps, proj2: eps2}}
}

// SecretUpdate is a world whose plan changes work_mem from TOPSECRET-1 to
// TOPSECRET-2, the value of the sensitive variable db_tuning.
func SecretUpdate() World {
	live := Endpoint("ep-x", BrMain, RW, EpName("c"), EpPG("work_mem", "TOPSECRET-1"))
	c := Compute("c", PG("work_mem", "TOPSECRET-2"))
	c.Sensitive = map[string]bool{"pg_settings": true}
	c.SensitiveFrom = map[string][]string{"pg_settings": {"db_tuning"}}
	return World{
		Config:   CfgOf(Project("shop", Proj, BranchID("main", BrMain, c))),
		Recorded: map[string]map[string]api.Endpoint{Proj: {"shop.main.c": live}},
		Live:     map[string][]api.Endpoint{Proj: {live}},
	}
}

// PreviewPR1 is the address of the compute a branch rule "previews" puts on
// the live branch preview/pr-1.
const PreviewPR1 = `shop.previews["preview/pr-1"].primary`

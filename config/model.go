package config

import (
	"context"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/sizing"
)

// Config is the desired model: what the user's files say, with every value decoded,
// defaults filled in and checked. Nothing in it is an HCL expression or a cty value:
// the planner reads plain Go. Every element keeps its source range so that errors
// found later (at plan time) still point at the file.
type Config struct {
	// Dir is the configuration directory the files were read from.
	Dir      string
	Settings Settings
	Projects []*Project
	Moves    []*Move
	Removals []*Removal
	// Files are the parsed files by name, for printing diagnostics with their
	// source lines. They hold their Bytes alone (Body and Nav are nil) unless
	// the load found syntax errors (see Load).
	Files map[string]*hcl.File
	// VarFiles names the Files that are -var-file files rather than the
	// configuration's own: a plan records the configuration's files, and the
	// values of variables only through what they made.
	VarFiles map[string]bool
	// SensitiveVariables names the variables declared sensitive = true: their
	// values are never repeated in anything neonform prints.
	SensitiveVariables map[string]bool
	// NamedValues are the variables and locals with their values, in the
	// order declared, for editors (named_values.go).
	NamedValues []NamedValue
}

// Settings is the neonform block.
type Settings struct {
	// APIURL is the service's base URL; "embedded" means the built-in emulator sandbox.
	APIURL string
	// OrgID is the organization whose projects the run lists and creates
	// (org_id); "" for none. NEON_ORG_ID overrides it.
	OrgID string
	// AccountTier is the account's plan: its caps on sizes and suspend timeouts
	// apply on top of the service's own (sizing.PlanOf).
	AccountTier sizing.Tier
	// StatePath is the state file's path, relative to Dir unless absolute.
	StatePath string
	// PricePerCUHour is the contract price of a CU-hour in US dollars
	// (price_per_cu_hour); 0 when not written: the plan's price applies (Price).
	PricePerCUHour float64
	// Budget is the account's budget block; nil when there is none (cost.go).
	Budget *Budget
	// Variables are the variables the block uses, directly or through
	// locals, sorted (settings_vars.go).
	Variables []string
	DeclRange hcl.Range
}

// Defaults of the neonform block.
const (
	DefaultAPIURL    = "https://console.neon.tech/api/v2"
	DefaultStatePath = "neonform.state.json"
	EmbeddedAPIURL   = "embedded"
)

// Project is a project block: a local label for a service project id.
type Project struct {
	Label    string
	ID       string
	Branches []*Branch
	// Rules are its branches blocks: computes for every live branch whose
	// name matches (rules.go).
	Rules []*BranchRule
	// Defaults is its defaults block: the compute attributes the service
	// gives the computes it creates in the project from then on (a branch
	// created with a compute), read as a compute block's are; nil without
	// one. Its Address is "<project>.defaults".
	Defaults *Compute
	// Budget is the project's budget block; nil when there is none (cost.go).
	Budget *Budget
	// Variables are the variables the block uses, directly or through
	// locals, sorted (settings_vars.go).
	Variables []string
	DeclRange hcl.Range
}

// Branch is a branch block. It is found in the service by ID when ID is set,
// otherwise by Name (which defaults to the label).
type Branch struct {
	Label string
	// Name is the branch's name in the service; the label unless set.
	Name string
	// ID pins the branch by id (br-...); empty when found by name.
	ID string
	// Exclusive: live computes on this branch that the configuration does not
	// declare are planned for deletion.
	Exclusive bool
	Computes  []*Compute
	DeclRange hcl.Range
	// NameRange is where the branch's name is written: the name attribute's
	// value, or the block's label when the name is the label. A message about
	// the name (no such branch in the service) points there.
	NameRange hcl.Range
}

// ComputeType is the kind of compute: the branch's read-write primary or a read replica.
type ComputeType string

const (
	ReadWrite ComputeType = "read_write"
	ReadOnly  ComputeType = "read_only"
)

// Suspend timeouts in the service's terms (internal/managed).
const (
	// SuspendDefault means the service default (300 s); it is what an omitted suspend_timeout enforces.
	SuspendDefault = managed.SuspendDefault
	// SuspendNever is suspend_timeout = "never": the compute does not scale to zero.
	SuspendNever = managed.SuspendNever
)

// Compute is a compute block, with defaults applied: an omitted attribute
// means its managed.Attribute.Default (1 CU fixed, the service's suspend
// timeout, no pg_settings, enabled, name = label) and is enforced.
type Compute struct {
	Label string
	// Address is "<project label>.<branch label>.<compute label>".
	Address string
	// ProjectLabel and BranchLabel locate the compute without pointers back up.
	ProjectLabel, BranchLabel string

	Type ComputeType
	// Applied are the values it asks for, each as the attribute table
	// (internal/managed) holds it: its size, suspend timeout, settings
	// (never nil, empty when omitted), whether it is disabled, and its
	// name in the service: the label unless written (see NameFor).
	managed.Applied
	// ActiveHours is expected_active_hours, the usage hint that narrows the
	// compute's cost to an estimate; nil when not written (cost.go).
	ActiveHours *float64

	// Lifecycle rules.
	PreventDestroy bool
	// AllowRestart is true unless lifecycle.allow_restart = false.
	AllowRestart bool

	// Sensitive names the attributes whose value comes from a variable declared
	// sensitive = true ("pg_settings", "name", ...): renderers show "(sensitive)"
	// instead of the value. Nil when there are none.
	Sensitive map[string]bool
	// SensitiveFrom names, for each attribute of Sensitive, the sensitive
	// variables its value comes from (directly or through locals), in the
	// order written: what every message names in place of the value.
	SensitiveFrom map[string][]string

	DeclRange hcl.Range
	// Ranges holds the source range of each attribute that was written, by its
	// name in the file ("max_cu", "size", "type", "lifecycle.prevent_destroy", ...),
	// so plan-time errors can point at the exact attribute. A size attribute is
	// also recorded as "min_cu" and "max_cu", since it sets both.
	Ranges Ranges
}

// NameFor is the name the compute asks of an endpoint that is named current
// now: its Name, except that a block that does not write name leaves an
// endpoint without a name unnamed. The label names what neonform creates (a
// create always sets a name, which is how a lost create is found again); an
// endpoint made without a name, such as a project's first primary, is not
// renamed just because a block adopted or generate described it.
func (c *Compute) NameFor(current string) string {
	if current == "" && !c.Wrote("name") {
		return ""
	}
	return c.Name
}

// SuspendSensitive reports whether the block's suspend timeout comes from a
// sensitive variable, and the variables it comes from.
func (c *Compute) SuspendSensitive() (bool, []string) {
	name := managed.SuspendTimeout.Name
	return c.Sensitive[name], c.SensitiveFrom[name]
}

// Wrote reports whether the block writes the named attribute.
func (c *Compute) Wrote(attr string) bool {
	_, ok := c.Ranges.Get(attr)
	return ok
}

// Range returns the range of the named attribute, or of the block when it was not written.
func (c *Compute) Range(attr string) hcl.Range {
	if r, ok := c.Ranges.Get(attr); ok {
		return r
	}
	return c.DeclRange
}

// Move is a moved block: the compute at From is now at To (a rename, or a move to
// another branch), so the plan updates it instead of deleting and creating.
type Move struct {
	From, To  string
	DeclRange hcl.Range
}

// Compute returns the compute at an address, or nil.
func (c *Config) Compute(address string) *Compute {
	for _, p := range c.Projects {
		for _, b := range p.Branches {
			for _, cp := range b.Computes {
				if cp.Address == address {
					return cp
				}
			}
		}
	}
	return nil
}

// Computes lists every compute, project by project and branch by branch, in the
// order the files declare them.
func (c *Config) Computes() []*Compute {
	var out []*Compute
	for _, p := range c.Projects {
		for _, b := range p.Branches {
			out = append(out, b.Computes...)
		}
	}
	return out
}

// ComputesByAddress indexes the computes by address, for callers that look up many
// (Compute scans the whole configuration on every call).
func (c *Config) ComputesByAddress() map[string]*Compute {
	out := map[string]*Compute{}
	for _, cp := range c.Computes() {
		out[cp.Address] = cp
	}
	return out
}

// Options are the inputs of a load besides the files.
type Options struct {
	// Vars are -var values, "name=value", in command-line order.
	Vars []string
	// VarFiles are -var-file paths, in command-line order.
	VarFiles []string
	// Environ is the process environment ("KEY=value"), for NEONFORM_VAR_<name> and env(); nil means none.
	Environ []string
	// SettingsOnly reads the neonform block alone (the service and the state), for
	// applying a saved plan: the plan already holds every value the projects used,
	// so a variable without a value is an error only where the neonform block needs it.
	SettingsOnly bool
	// Projects, with SettingsOnly, reads the project, moved and removed
	// blocks too, as far as the values given allow: an attribute that uses a
	// variable without a value is an error at the attribute. Applying a
	// saved plan holds it to the lifecycle blocks so read (diff.PolicyOf).
	Projects bool
	// KnownDir, when set, is where the configuration is known to be while
	// this run reads another directory (apply PLANFILE: the plan records
	// it): the advice for a directory without configuration files names it.
	KnownDir string
	// Open holds, by file name in the directory, the text an editor has of
	// some of its files (neonform lsp): read in place of the copy on disk,
	// or in addition to the files on disk when not saved yet (open.go).
	Open map[string][]byte
	// Context stops the evaluation when it is done (SIGINT, SIGTERM): the
	// load then returns one error, "Interrupted", where it stopped. Nil
	// means never.
	Context context.Context
}

package diff

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/state"
)

// FormatVersion is the plan file format this neonform writes and the newest it
// reads. Bump it when an older neonform would misread a new plan.
// Format 2: the plan records the live endpoints it was made from, and the
// values of its attributes are the service's (suspend_timeout in seconds).
// Format 3: a change's reasons are objects (a kind, its facts and their
// words), not sentences.
// Format 4: a reason is its kind and facts only; the words are the views'.
// Format 5: each project records the digests of its state entries
// (Project.StateEntries), and apply holds the plan to those of the projects
// it changes rather than to the whole state's serial.
const FormatVersion = 5

// Plan is everything apply needs to carry out a change safely, and everything
// a reviewer needs to judge it. It knows nothing of how it is printed.
type Plan struct {
	FormatVersion int       `json:"format_version"`
	ToolVersion   string    `json:"tool_version"`
	CreatedAt     time.Time `json:"created_at"`
	APIURL        string    `json:"api_url"`
	ConfigDigest  string    `json:"config_digest"`
	// ConfigFiles is the digest of each configuration file (not the variable
	// files), by name within the directory: apply names the files that
	// changed since. Plans written before it have none.
	ConfigFiles map[string]string `json:"config_files"`
	// ConfigDir is the configuration's directory relative to the plan
	// file's, slash-separated ("." when the file is saved in it): where
	// apply's advice sends whoever applies the file from elsewhere. Only
	// in a file saved with -out, and never a path from the root.
	ConfigDir string `json:"config_dir,omitempty"`
	// State is the state the plan was made against; apply refuses the plan
	// when the state has moved on since.
	State     StateRef    `json:"state"`
	Projects  []Project   `json:"projects"`
	Summary   Summary     `json:"summary"`
	Changes   []Change    `json:"changes"`
	Steps     []Step      `json:"steps"`
	Drift     []Drift     `json:"drift"`
	Unmanaged []Unmanaged `json:"unmanaged"`
	Warnings  []string    `json:"warnings"`
	// Suggestions are the commands the warnings suggest, each written in
	// them bare (suggest.Command.Quoted): a view writes them with its run's
	// directory and variables. Absent when they suggest none.
	Suggestions []suggest.Command `json:"suggestions,omitempty"`
	// Cost is what the planned computes cost a month before and after the
	// plan, and the price that says it (cost.go); absent from a plan written
	// before costs were kept. Derived data: Verify does not check it.
	Cost *PlanCost `json:"cost,omitempty"`
	// Targets: the plan is partial (plan -target): only the computes these
	// addresses cover were read and planned (scope.go). Absent for a whole plan.
	Targets []string `json:"targets,omitempty"`
	// Replace lists the computes planned as replacements because -replace
	// asked for it, whether or not anything in them changed.
	Replace []string `json:"replace,omitempty"`
	// Destroy: the plan deletes every compute the state manages (plan
	// -destroy, neonform destroy).
	Destroy bool `json:"destroy,omitempty"`
	// Forget lists the computes that removed blocks with lifecycle {
	// destroy = false } take out of the state: each is a state-only step,
	// and its endpoint keeps running, unmanaged. The plan records them, as
	// it records -replace, for apply to derive those steps again.
	Forget []string `json:"forget,omitempty"`
	// Defaults are what the plan does to projects' compute defaults, one
	// per defaults block (defaults.go): what the service gives the computes
	// it creates from then on. No running compute restarts for them.
	Defaults []DefaultsChange `json:"defaults,omitempty"`
	// Redacted: the document is a plan as plan -format json and show -format
	// json print it, with the values of sensitive variables hidden; apply
	// refuses it. Never set in a plan file (diff/planfile/planfile_redact.go).
	Redacted bool `json:"redacted,omitempty"`
}

// StateRef identifies a version of the state.
type StateRef struct {
	Lineage string `json:"lineage"`
	Serial  int64  `json:"serial"`
}

// Project is a planned project and its live endpoints at plan time, with
// their digest: apply re-reads them and refuses the plan when the digest
// differs, and derives the plan's steps again from its changes and these.
type Project struct {
	ID         string         `json:"id"`
	Label      string         `json:"label"`
	LiveDigest string         `json:"live_digest"`
	Endpoints  []LiveEndpoint `json:"endpoints"`
	// Defaults are the project's compute defaults as the plan read them,
	// when its block has a defaults block: a change to them is derived
	// from these.
	Defaults *api.DefaultEndpointSettings `json:"defaults,omitempty"`
	// StateEntries is the digest of each of the project's state entries
	// (its computes and its defaults) by address, as the plan read the
	// state (state.EntryDigests); absent when it had none. apply refuses
	// the plan when the entries of a project it changes differ now, and
	// names the addresses that do.
	StateEntries map[string]string `json:"state_entries,omitempty"`
}

// LiveEndpoint is a live endpoint as the plan read it: its id, whether it
// was running, and the value of every managed attribute.
type LiveEndpoint struct {
	ID           string            `json:"id"`
	CurrentState api.EndpointState `json:"current_state"`
	Values
}

// Summary counts the changes by action. Restart and Suspend count the active
// computes a change restarts or suspends (their connections drop). StateOnly
// counts the steps that change the state alone and are reviewed like the
// calls, so counted like them (an adoption or a rename that needs no call, a
// forget a removed block asks for). ForgetGone counts apart the steps that
// forget a compute whose endpoint is gone (Step.Gone), which need no review.
type Summary struct {
	Create     int `json:"create"`
	Update     int `json:"update"`
	Replace    int `json:"replace"`
	Delete     int `json:"delete"`
	NoOp       int `json:"no_op"`
	Restart    int `json:"restart"`
	Suspend    int `json:"suspend"`
	StateOnly  int `json:"state_only"`
	ForgetGone int `json:"forget_gone"`
	// Defaults counts the projects whose compute defaults change.
	Defaults int `json:"defaults"`
}

// Change is what the plan does to one compute, and what that does to its clients.
type Change struct {
	Address string `json:"address"`
	Action  Action `json:"action"`
	// Adopt: the compute takes over an endpoint that exists but is not yet in
	// state (the branch's read_write, or a read replica of the same name).
	Adopt      bool             `json:"adopt"`
	ProjectID  string           `json:"project_id"`
	BranchID   string           `json:"branch_id"`
	EndpointID string           `json:"endpoint_id,omitempty"` // empty for a create; the old endpoint for a replace
	Type       api.EndpointType `json:"type"`                  // the type after the change
	Disruption Disruption       `json:"disruption"`
	// Active: the endpoint was running at plan time (not idle), so a restart
	// or suspend drops live connections.
	Active     bool        `json:"active"`
	Attributes []Attribute `json:"attributes"`
	Reasons    []Reason    `json:"reasons"`
	// Downtime: the compute's branch has no read_write compute for a while,
	// because the one standing there is deleted (or moved away) first.
	Downtime bool `json:"downtime"`
	// Size describes the new size (RAM, connections, LFC) when the size is new.
	Size string `json:"size,omitempty"`
	// MovedFrom is the address a moved block takes this compute from.
	MovedFrom string `json:"moved_from,omitempty"`
	// PreventDestroy is the compute's lifecycle.prevent_destroy, which the
	// state records with it.
	PreventDestroy bool `json:"prevent_destroy"`
	// BranchName is the name the compute's branch block finds its branch by
	// ("" when it pins it by id), which the state records with it.
	BranchName string `json:"branch_name,omitempty"`
	// RestartIdleOnly: the compute's block says lifecycle.allow_restart =
	// false and the change restarts, suspends or recreates it. The plan was
	// made while it was idle (or not at all); apply reads it again just
	// before the step that interrupts it, and refuses the step if it has
	// woken since (a plan file does not carry the configuration).
	RestartIdleOnly bool `json:"restart_idle_only,omitempty"`
	// Sensitive names the compute's attributes ("max_cu", "pg_settings")
	// whose configured value comes from a variable declared sensitive,
	// whether they change or not (for a delete: as the state records them).
	// Apply hides their values wherever it names them, and the state records
	// the list with the compute.
	Sensitive []string `json:"sensitive,omitempty"`
	// SensitiveFrom names, for each attribute of Sensitive, the sensitive
	// variables its value comes from, which every view names in place of
	// the value: "(sensitive value from var.db_tuning)". Absent from a plan
	// written before it was kept (the views then say "(sensitive value)").
	SensitiveFrom map[string][]string `json:"sensitive_from,omitempty"`
	// Cost is what the compute costs a month before and after the change
	// (cost.go); null where it cannot be said.
	Cost ChangeCost `json:"cost"`
}

// Step is one thing apply does, in order: an API call, or a change to the
// state alone. Each step says what to record in state once it succeeds, so
// apply never needs the configuration (see UpdateState). Steps are derived
// from the changes (derive.go): apply carries out only the steps it derives
// again.
type Step struct {
	ID        int      `json:"id"`
	ProjectID string   `json:"project_id"`
	Address   string   `json:"address"`
	Kind      StepKind `json:"kind"`
	// Method, Path (relative to the API URL) and Body of the call; empty for
	// a state-only step.
	Method string          `json:"method,omitempty"`
	Path   string          `json:"path,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
	// After lists the steps this one must wait for (same project).
	After []int `json:"after"`
	// EndpointID is the endpoint the step acts on; empty for a create (the
	// new id comes from the response).
	EndpointID string `json:"endpoint_id,omitempty"`
	// Name is the endpoint name a create sets: after an ambiguous failure,
	// apply finds the endpoint it may have made by this name.
	Name string `json:"name,omitempty"`
	// Record is the state entry to write at Address after the step; a
	// create's endpoint id comes from the service's answer.
	Record *state.Compute `json:"record,omitempty"`
	// Forget is an address to drop from state after the step, if it still
	// points at EndpointID (a replacement that created first already points
	// the address at the new endpoint, which must stay).
	Forget string `json:"forget,omitempty"`
	// MovedFrom is an address to drop: its entry now lives at Address.
	MovedFrom string `json:"moved_from,omitempty"`
	// Note says in words why a state-only step is there.
	Note string `json:"note,omitempty"`
	// Sensitive and SensitiveFrom are, for a step that forgets a compute a
	// removed block lets go, the attributes of that compute whose values
	// came from sensitive variables, and those variables, as the state
	// records them: no change names the endpoint, which stays live, so the
	// step says what the views and the printed JSON hide of it
	// (SensitiveByEndpoint).
	Sensitive     []string            `json:"sensitive,omitempty"`
	SensitiveFrom map[string][]string `json:"sensitive_from,omitempty"`
	// Gone: the step forgets a compute whose endpoint is gone (deleted
	// outside neonform, often with its preview branch) and that nothing
	// plans again. It is the state catching up with the service, as
	// Terraform's refresh drops what was deleted: no change to review, so
	// it is counted apart (Summary.ForgetGone), a plan of only these has no
	// changes (HasChanges), and apply carries them out without asking.
	Gone bool `json:"gone,omitempty"`

	// Create and Update are the request of a create or an update, as the
	// client sends it; Body is its JSON. Only derived steps have them.
	Create *api.EndpointCreate `json:"-"`
	Update *api.EndpointUpdate `json:"-"`
	// Defaults is the request of a change to a project's defaults, or, in
	// a state-only step, the defaults it records.
	Defaults *api.ProjectDefaultsUpdate `json:"-"`
}

// Drift is a managed compute that changed outside neonform since the last
// apply: its live attributes differ from what state says was applied, or its
// endpoint is gone. The change that reconciles it is planned as usual.
type Drift struct {
	Address    string `json:"address"`
	ProjectID  string `json:"project_id"`
	EndpointID string `json:"endpoint_id"`
	// Gone: the endpoint no longer exists.
	Gone bool `json:"gone"`
	// Attributes: Before is what was applied, After what is live now.
	Attributes []Attribute `json:"attributes"`
}

// Unmanaged is a live endpoint that no configured compute or state entry
// claims: left alone (listed so nobody is surprised by it).
type Unmanaged struct {
	ProjectID    string           `json:"project_id"`
	ProjectLabel string           `json:"project_label"`
	BranchID     string           `json:"branch_id"`
	BranchLabel  string           `json:"branch_label,omitempty"` // empty when no branch block names the branch
	EndpointID   string           `json:"endpoint_id"`
	Name         string           `json:"name,omitempty"`
	Type         api.EndpointType `json:"type"`
}

// HasChanges reports whether the plan has changes to review: a step that
// needs review (review.go). It is what plan -detailed-exitcode, apply's
// question and the views go by.
func (p *Plan) HasChanges() bool {
	adopts := p.adoptsAsIs()
	for i := range p.Steps {
		if needsReview(&p.Steps[i], adopts) {
			return true
		}
	}
	return false
}

// HasSteps reports whether applying the plan would do anything at all,
// forgetting gone computes included.
func (p *Plan) HasSteps() bool { return len(p.Steps) > 0 }

// APICalls counts the steps that call the API.
func (p *Plan) APICalls() int {
	return len(p.Steps) - stateOnlySteps(p.Steps) - goneSteps(p.Steps)
}

// stateOnlySteps counts the steps that change the state alone and need a
// review: all but those that forget a gone compute.
func stateOnlySteps(steps []Step) int {
	n := 0
	for _, s := range steps {
		if s.Kind == StepState && !s.Gone {
			n++
		}
	}
	return n
}

// goneSteps counts the steps that forget a gone compute (Step.Gone).
func goneSteps(steps []Step) int {
	n := 0
	for _, s := range steps {
		if s.Gone {
			n++
		}
	}
	return n
}

// summarize counts the changes by action, and the restarts and suspends of
// computes that are active now.
func summarize(changes []Change) Summary {
	var s Summary
	for _, c := range changes {
		s = s.Add(c)
	}
	return s
}

// Add counts one more change.
func (s Summary) Add(c Change) Summary {
	switch c.Action {
	case Create:
		s.Create++
	case Update:
		s.Update++
	case Replace:
		s.Replace++
	case Delete:
		s.Delete++
	default:
		s.NoOp++
	}
	if c.Active && c.Disruption == Restart {
		s.Restart++
	}
	if c.Active && c.Disruption == Suspend {
		s.Suspend++
	}
	return s
}

// CompactBodies makes each step's request body compact, as the plan made it
// and apply sends it: the plan file indents the bodies with the rest.
func CompactBodies(p *Plan) error {
	for i := range p.Steps {
		if body := p.Steps[i].Body; len(body) > 0 {
			var buf bytes.Buffer
			if err := json.Compact(&buf, body); err != nil {
				return err
			}
			p.Steps[i].Body = buf.Bytes()
		}
	}
	return nil
}

// normalize makes every list a list (never null), so the file's shape does
// not depend on whether a list happens to be empty.
func Normalize(p *Plan) {
	if p.Projects == nil {
		p.Projects = []Project{}
	}
	for i := range p.Projects {
		eps := p.Projects[i].Endpoints
		if eps == nil {
			p.Projects[i].Endpoints = []LiveEndpoint{}
		}
		for j := range eps {
			eps[j].Values = eps[j].Values.settled()
		}
	}
	if p.ConfigFiles == nil {
		p.ConfigFiles = map[string]string{}
	}
	if p.Changes == nil {
		p.Changes = []Change{}
	}
	if p.Steps == nil {
		p.Steps = []Step{}
	}
	if p.Drift == nil {
		p.Drift = []Drift{}
	}
	if p.Unmanaged == nil {
		p.Unmanaged = []Unmanaged{}
	}
	if p.Warnings == nil {
		p.Warnings = []string{}
	}
	for i := range p.Changes {
		c := &p.Changes[i]
		if c.Attributes == nil {
			c.Attributes = []Attribute{}
		}
		if c.Reasons == nil {
			c.Reasons = []Reason{}
		}
	}
	for i := range p.Steps {
		if p.Steps[i].After == nil {
			p.Steps[i].After = []int{}
		}
	}
	for i := range p.Defaults {
		if p.Defaults[i].Attributes == nil {
			p.Defaults[i].Attributes = []Attribute{}
		}
	}
	for i := range p.Drift {
		if p.Drift[i].Attributes == nil {
			p.Drift[i].Attributes = []Attribute{}
		}
	}
}

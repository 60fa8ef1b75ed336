package emulator

import (
	"maps"
	"slices"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/managed"
)

// The request bodies of endpoint calls, decoded with pointers so that an attribute left
// out and an attribute set to its zero value differ. Checks follow the constraints of
// the OpenAPI file (EndpointCreateRequest, EndpointUpdateRequest) and docs/service.md (Requests and defaults).

// settingsBody is EndpointSettingsData. Each of its parts is optional: on update, a
// part left out keeps what the compute has.
type settingsBody struct {
	PgSettings        map[string]string `json:"pg_settings"`
	PgbouncerSettings map[string]string `json:"pgbouncer_settings"`
	PreloadLibraries  *preloadBody      `json:"preload_libraries"`
}

// preloadBody is PreloadLibraries.
type preloadBody struct {
	UseDefaults      *bool    `json:"use_defaults"`
	EnabledLibraries []string `json:"enabled_libraries"`
}

func (b *preloadBody) wire() *api.PreloadLibraries {
	if b == nil {
		return nil
	}
	return &api.PreloadLibraries{UseDefaults: b.UseDefaults, EnabledLibraries: slices.Clone(b.EnabledLibraries)}
}

// endpointFields are the attributes both create and update accept.
type endpointFields struct {
	BranchID              *string       `json:"branch_id"`
	Settings              *settingsBody `json:"settings"`
	AutoscalingLimitMinCU *float64      `json:"autoscaling_limit_min_cu"`
	AutoscalingLimitMaxCU *float64      `json:"autoscaling_limit_max_cu"`
	Provisioner           *string       `json:"provisioner"`
	PoolerEnabled         *bool         `json:"pooler_enabled"`
	PoolerMode            *string       `json:"pooler_mode"`
	Disabled              *bool         `json:"disabled"`
	PasswordlessAccess    *bool         `json:"passwordless_access"`
	SuspendTimeoutSeconds *int64        `json:"suspend_timeout_seconds"`
	Name                  *string       `json:"name"`
	// Only create accepts these; an update that sends them is refused.
	Type     *string `json:"type"`
	RegionID *string `json:"region_id"`
}

type endpointBody struct {
	Endpoint *endpointFields `json:"endpoint"`
}

// check applies the constraints every endpoint body shares.
func (f *endpointFields) check() error {
	if f.BranchID != nil && !validID(*f.BranchID) {
		return badRequest("branch_id %q is not a branch id (1 to 60 lowercase letters, digits or dashes)", *f.BranchID)
	}
	if f.Name != nil && (len(*f.Name) < 1 || len(*f.Name) > 64) {
		return badRequest("name must be 1 to 64 characters long")
	}
	if f.SuspendTimeoutSeconds != nil {
		if err := checkSuspendTimeout(*f.SuspendTimeoutSeconds); err != nil {
			return err
		}
	}
	for _, v := range []*float64{f.AutoscalingLimitMinCU, f.AutoscalingLimitMaxCU} {
		if v != nil && *v < 0.25 {
			return badRequest("compute units must be at least 0.25, got %g", *v)
		}
	}
	if f.PoolerMode != nil && *f.PoolerMode != "transaction" {
		return badRequest("pooler_mode %q is not supported; the only mode is transaction", *f.PoolerMode)
	}
	if f.Provisioner != nil {
		if err := checkProvisioner(*f.Provisioner); err != nil {
			return err
		}
	}
	return nil
}

// checkScaleToZero refuses a suspend timeout the request sets on a compute it leaves
// above 16 CU (checkScaleToZero in worldload.go). A timeout the compute already had,
// or one of the project's defaults, is not the request's and is let be: such a
// compute stays active whatever it says.
func (f *endpointFields) checkScaleToZero(minCU, maxCU float64) error {
	if f.SuspendTimeoutSeconds == nil {
		return nil
	}
	return checkScaleToZero(minCU, maxCU, *f.SuspendTimeoutSeconds)
}

func checkSuspendTimeout(s int64) error {
	if s < -1 || s > 604800 || (s > 0 && s < 60) {
		return badRequest("suspend_timeout_seconds %d is out of range: use -1 (never suspend), 0 (the default, 300 s) or 60 to 604800 (one week)", s)
	}
	return nil
}

func checkProvisioner(p string) error {
	if p != "k8s-pod" && p != "k8s-neonvm" {
		return badRequest("provisioner %q is not known; use k8s-neonvm (autoscaling) or k8s-pod", p)
	}
	return nil
}

// computeSpec is a checked compute to create.
type computeSpec struct {
	branchID          string
	typ               api.EndpointType
	name              string
	minCU, maxCU      float64
	pgSettings        map[string]string
	pgbouncerSettings map[string]string
	preloadLibraries  *api.PreloadLibraries
	poolerEnabled     bool
	poolerMode        string
	disabled          bool
	passwordless      bool
	provisioner       string
	suspendTimeout    int64
}

// defaultCompute is what the service gives a compute when the request says nothing:
// 1 CU fixed, default suspend timeout, no settings, enabled (docs/service.md, Requests and defaults).
func defaultCompute() computeSpec {
	return computeSpec{minCU: managed.DefaultCU, maxCU: managed.DefaultCU, poolerMode: "transaction", passwordless: true, provisioner: defaultProvisioner}
}

// sizeWithDefaults fills a size range of which one end may be missing: the default is
// 1 CU, moved to the given end when that end would otherwise be crossed.
func sizeWithDefaults(minCU, maxCU *float64) (float64, float64) {
	switch {
	case minCU != nil && maxCU != nil:
		return *minCU, *maxCU
	case minCU != nil:
		return *minCU, max(managed.DefaultCU, *minCU)
	case maxCU != nil:
		return min(managed.DefaultCU, *maxCU), *maxCU
	}
	return managed.DefaultCU, managed.DefaultCU
}

// createSpec turns a create body into a compute spec, with the project's defaults for
// what the body leaves out (d may be nil). Sizes are checked later, against the
// project's tier.
func (f *endpointFields) createSpec(d *api.DefaultEndpointSettings) (computeSpec, error) {
	if f.BranchID == nil {
		return computeSpec{}, badRequest(`endpoint.branch_id is required: the branch the compute serves`)
	}
	s, err := f.spec(d)
	s.branchID = *f.BranchID
	return s, err
}

// spec checks the attributes of a new compute and turns them into a spec, with the
// project's defaults d (may be nil) for what they leave out; the branch is set by the
// caller.
func (f *endpointFields) spec(d *api.DefaultEndpointSettings) (computeSpec, error) {
	if err := f.check(); err != nil {
		return computeSpec{}, err
	}
	if f.Type == nil {
		return computeSpec{}, badRequest(`endpoint.type is required: read_write (the branch's primary) or read_only`)
	}
	// The service refuses a new compute's settings without pg_settings (docs/service.md,
	// Requests and defaults); an update may leave them out to keep the compute's own.
	if f.Settings != nil && f.Settings.PgSettings == nil {
		return computeSpec{}, badRequest(`settings must not be nil: send "settings": {"pg_settings": {...}} ({} for none)`)
	}
	s := f.resolve(d)
	if err := f.checkScaleToZero(s.minCU, s.maxCU); err != nil {
		return computeSpec{}, err
	}
	switch api.EndpointType(*f.Type) {
	case api.EndpointTypeReadWrite, api.EndpointTypeReadOnly:
		s.typ = api.EndpointType(*f.Type)
	default:
		return computeSpec{}, badRequest("endpoint type %q is neither read_write nor read_only", *f.Type)
	}
	return s, nil
}

// resolve is the compute the attributes ask for: each one given, else the project's
// default (d, may be nil), else the service's (defaultCompute). Nothing is checked.
func (f *endpointFields) resolve(d *api.DefaultEndpointSettings) computeSpec {
	if d == nil {
		d = &api.DefaultEndpointSettings{}
	}
	s := defaultCompute()
	minCU, maxCU := f.AutoscalingLimitMinCU, f.AutoscalingLimitMaxCU
	if minCU == nil {
		minCU = d.AutoscalingLimitMinCU
	}
	if maxCU == nil {
		maxCU = d.AutoscalingLimitMaxCU
	}
	s.minCU, s.maxCU = sizeWithDefaults(minCU, maxCU)
	s.pgSettings = maps.Clone(d.PgSettings)
	s.pgbouncerSettings = maps.Clone(d.PgbouncerSettings)
	setIf(&s.suspendTimeout, d.SuspendTimeoutSeconds)
	if in := f.Settings; in != nil {
		s.pgSettings = maps.Clone(in.PgSettings)
		if in.PgbouncerSettings != nil {
			s.pgbouncerSettings = maps.Clone(in.PgbouncerSettings)
		}
		s.preloadLibraries = in.PreloadLibraries.wire()
	}
	setIf(&s.name, f.Name)
	setIf(&s.provisioner, f.Provisioner)
	setIf(&s.poolerEnabled, f.PoolerEnabled)
	setIf(&s.poolerMode, f.PoolerMode)
	setIf(&s.disabled, f.Disabled)
	setIf(&s.passwordless, f.PasswordlessAccess)
	setIf(&s.suspendTimeout, f.SuspendTimeoutSeconds)
	return s
}

// checkDefaults checks a project's default endpoint settings as the attributes of a
// compute are checked: the timeout and the size it would give a compute (whose sizes
// for the plan the caller checks).
func checkDefaults(d *api.DefaultEndpointSettings) error {
	if d == nil {
		return nil
	}
	f := endpointFields{AutoscalingLimitMinCU: d.AutoscalingLimitMinCU, AutoscalingLimitMaxCU: d.AutoscalingLimitMaxCU,
		SuspendTimeoutSeconds: d.SuspendTimeoutSeconds}
	if err := f.check(); err != nil {
		return badRequest("default_endpoint_settings: %s", err.(*apiError).message)
	}
	return nil
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// checkAutoscalingProvisioner: only k8s-neonvm computes autoscale.
func checkAutoscalingProvisioner(provisioner string, minCU, maxCU float64) error {
	if provisioner == "k8s-pod" && minCU != maxCU {
		return badRequest("provisioner k8s-pod cannot autoscale (%g..%g CU); use a fixed size or provisioner k8s-neonvm", minCU, maxCU)
	}
	return nil
}

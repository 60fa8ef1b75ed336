package emulator

import (
	"cmp"
	"maps"
	"net/http"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// projectCreateBody is ProjectCreateRequest, with pointers where absent and zero differ.
type projectCreateBody struct {
	Project *projectCreateFields `json:"project"`
}

// projectCreateFields is the request's project.
type projectCreateFields struct {
	Name                    *string                      `json:"name"`
	RegionID                string                       `json:"region_id"`
	PgVersion               *int                         `json:"pg_version"`
	OrgID                   string                       `json:"org_id"`
	HistoryRetentionSeconds *int64                       `json:"history_retention_seconds"`
	Provisioner             string                       `json:"provisioner"`
	AutoscalingLimitMinCU   *float64                     `json:"autoscaling_limit_min_cu"`
	AutoscalingLimitMaxCU   *float64                     `json:"autoscaling_limit_max_cu"`
	Branch                  *branchCreateFields          `json:"branch"`
	DefaultEndpointSettings *api.DefaultEndpointSettings `json:"default_endpoint_settings"`
}

// branchCreateFields is the request's default branch.
type branchCreateFields struct {
	Name         *string           `json:"name"`
	RoleName     *string           `json:"role_name"`
	DatabaseName *string           `json:"database_name"`
	Annotations  map[string]string `json:"annotations"`
}

// projectSpec is a checked request for a new project.
type projectSpec struct {
	id, name, ownerID, orgID, region string
	tier                             sizing.Tier
	pgVersion                        int
	retention                        int32
	creationSource                   string
	branchName                       string
	roleName, databaseName           string            // of the default branch; "" for the service's
	annotations                      map[string]string // of the default branch
	defaults                         *api.DefaultEndpointSettings
	compute                          computeSpec
}

// createProject makes a project with its default branch and read_write compute (201).
// A personal key makes a personal project, or an organization one with org_id when its
// user is a member; an organization key makes one in its organization.
func (e *Emulator) createProject(c *call) (int, any, error) {
	if c.key.Kind == keyProject {
		return 0, nil, forbidden("a project-scoped API key cannot create projects; use a personal or organization API key")
	}
	var body projectCreateBody
	if err := decodeBody(c, &body, true); err != nil {
		return 0, nil, err
	}
	if body.Project == nil {
		return 0, nil, badRequest(`the body needs a "project" object, e.g. {"project":{"name":"shop"}}`)
	}
	in := body.Project
	spec, err := specOf(in)
	if err != nil {
		return 0, nil, err
	}
	if err := e.requireOrgID(c, in.OrgID); err != nil {
		return 0, nil, err
	}
	if err := e.projectOwner(c.key, in.OrgID, &spec); err != nil {
		return 0, nil, err
	}
	if err := checkSize(spec.compute.minCU, spec.compute.maxCU, spec.tier); err != nil {
		return 0, nil, err
	}
	if err := checkPlanSuspend(spec.compute.suspendTimeout, spec.tier); err != nil {
		return 0, nil, err
	}
	if err := e.checkProjectCount(&spec); err != nil {
		return 0, nil, err
	}
	out, err := e.newProject(spec, c.now)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, out, e.save()
}

// specOf checks the request's project, and what it says of the project to
// make; the owner and the limits of the account are checked after.
func specOf(in *projectCreateFields) (projectSpec, error) {
	spec := projectSpec{region: defaultString(in.RegionID, defaultRegion), pgVersion: defaultPgVersion,
		retention: defaultRetention, creationSource: "api", branchName: "main", compute: defaultCompute()}
	if in.Name != nil {
		if n := len(*in.Name); n < 1 || n > 256 {
			return spec, badRequest("project name must be 1 to 256 characters long")
		}
		spec.name = *in.Name
	}
	if _, ok := regionHost(spec.region); !ok {
		return spec, badRequest("region_id %q is not a region of the service; use one of %s", spec.region, regionList())
	}
	if in.PgVersion != nil {
		if *in.PgVersion < 14 || *in.PgVersion > 18 {
			return spec, badRequest("pg_version %d is not supported; use 14, 15, 16, 17 or 18", *in.PgVersion)
		}
		spec.pgVersion = *in.PgVersion
	}
	if r := in.HistoryRetentionSeconds; r != nil {
		if *r < 0 || *r > 2592000 {
			return spec, badRequest("history_retention_seconds must be from 0 to 2592000 (30 days)")
		}
		spec.retention = int32(*r)
	}
	if b := in.Branch; b != nil {
		if err := spec.setBranch(b); err != nil {
			return spec, err
		}
	}
	// The project keeps its default_endpoint_settings for every compute made later
	// without values of its own; the deprecated sizes of the project are the same
	// defaults, under their old name.
	spec.defaults = in.DefaultEndpointSettings
	if in.AutoscalingLimitMinCU != nil || in.AutoscalingLimitMaxCU != nil {
		d := api.DefaultEndpointSettings{}
		if spec.defaults != nil {
			d = *spec.defaults
		}
		d.AutoscalingLimitMinCU = cmp.Or(d.AutoscalingLimitMinCU, in.AutoscalingLimitMinCU)
		d.AutoscalingLimitMaxCU = cmp.Or(d.AutoscalingLimitMaxCU, in.AutoscalingLimitMaxCU)
		spec.defaults = &d
	}
	if err := checkDefaults(spec.defaults); err != nil {
		return spec, err
	}
	spec.compute = (&endpointFields{}).resolve(spec.defaults)
	if in.Provisioner != "" {
		if err := checkProvisioner(in.Provisioner); err != nil {
			return spec, err
		}
		spec.compute.provisioner = in.Provisioner
	}
	return spec, nil
}

// setBranch takes the request's default branch.
func (s *projectSpec) setBranch(b *branchCreateFields) error {
	if b.Name != nil {
		if n := len(*b.Name); n < 1 || n > 256 {
			return badRequest("branch name must be 1 to 256 characters long")
		}
		s.branchName = *b.Name
	}
	if err := setPostgresName(&s.roleName, b.RoleName, "branch.role_name"); err != nil {
		return err
	}
	if err := setPostgresName(&s.databaseName, b.DatabaseName, "branch.database_name"); err != nil {
		return err
	}
	if err := checkAnnotations(b.Annotations); err != nil {
		return err
	}
	s.annotations = maps.Clone(b.Annotations)
	return nil
}

// setPostgresName takes the name of a role or database when one is given. Postgres
// cuts names at 63 bytes; the service's own limit is not documented.
func setPostgresName(dst, v *string, field string) error {
	if v == nil {
		return nil
	}
	if n := len(*v); n < 1 || n > 63 {
		return badRequest("%s must be 1 to 63 characters long (a Postgres name)", field)
	}
	*dst = *v
	return nil
}

// projectOwner decides who owns a new project and on which plan; the key is a personal
// or an organization key (createProject refused a project-scoped one).
func (e *Emulator) projectOwner(k *apiKey, orgID string, spec *projectSpec) error {
	w := e.w
	w.mu.RLock()
	defer w.mu.RUnlock()
	switch k.Kind {
	case keyOrganization:
		if orgID != "" && orgID != k.OrgID {
			return forbidden("this organization API key belongs to %s and cannot create projects in %s", k.OrgID, orgID)
		}
		o := w.orgs[k.OrgID]
		spec.orgID, spec.ownerID, spec.tier = o.ID, k.CreatedBy, o.Tier
		return nil
	}
	u := w.users[k.UserID]
	if orgID == "" {
		spec.ownerID, spec.tier = u.ID, u.Tier
		return nil
	}
	o := w.orgs[orgID]
	if o == nil || o.Members[u.ID] == "" {
		return errorf(http.StatusNotFound, codeNotFound, "organization %s not found among the organizations of this key's user", orgID)
	}
	spec.orgID, spec.ownerID, spec.tier = o.ID, u.ID, o.Tier
	return nil
}

// newProject creates a project as the service does: default branch, its read_write
// compute, and the operations create_timeline then start_compute.
func (e *Emulator) newProject(spec projectSpec, now time.Time) (projectCreated, error) {
	if spec.id == "" {
		for spec.id = e.ids.projectID(); e.w.project(spec.id) != nil; spec.id = e.ids.projectID() {
		}
	}
	p := newProject()
	p.ID, p.Name, p.OwnerID, p.OrgID, p.RegionID = spec.id, defaultString(spec.name, spec.id), spec.ownerID, spec.orgID, spec.region
	p.Tier, p.PgVersion, p.HistoryRetentionSeconds, p.CreationSource = spec.tier, spec.pgVersion, spec.retention, spec.creationSource
	p.Defaults = spec.defaults
	p.CreatedAt, p.UpdatedAt = now, now

	b := &branch{ID: e.newBranchID(p.ID), ProjectID: p.ID, Name: spec.branchName, Default: true,
		CreatedAt: now, UpdatedAt: now, CreationSource: spec.creationSource, Annotations: spec.annotations}
	e.addDefaultRoleAndDatabase(b, spec.roleName, spec.databaseName, now)
	p.branches[b.ID] = b
	spec.compute.branchID, spec.compute.typ = b.ID, api.EndpointTypeReadWrite
	ep := e.newEndpoint(p, spec.compute, now)
	p.addEndpoint(ep)
	ops := e.startChain(p, now,
		opStep{action: api.ActionCreateTimeline, branchID: b.ID},
		opStep{action: api.ActionStartCompute, branchID: b.ID, endpointID: ep.ID})
	b.ReadyAt = ops[0].FinishAt
	ep.Life = lifecycle{From: api.EndpointStateInit, To: api.EndpointStateActive, At: ops[1].FinishAt}

	e.w.mu.Lock()
	if e.w.projects[p.ID] != nil {
		e.w.mu.Unlock()
		e.w.forgetBranch(b.ID)
		e.w.forgetEndpoint(ep.ID)
		return projectCreated{}, conflict(codeConflict, "project %s already exists", p.ID)
	}
	owner := e.w.users[p.OwnerID]
	e.w.mu.Unlock()
	e.w.addProject(p)

	return projectCreated{
		Project:        p.answer(now, owner),
		Branch:         b.wire(now, true),
		Endpoints:      []api.Endpoint{ep.wire(now, true, true)},
		Operations:     wireOps(ops, now, true),
		ConnectionURIs: e.connectionDetails(b, ep),
		Roles:          b.wireRoles(true),
		Databases:      b.wireDatabases(),
	}, nil
}

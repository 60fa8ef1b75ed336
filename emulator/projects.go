package emulator

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

const (
	defaultProjectsLimit = 10
	maxProjectsLimit     = 400
)

// listProjects pages through the projects the key may see, ordered by id. The cursor
// is the id of the last project of the previous page (as the service's is), so a page
// never repeats a project even when projects come and go between pages. Every
// non-empty page carries a cursor; the page after the last is empty.
func (e *Emulator) listProjects(c *call) (int, any, error) {
	q := c.r.URL.Query()
	limit, err := queryLimit(c, defaultProjectsLimit, maxProjectsLimit)
	if err != nil {
		return 0, nil, err
	}
	if err := checkTimeoutParam(c); err != nil {
		return 0, nil, err
	}
	orgID := q.Get("org_id")
	if orgID != "" && !validID(orgID) {
		return 0, nil, badRequest("org_id %q is not an organization id", orgID)
	}
	search := strings.ToLower(q.Get("search"))
	cursor := q.Get("cursor")

	items := make([]projectListItemWire, 0, limit)
	w := e.w
	w.mu.RLock()
	i, found := slices.BinarySearch(w.projectIDs, cursor)
	if found {
		i++
	}
	for ; i < len(w.projectIDs) && len(items) < limit; i++ {
		p := w.projects[w.projectIDs[i]]
		if !w.canSee(c.key, p) || (orgID != "" && p.OrgID != orgID) {
			continue
		}
		p.mu.RLock()
		match := search == "" || strings.Contains(p.ID, search) || strings.Contains(strings.ToLower(p.Name), search)
		if match {
			items = append(items, p.listAnswer())
		}
		p.mu.RUnlock()
	}
	w.mu.RUnlock()

	out := projectsResponse{Projects: items, Applications: map[string]any{}, Integrations: map[string]any{}}
	if len(items) > 0 {
		out.Pagination = &api.Pagination{Cursor: items[len(items)-1].ID}
	}
	return http.StatusOK, out, nil
}

func (e *Emulator) getProject(c *call) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	owner := e.ownerOf(p)
	p.mu.RLock()
	defer p.mu.RUnlock()
	return http.StatusOK, projectResponse{Project: p.answer(c.now, owner)}, nil
}

// checkTimeoutParam checks the timeout query parameter of the project lists.
func checkTimeoutParam(c *call) error {
	if t := c.r.URL.Query().Get("timeout"); t != "" {
		if n, err := strconv.Atoi(t); err != nil || n < 100 || n > 30000 {
			return badRequest("timeout %q must be a whole number of milliseconds from 100 to 30000", t)
		}
	}
	return nil
}

// projectCreateBody is ProjectCreateRequest, with pointers where absent and zero differ.
type projectCreateBody struct {
	Project *struct {
		Name                    *string  `json:"name"`
		RegionID                string   `json:"region_id"`
		PgVersion               *int     `json:"pg_version"`
		OrgID                   string   `json:"org_id"`
		HistoryRetentionSeconds *int64   `json:"history_retention_seconds"`
		Provisioner             string   `json:"provisioner"`
		AutoscalingLimitMinCU   *float64 `json:"autoscaling_limit_min_cu"`
		AutoscalingLimitMaxCU   *float64 `json:"autoscaling_limit_max_cu"`
		Branch                  *struct {
			Name *string `json:"name"`
		} `json:"branch"`
		DefaultEndpointSettings *api.DefaultEndpointSettings `json:"default_endpoint_settings"`
	} `json:"project"`
}

// projectSpec is a checked request for a new project.
type projectSpec struct {
	id, name, ownerID, orgID, region string
	tier                             sizing.Tier
	pgVersion                        int
	retention                        int32
	creationSource                   string
	branchName                       string
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
	spec := projectSpec{region: defaultString(in.RegionID, defaultRegion), pgVersion: defaultPgVersion,
		retention: defaultRetention, creationSource: "api", branchName: "main", compute: defaultCompute()}
	if in.Name != nil {
		if n := len(*in.Name); n < 1 || n > 256 {
			return 0, nil, badRequest("project name must be 1 to 256 characters long")
		}
		spec.name = *in.Name
	}
	if _, ok := regionHost(spec.region); !ok {
		return 0, nil, badRequest("region_id %q is not a region of the service; use one of %s", spec.region, regionList())
	}
	if in.PgVersion != nil {
		if *in.PgVersion < 14 || *in.PgVersion > 18 {
			return 0, nil, badRequest("pg_version %d is not supported; use 14, 15, 16, 17 or 18", *in.PgVersion)
		}
		spec.pgVersion = *in.PgVersion
	}
	if r := in.HistoryRetentionSeconds; r != nil {
		if *r < 0 || *r > 2592000 {
			return 0, nil, badRequest("history_retention_seconds must be from 0 to 2592000 (30 days)")
		}
		spec.retention = int32(*r)
	}
	if in.Branch != nil && in.Branch.Name != nil {
		if n := len(*in.Branch.Name); n < 1 || n > 256 {
			return 0, nil, badRequest("branch name must be 1 to 256 characters long")
		}
		spec.branchName = *in.Branch.Name
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
		return 0, nil, err
	}
	spec.compute = (&endpointFields{}).resolve(spec.defaults)
	if in.Provisioner != "" {
		if err := checkProvisioner(in.Provisioner); err != nil {
			return 0, nil, err
		}
		spec.compute.provisioner = in.Provisioner
	}

	if err := e.projectOwner(c.key, in.OrgID, &spec); err != nil {
		return 0, nil, err
	}
	if err := checkSize(spec.compute.minCU, spec.compute.maxCU, spec.tier); err != nil {
		return 0, nil, err
	}
	out, err := e.newProject(spec, c.now)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, out, e.save()
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
		CreatedAt: now, UpdatedAt: now, CreationSource: spec.creationSource}
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
		ConnectionURIs: []any{},
		Roles:          []any{},
		Databases:      []any{},
	}, nil
}

// deleteProject removes a project and everything in it. A project-scoped key cannot
// delete its project.
func (e *Emulator) deleteProject(c *call) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	if c.key.Kind == keyProject {
		return 0, nil, forbidden("a project-scoped API key cannot delete its project; use a personal or organization API key")
	}
	owner := e.ownerOf(p)
	p.mu.Lock()
	if p.deleted {
		p.mu.Unlock()
		return 0, nil, projectNotFound(p.ID)
	}
	if p.busy(c.now) {
		p.mu.Unlock()
		return 0, nil, locked()
	}
	p.deleted = true
	out := projectResponse{Project: p.answer(c.now, owner)}
	for id := range p.endpoints {
		e.w.forgetEndpoint(id)
	}
	for id := range p.branches {
		e.w.forgetBranch(id)
	}
	p.mu.Unlock()
	e.w.removeProject(p.ID)
	return http.StatusOK, out, e.save()
}

// projectUpdateBody is ProjectUpdateRequest (the attributes the emulator models).
type projectUpdateBody struct {
	Project *struct {
		Name                    *string                      `json:"name"`
		HistoryRetentionSeconds *int64                       `json:"history_retention_seconds"`
		DefaultEndpointSettings *api.DefaultEndpointSettings `json:"default_endpoint_settings"`
	} `json:"project"`
}

// updateProject renames a project, changes its history retention or its default
// endpoint settings: 200 with the project and no operations. Each default sent
// replaces the project's and those left out are kept; computes that exist keep their
// settings (the defaults are for computes made later).
func (e *Emulator) updateProject(c *call) (int, any, error) {
	var body projectUpdateBody
	if err := decodeBody(c, &body, true); err != nil {
		return 0, nil, err
	}
	in := body.Project
	if in == nil {
		return 0, nil, badRequest(`the body needs a "project" object, e.g. {"project":{"name":"shop"}}`)
	}
	if in.Name != nil && (len(*in.Name) < 1 || len(*in.Name) > 256) {
		return 0, nil, badRequest("project name must be 1 to 256 characters long")
	}
	if r := in.HistoryRetentionSeconds; r != nil && (*r < 0 || *r > 2592000) {
		return 0, nil, badRequest("history_retention_seconds must be from 0 to 2592000 (30 days)")
	}
	if err := checkDefaults(in.DefaultEndpointSettings); err != nil {
		return 0, nil, err
	}
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	owner := e.ownerOf(p)
	p.mu.Lock()
	defaults := mergeDefaults(p.Defaults, in.DefaultEndpointSettings)
	switch {
	case p.deleted:
		err = projectNotFound(p.ID)
	case p.busy(c.now):
		err = locked()
	case defaults != nil:
		cs := (&endpointFields{}).resolve(defaults)
		err = checkSize(cs.minCU, cs.maxCU, p.Tier)
	}
	if err != nil {
		p.mu.Unlock()
		return 0, nil, err
	}
	p.Defaults = defaults
	setIf(&p.Name, in.Name)
	if r := in.HistoryRetentionSeconds; r != nil {
		p.HistoryRetentionSeconds = int32(*r)
	}
	p.UpdatedAt = c.now
	out := projectOperations{Project: p.answer(c.now, owner), Operations: []api.Operation{}}
	p.mu.Unlock()
	return http.StatusOK, out, e.save()
}

// mergeDefaults is a project's defaults after an update: each default sent replaces
// the old one, the others stay. A new copy: the old one may be in an answer being
// encoded.
func mergeDefaults(old, in *api.DefaultEndpointSettings) *api.DefaultEndpointSettings {
	if in == nil {
		return old
	}
	d := api.DefaultEndpointSettings{}
	if old != nil {
		d = *old
	}
	if in.PgSettings != nil {
		d.PgSettings = maps.Clone(in.PgSettings)
	}
	if in.PgbouncerSettings != nil {
		d.PgbouncerSettings = maps.Clone(in.PgbouncerSettings)
	}
	d.AutoscalingLimitMinCU = cmp.Or(in.AutoscalingLimitMinCU, d.AutoscalingLimitMinCU)
	d.AutoscalingLimitMaxCU = cmp.Or(in.AutoscalingLimitMaxCU, d.AutoscalingLimitMaxCU)
	d.SuspendTimeoutSeconds = cmp.Or(in.SuspendTimeoutSeconds, d.SuspendTimeoutSeconds)
	return &d
}

// ownerOf returns the user who owns a project, or nil when the user is gone. Call it
// before taking the project's lock (world before project).
func (e *Emulator) ownerOf(p *project) *user {
	e.w.mu.RLock()
	defer e.w.mu.RUnlock()
	return e.w.users[p.OwnerID]
}

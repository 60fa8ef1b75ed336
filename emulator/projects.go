package emulator

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/neonform/neonform/api"
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
	if err := e.listScope(c, orgID); err != nil {
		return 0, nil, err
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
	for id, ep := range p.endpoints {
		e.dropSessions(ep)
		e.w.forgetEndpoint(id)
	}
	for id := range p.branches {
		e.w.forgetBranch(id)
	}
	e.branchesDeleted(slices.Collect(maps.Keys(p.branches))...)
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
		if err = checkSize(cs.minCU, cs.maxCU, p.Tier); err == nil {
			err = checkPlanSuspend(cs.suspendTimeout, p.Tier)
		}
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

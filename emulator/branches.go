package emulator

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
)

// readBranch finds the request's project and {branch_id} and runs read with the
// project's read lock held.
func (e *Emulator) readBranch(c *call, read func(p *project, b *branch) (any, error)) (int, any, error) {
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}
	id := c.param("branch_id")
	p.mu.RLock()
	defer p.mu.RUnlock()
	b := p.branches[id]
	if b == nil {
		return 0, nil, branchNotFound(id)
	}
	out, err := read(p, b)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, out, nil
}

func (e *Emulator) getBranch(c *call) (int, any, error) {
	return e.readBranch(c, func(_ *project, b *branch) (any, error) {
		return api.BranchResponse{Branch: b.wire(c.now, false), Annotation: b.annotation()}, nil
	})
}

// branchCursor is the opaque cursor of the branch list (CursorPagination): the sort
// and the position of the last branch returned, so pages never repeat a branch.
type branchCursor struct {
	SortBy string `json:"b"`
	Order  string `json:"o"`
	Name   string `json:"v,omitempty"`
	Time   int64  `json:"t,omitempty"`
	ID     string `json:"i"`
}

func (bc branchCursor) encode() string {
	b, _ := json.Marshal(bc)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeBranchCursor(s string) (branchCursor, bool) {
	var bc branchCursor
	raw, err := base64.RawURLEncoding.DecodeString(s)
	return bc, err == nil && json.Unmarshal(raw, &bc) == nil && bc.ID != ""
}

func cursorOf(b api.Branch, sortBy, order string) branchCursor {
	bc := branchCursor{SortBy: sortBy, Order: order, ID: b.ID}
	switch sortBy {
	case "name":
		bc.Name = b.Name
	case "created_at":
		bc.Time = b.CreatedAt.UnixNano()
	default:
		bc.Time = b.UpdatedAt.UnixNano()
	}
	return bc
}

// compareBranch orders two branch positions by the sort key, then by id.
func compareBranch(a, b branchCursor) int {
	if c := cmp.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Time, b.Time); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// listBranches lists a project's branches: all of them without limit, else pages with
// a next cursor while more remain.
func (e *Emulator) listBranches(c *call) (int, any, error) {
	q := c.r.URL.Query()
	sortBy := defaultString(q.Get("sort_by"), "updated_at")
	if sortBy != "name" && sortBy != "created_at" && sortBy != "updated_at" {
		return 0, nil, badRequest("sort_by %q must be name, created_at or updated_at", sortBy)
	}
	order := defaultString(q.Get("sort_order"), "desc")
	if order != "asc" && order != "desc" {
		return 0, nil, badRequest("sort_order %q must be asc or desc", order)
	}
	limit, err := queryLimit(c, 0, 10000)
	if err != nil {
		return 0, nil, err
	}
	var after *branchCursor
	if s := q.Get("cursor"); s != "" {
		bc, ok := decodeBranchCursor(s)
		if !ok || bc.SortBy != sortBy || bc.Order != order {
			return 0, nil, badRequest("cursor %q is not one this list gave out for sort_by=%s and sort_order=%s; start again without a cursor", s, sortBy, order)
		}
		after = &bc
	}
	search := strings.ToLower(q.Get("search"))
	p, err := e.project(c)
	if err != nil {
		return 0, nil, err
	}

	p.mu.RLock()
	all := make([]api.Branch, 0, len(p.branches))
	annotations := map[string]any{}
	for _, b := range p.branches {
		if search == "" || strings.Contains(b.ID, search) || strings.Contains(strings.ToLower(b.Name), search) {
			all = append(all, b.wire(c.now, false))
			if len(b.Annotations) > 0 {
				annotations[b.ID] = b.annotation()
			}
		}
	}
	p.mu.RUnlock()

	sign := 1
	if order == "desc" {
		sign = -1
	}
	slices.SortFunc(all, func(a, b api.Branch) int {
		return sign * compareBranch(cursorOf(a, sortBy, order), cursorOf(b, sortBy, order))
	})
	if after != nil {
		i := 0
		for i < len(all) && sign*compareBranch(cursorOf(all[i], sortBy, order), *after) <= 0 {
			i++
		}
		all = all[i:]
	}
	pag := &api.CursorPagination{SortBy: sortBy, SortOrder: order}
	if limit > 0 && len(all) > limit {
		all = all[:limit]
		pag.Next = cursorOf(all[limit-1], sortBy, order).encode()
	}
	for id := range annotations {
		if !slices.ContainsFunc(all, func(b api.Branch) bool { return b.ID == id }) {
			delete(annotations, id) // on another page
		}
	}
	return http.StatusOK, api.BranchesResponse{Branches: all, Annotations: annotations, Pagination: pag}, nil
}

// branchCreateBody is BranchCreateRequest with AnnotationCreateValueRequest.
type branchCreateBody struct {
	AnnotationValue map[string]string `json:"annotation_value"`
	Branch          *struct {
		ParentID  *string `json:"parent_id"`
		Name      *string `json:"name"`
		Protected *bool   `json:"protected"`
	} `json:"branch"`
	Endpoints []struct {
		Type                  *string       `json:"type"`
		AutoscalingLimitMinCU *float64      `json:"autoscaling_limit_min_cu"`
		AutoscalingLimitMaxCU *float64      `json:"autoscaling_limit_max_cu"`
		Provisioner           *string       `json:"provisioner"`
		SuspendTimeoutSeconds *int64        `json:"suspend_timeout_seconds"`
		Settings              *settingsBody `json:"settings"`
	} `json:"endpoints"`
}

type branchSpec struct {
	name, parentID string
	protected      bool
	annotations    map[string]string
	computes       []endpointFields // checked; resolved with the project's defaults by addBranch
}

// branchCreated is the answer of POST /projects/{project_id}/branches (CreatedBranch):
// the branch, its computes and their operations, the roles and databases it got from
// its parent, and a connection URI when there is one to give.
type branchCreated struct {
	Branch         api.Branch              `json:"branch"`
	Endpoints      []api.Endpoint          `json:"endpoints"`
	Operations     []api.Operation         `json:"operations"`
	Roles          []api.Role              `json:"roles"`
	Databases      []api.Database          `json:"databases"`
	ConnectionURIs []api.ConnectionDetails `json:"connection_uris,omitempty"`
}

// createBranch makes a child branch (201) with the computes the request asks for.
func (e *Emulator) createBranch(c *call) (int, any, error) {
	var body branchCreateBody
	if err := decodeBody(c, &body, false); err != nil {
		return 0, nil, err
	}
	var spec branchSpec
	if b := body.Branch; b != nil {
		if b.Name != nil && (len(*b.Name) < 1 || len(*b.Name) > 256) {
			return 0, nil, badRequest("branch name must be 1 to 256 characters long")
		}
		setIf(&spec.name, b.Name)
		setIf(&spec.parentID, b.ParentID)
		setIf(&spec.protected, b.Protected)
	}
	if err := checkAnnotations(body.AnnotationValue); err != nil {
		return 0, nil, err
	}
	spec.annotations = maps.Clone(body.AnnotationValue)
	for _, in := range body.Endpoints {
		f := endpointFields{Type: in.Type, AutoscalingLimitMinCU: in.AutoscalingLimitMinCU, AutoscalingLimitMaxCU: in.AutoscalingLimitMaxCU,
			Provisioner: in.Provisioner, SuspendTimeoutSeconds: in.SuspendTimeoutSeconds, Settings: in.Settings}
		if _, err := f.spec(nil); err != nil {
			return 0, nil, err
		}
		spec.computes = append(spec.computes, f)
	}
	p, err := e.lockProject(c)
	if err != nil {
		return 0, nil, err
	}
	if p.busy(c.now) {
		p.mu.Unlock()
		return 0, nil, locked()
	}
	b, eps, ops, err := e.addBranch(p, spec, c.now)
	var out branchCreated
	if err == nil {
		out = branchCreated{Branch: b.wire(c.now, true), Endpoints: make([]api.Endpoint, 0, len(eps)),
			Operations: wireOps(ops, c.now, true), Roles: b.wireRoles(false), Databases: b.wireDatabases(),
			ConnectionURIs: e.connectionDetails(b, p.readWriteOn(b.ID))}
		for _, ep := range eps {
			out.Endpoints = append(out.Endpoints, ep.wire(c.now, true, true))
		}
	}
	p.mu.Unlock()
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, out, e.save()
}

// addBranch creates a branch and its computes (with the project's defaults for what
// their attributes leave out): create_branch, then one start_compute per compute.
// Caller holds p.mu for writing.
func (e *Emulator) addBranch(p *project, spec branchSpec, now time.Time) (*branch, []*endpoint, []*operation, error) {
	parent := p.defaultBranch()
	if spec.parentID != "" {
		if parent = p.branches[spec.parentID]; parent == nil {
			return nil, nil, nil, branchNotFound(spec.parentID)
		}
	}
	if err := checkBranchCount(p); err != nil {
		return nil, nil, nil, err
	}
	if spec.name != "" && p.branchByName(spec.name) != nil {
		return nil, nil, nil, conflict(codeConflict, "a branch named %q already exists in project %s; branch names are unique", spec.name, p.ID)
	}
	readWrite := 0
	computes := make([]computeSpec, 0, len(spec.computes))
	for _, f := range spec.computes {
		cs, err := f.spec(p.Defaults)
		if err != nil {
			return nil, nil, nil, err
		}
		computes = append(computes, cs)
		if err := checkSize(cs.minCU, cs.maxCU, p.Tier); err != nil {
			return nil, nil, nil, err
		}
		if err := checkPlanSuspend(cs.suspendTimeout, p.Tier); err != nil {
			return nil, nil, nil, err
		}
		if err := checkAutoscalingProvisioner(cs.provisioner, cs.minCU, cs.maxCU); err != nil {
			return nil, nil, nil, err
		}
		if cs.typ == api.EndpointTypeReadWrite {
			readWrite++
		}
	}
	if readWrite > 1 {
		return nil, nil, nil, conflict(codeReadWriteExists, "a branch can have only one read_write endpoint; the request asks for %d", readWrite)
	}
	b := &branch{ID: e.newBranchID(p.ID), ProjectID: p.ID, ParentID: parent.ID, Name: spec.name, Protected: spec.protected,
		CreatedAt: now, UpdatedAt: now, CreationSource: "api", Annotations: spec.annotations}
	if b.Name == "" {
		b.Name = b.ID
	}
	e.copyRolesAndDatabases(b, parent, now)
	if err := e.copyBranchData(parent, b); err != nil {
		e.w.forgetBranch(b.ID)
		return nil, nil, nil, err
	}
	p.branches[b.ID] = b
	steps := []opStep{{action: api.ActionCreateBranch, branchID: b.ID}}
	var eps []*endpoint
	for _, cs := range computes {
		cs.branchID = b.ID
		ep := e.newEndpoint(p, cs, now)
		p.addEndpoint(ep)
		eps = append(eps, ep)
		steps = append(steps, opStep{action: api.ActionStartCompute, branchID: b.ID, endpointID: ep.ID})
	}
	ops := e.startChain(p, now, steps...)
	b.ReadyAt = ops[0].FinishAt
	for i, ep := range eps {
		ep.Life = lifecycle{From: api.EndpointStateInit, To: api.EndpointStateActive, At: ops[i+1].FinishAt}
	}
	p.UpdatedAt = now
	return b, eps, ops, nil
}

// annotation is the branch's AnnotationData: the labels tools attach to it.
func (b *branch) annotation() *api.Annotation {
	value := b.Annotations
	if value == nil {
		value = map[string]string{}
	}
	return &api.Annotation{Object: api.AnnotationObject{Type: "console/branch", ID: b.ID}, Value: value}
}

// checkAnnotations holds a branch's labels to AnnotationValueData: 50 at most.
func checkAnnotations(value map[string]string) error {
	if len(value) > 50 {
		return badRequest("annotation_value has %d properties; a branch takes at most 50", len(value))
	}
	return nil
}

func (e *Emulator) newBranchID(projectID string) string {
	id := e.ids.branchID()
	for !e.w.claimBranchID(id, projectID) {
		id = e.ids.branchID()
	}
	return id
}

package diff

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/neonform/neonform/api"
)

// op is a step being planned: the step itself, and what ordering needs to
// know about it.
type op struct {
	step   Step
	change *Change // nil for forgetting an endpoint that is gone
	t      *target // the configured compute, when there is one
	seq    int     // creation order, the last tie-break of a stable sort
	deps   []*op
	// arrives / leaves: the branch a read_write endpoint arrives on (create,
	// move in) or leaves (delete, move away). A branch holds one at a time.
	arrives, leaves string
	// replaces: for the create of a replacement, the delete of the old endpoint.
	replaces *op
	// urgent: the step ends a branch's time without a read_write compute, so
	// it runs as soon as it can.
	urgent bool
	id     int
}

func (pp *projectPlan) addOp(o *op) *op {
	o.seq = len(pp.ops)
	o.step.ProjectID = pp.p.ID
	pp.ops = append(pp.ops, o)
	return o
}

// addCreate plans POST /projects/{id}/endpoints with every configured
// attribute, the name included (apply finds the endpoint by it after an
// ambiguous failure).
func (pp *projectPlan) addCreate(ch *Change, t *target, rec *Record, movedFrom string) *op {
	c := t.c
	body := api.EndpointCreateRequest{Endpoint: api.EndpointCreate{
		BranchID:              rec.BranchID,
		Type:                  rec.Type,
		Name:                  c.Name,
		AutoscalingLimitMinCU: ptr(c.MinCU),
		AutoscalingLimitMaxCU: ptr(c.MaxCU),
		Disabled:              ptr(c.Disabled),
		SuspendTimeoutSeconds: ptr(c.SuspendTimeoutSeconds),
	}}
	if len(c.PgSettings) > 0 {
		body.Endpoint.Settings = &api.EndpointSettings{PgSettings: c.PgSettings}
	}
	o := &op{change: ch, t: t, step: Step{
		Kind: StepCreate, Address: c.Address, Method: "POST", Path: endpointsPath(pp.p.ID, ""),
		Body: mustJSON(body), Name: c.Name, Record: rec, MovedFrom: movedFrom,
	}}
	if rec.Type == api.EndpointTypeReadWrite {
		o.arrives = rec.BranchID
	}
	return pp.addOp(o)
}

// patchEndpoint is the body of an update: only the changed fields. It is not
// api.EndpointUpdate because clearing pg_settings must send "pg_settings": {}
// (the service answers 400 "settings must not be nil" to a settings object
// without it), which that type's omitempty would drop.
type patchEndpoint struct {
	BranchID              *string        `json:"branch_id,omitempty"`
	Name                  *string        `json:"name,omitempty"`
	Settings              *patchSettings `json:"settings,omitempty"`
	AutoscalingLimitMinCU *float64       `json:"autoscaling_limit_min_cu,omitempty"`
	AutoscalingLimitMaxCU *float64       `json:"autoscaling_limit_max_cu,omitempty"`
	Disabled              *bool          `json:"disabled,omitempty"`
	SuspendTimeoutSeconds *int64         `json:"suspend_timeout_seconds,omitempty"`
}

type patchSettings struct {
	PgSettings map[string]string `json:"pg_settings"`
}

// addUpdate plans one PATCH carrying every changed attribute, so the compute
// restarts at most once.
func (pp *projectPlan) addUpdate(ch *Change, t *target, rec *Record, movedFrom string) *op {
	c, ep := t.c, t.ep
	var e patchEndpoint
	for _, a := range ch.Attributes {
		switch {
		case a.Name == "branch":
			e.BranchID = ptr(rec.BranchID)
		case a.Name == "name":
			e.Name = ptr(c.Name)
		case strings.HasPrefix(a.Name, "pg_settings."):
			e.Settings = &patchSettings{PgSettings: rec.Applied.PgSettings} // the whole map: PATCH replaces it
		case a.Name == "min_cu":
			e.AutoscalingLimitMinCU = ptr(c.MinCU)
		case a.Name == "max_cu":
			e.AutoscalingLimitMaxCU = ptr(c.MaxCU)
		case a.Name == "disabled":
			e.Disabled = ptr(c.Disabled)
		case a.Name == "suspend_timeout":
			e.SuspendTimeoutSeconds = ptr(c.SuspendTimeoutSeconds)
		}
	}
	o := &op{change: ch, t: t, step: Step{
		Kind: StepUpdate, Address: c.Address, Method: "PATCH", Path: endpointsPath(pp.p.ID, ep.ID),
		Body: mustJSON(struct {
			Endpoint patchEndpoint `json:"endpoint"`
		}{e}),
		EndpointID: ep.ID, Record: rec, MovedFrom: movedFrom,
	}}
	if e.BranchID != nil && ep.Type == api.EndpointTypeReadWrite {
		o.leaves, o.arrives = ep.BranchID, rec.BranchID
	}
	return pp.addOp(o)
}

// addDelete plans DELETE of an endpoint. forget is the state address that
// holds it ("" when state does not).
func (pp *projectPlan) addDelete(ch *Change, ep *api.Endpoint, forget string) *op {
	o := &op{change: ch, step: Step{
		Kind: StepDelete, Address: ch.Address, Method: "DELETE", Path: endpointsPath(pp.p.ID, ep.ID),
		EndpointID: ep.ID, Forget: forget,
	}}
	if ep.Type == api.EndpointTypeReadWrite {
		o.leaves = ep.BranchID
	}
	return pp.addOp(o)
}

func endpointsPath(projectID, endpointID string) string {
	p := fmt.Sprintf("/projects/%s/endpoints", url.PathEscape(projectID))
	if endpointID != "" {
		p += "/" + url.PathEscape(endpointID)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("diff: encoding a request body: %v", err)) // only our own plain structs reach here
	}
	return b
}

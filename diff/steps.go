package diff

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/neonform/neonform/api"
)

// op is a step being derived: the step itself, and what ordering needs to
// know about it.
type op struct {
	step   Step
	change *Change // nil for forgetting an endpoint that is gone
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
	// sorting is sortOps' bookkeeping.
	sorting sorting
}

func (d *deriver) addOp(o *op) *op {
	o.seq = len(d.ops)
	o.step.ProjectID = d.project
	d.ops = append(d.ops, o)
	return o
}

// addCreate plans POST /projects/{id}/endpoints with every attribute, the
// name included (apply finds the endpoint by it after an ambiguous failure).
func (d *deriver) addCreate(ch *Change, want Values) *op {
	req := want.createRequest()
	o := &op{change: ch, step: Step{
		Kind: StepCreate, Address: ch.Address, Method: "POST", Path: endpointsPath(d.project, ""),
		Body: mustJSON(api.EndpointCreateRequest{Endpoint: *req}), Create: req,
		Name: want.Name, Record: recordOf(ch, want, ""), MovedFrom: ch.MovedFrom,
	}}
	if want.Type == api.EndpointTypeReadWrite {
		o.arrives = want.BranchID
	}
	return d.addOp(o)
}

// addUpdate plans one PATCH carrying every changed attribute, so the compute
// restarts at most once. It refuses values that an update cannot give the
// endpoint (a recreate attribute: that change is a replace).
func (d *deriver) addUpdate(ch *Change, live *LiveEndpoint, want Values, movedFrom string) error {
	req, ok := updateRequest(live.Values, want)
	if !ok {
		return fmt.Errorf("an update cannot change %s, which only a new endpoint can have", recreateNames(Differences(live.Values, want)))
	}
	o := &op{change: ch, step: Step{
		Kind: StepUpdate, Address: ch.Address, Method: "PATCH", Path: endpointsPath(d.project, live.ID),
		Body: mustJSON(api.EndpointUpdateRequest{Endpoint: req}), Update: &req,
		EndpointID: live.ID, Record: recordOf(ch, want, live.ID), MovedFrom: movedFrom,
	}}
	if live.BranchID != want.BranchID && live.Type == api.EndpointTypeReadWrite {
		o.leaves, o.arrives = live.BranchID, want.BranchID
	}
	d.addOp(o)
	return nil
}

// recreateNames names the attributes of attrs that only a new endpoint can have.
func recreateNames(attrs []Attribute) string {
	var names []string
	for _, a := range attrs {
		if a.Effect == Recreate {
			names = append(names, a.Name)
		}
	}
	return strings.Join(names, ", ")
}

// addDelete plans DELETE of an endpoint, forgetting the state address that
// holds it.
func (d *deriver) addDelete(ch *Change, live *LiveEndpoint) *op {
	o := &op{change: ch, step: Step{
		Kind: StepDelete, Address: ch.Address, Method: "DELETE", Path: endpointsPath(d.project, live.ID),
		EndpointID: live.ID, Forget: d.holders[live.ID],
	}}
	if live.Type == api.EndpointTypeReadWrite {
		o.leaves = live.BranchID
	}
	return d.addOp(o)
}

func endpointsPath(projectID, endpointID string) string {
	p := fmt.Sprintf("/projects/%s/endpoints", url.PathEscape(projectID))
	if endpointID != "" {
		p += "/" + url.PathEscape(endpointID)
	}
	return p
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("diff: encoding %T: %v", v, err)) // only our own plain values reach here
	}
	return b
}

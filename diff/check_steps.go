package diff

import (
	"fmt"
	"net/url"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/diag"
)

// checkSteps makes sure every step of p is a call apply knows how to carry
// out safely, on a project whose live endpoints it checks first: apply sends
// the plan's own method, path and body, so a step must not be able to reach
// anything else; and a create names its endpoint, so that an answer lost on
// the way can be recovered without creating it twice. It is one of the rules
// every plan is held to (checkRules): a file show or apply reads, and the
// plan the planner makes, before it shows or saves it (CheckMade).
func checkSteps(look *looker, p *Plan) error {
	planned := map[string]bool{}
	for _, proj := range p.Projects {
		planned[proj.ID] = true
	}
	seen := make(map[int]string, len(p.Steps)) // step id -> project; sized at once, as a plan may have 250,000
	for i := range p.Steps {
		if err := look.stop(); err != nil {
			return err
		}
		s := &p.Steps[i]
		bad := func(format string, args ...any) error {
			return diag.ErrorAt(s.Address, "Step apply cannot carry out safely", fmt.Sprintf("step %d (%s): %s", s.ID, s.Address, fmt.Sprintf(format, args...)))
		}
		if s.ID <= 0 {
			return bad("its id must be a positive number")
		}
		if _, dup := seen[s.ID]; dup {
			return bad("another step has the same id")
		}
		if !planned[s.ProjectID] {
			return bad("its project %q is not among the plan's projects, whose endpoints apply checks first", s.ProjectID)
		}
		for _, dep := range s.After {
			proj, ok := seen[dep]
			if !ok {
				return bad("it waits for step %d, which does not come before it", dep)
			}
			if proj != s.ProjectID {
				return bad("it waits for step %d of another project", dep)
			}
		}
		seen[s.ID] = s.ProjectID
		if s.Address == "" {
			return bad("it has no address")
		}
		if err := checkCall(s); err != "" {
			return bad("%s", err)
		}
	}
	return nil
}

// checkCall checks that a step's call matches its kind.
// The paths a call may have are made only for the kinds that call: a plan
// may forget 250,000 gone computes, and making two paths for each of them
// was 25 MB of strings.
func checkCall(s *Step) string {
	if s.Gone && s.Kind != StepState {
		return "only a state-only step forgets a gone compute"
	}
	switch s.Kind {
	case StepState:
		if s.Method != "" || s.Path != "" {
			return "a state-only step must not call the API"
		}
		if s.Record != nil && s.Record.EndpointID == "" {
			return "it records a compute without an endpoint id"
		}
		if s.Gone && (s.Forget != s.Address || s.Record != nil || s.MovedFrom != "") {
			return "a step that forgets a gone compute forgets its own address and records nothing"
		}
		return ""
	case StepCreate:
		collection := endpointsPath(s.ProjectID, "")
		switch {
		case s.Method != "POST" || s.Path != collection:
			return fmt.Sprintf("a create must be POST %s, not %s %s", collection, s.Method, s.Path)
		case s.Record == nil:
			return "a create must say what to record in the state"
		case s.Name == "":
			return "a create must name the endpoint, so that an answer lost on the way can be recovered without creating it twice"
		}
		return ""
	case StepUpdate:
		one := endpointsPath(s.ProjectID, s.EndpointID)
		switch {
		case !api.ValidResourceID(s.EndpointID):
			return fmt.Sprintf("an update needs a valid endpoint id, not %q", s.EndpointID)
		case s.Method != "PATCH" || s.Path != one:
			return fmt.Sprintf("an update must be PATCH %s, not %s %s", one, s.Method, s.Path)
		case s.Record == nil:
			return "an update must say what to record in the state"
		}
		return ""
	case StepDefaults:
		project := "/projects/" + url.PathEscape(s.ProjectID)
		switch {
		case s.Method != "PATCH" || s.Path != project:
			return fmt.Sprintf("a change to a project's defaults must be PATCH %s, not %s %s", project, s.Method, s.Path)
		case len(s.Body) == 0 || s.Record != nil || s.EndpointID != "":
			return "a change to a project's defaults sends a body and acts on no endpoint"
		}
		return ""
	case StepDelete:
		one := endpointsPath(s.ProjectID, s.EndpointID)
		switch {
		case !api.ValidResourceID(s.EndpointID):
			return fmt.Sprintf("a delete needs a valid endpoint id, not %q", s.EndpointID)
		case s.Method != "DELETE" || s.Path != one:
			return fmt.Sprintf("a delete must be DELETE %s, not %s %s", one, s.Method, s.Path)
		case len(s.Body) > 0:
			return "a delete has no body"
		}
		return ""
	}
	return fmt.Sprintf("unknown kind of step %v", s.Kind)
}

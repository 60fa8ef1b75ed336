package views

import (
	"errors"
	"fmt"
	"strings"

	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/suggest"
)

// A stale plan's refusal: apply says what changed since the plan was made
// (apply.StaleError's facts); this file words it, for people (StaleText)
// and as apply -json's diagnostics (StaleDiagnostics).

// rerun is what a stale plan's refusal asks people to do.
var rerun = "Run " + apply.Replan.Quoted() + " again, review the new plan, and apply it."

// staleLine is one sentence of a stale plan's refusal, and the address of
// the compute it concerns ("" for the state or an endpoint no compute is).
type staleLine struct {
	address, text string
}

// StaleText is the refusal of a stale plan for people:
//
//	the plan is stale, so nothing was changed:
//	  - ep-x (shop.main.primary): max_cu is 4 now, was 2 when planned
//	Run `neonform plan` again, review the new plan, and apply it.
func StaleText(e *apply.StaleError) string {
	var b strings.Builder
	b.WriteString("the plan is stale, so nothing was changed:")
	for _, l := range staleLines(e) {
		b.WriteString("\n  - " + l.text)
	}
	b.WriteString("\n" + rerun)
	return b.String()
}

// StaleDiagnostics are the refusal of a stale plan as diagnostics, one a
// sentence, about the compute it names when it names one: apply -json
// reports them in the fields validate -json uses.
func StaleDiagnostics(e *apply.StaleError) diag.Diagnostics {
	var out diag.Diagnostics
	for _, l := range staleLines(e) {
		out = append(out, diag.Diagnostic{Severity: diag.SeverityError, Summary: "Plan is stale",
			Detail: l.text + ". " + rerun, Address: l.address, Suggestions: []suggest.Command{apply.Replan}})
	}
	return out
}

// Refusal is err as people read it: a stale plan's facts worded
// (StaleText), its diagnostics for errors.As, and the StaleError still
// found by errors.As; any other error as it is.
func Refusal(err error) error {
	var se *apply.StaleError
	if !errors.As(err, &se) {
		return err
	}
	return &staleRefusal{stale: se}
}

type staleRefusal struct{ stale *apply.StaleError }

func (r *staleRefusal) Error() string { return StaleText(r.stale) }

func (r *staleRefusal) Unwrap() []error {
	return []error{r.stale, &diag.Error{Diagnostics: StaleDiagnostics(r.stale), Message: r.Error()}}
}

// staleLines words e's facts, one sentence each; the attributes of one
// endpoint that changed go into one.
func staleLines(e *apply.StaleError) []staleLine {
	var out []staleLine
	for i := 0; i < len(e.Facts); i++ {
		f := e.Facts[i]
		if isEntry(f.Kind) {
			n := i + 1
			for n < len(e.Facts) && isEntry(e.Facts[n].Kind) && e.Facts[n].ProjectID == f.ProjectID {
				n++
			}
			out = append(out, entriesLine(e.State, e.Facts[i:n]))
			i = n - 1
			continue
		}
		if f.Kind != apply.StaleAttribute {
			out = append(out, staleLine{f.Address, staleSentence(e.State, f)})
			continue
		}
		parts := []string{attributeChange(f)}
		for i+1 < len(e.Facts) && e.Facts[i+1].Kind == apply.StaleAttribute && e.Facts[i+1].EndpointID == f.EndpointID {
			i++
			parts = append(parts, attributeChange(e.Facts[i]))
		}
		out = append(out, staleLine{f.Address, fmt.Sprintf("%s: %s", endpointLabel(f), strings.Join(parts, ", "))})
	}
	return out
}

func attributeChange(f apply.StaleFact) string {
	return fmt.Sprintf("%s is %s now, was %s when planned", f.Attribute, f.Now, f.Was)
}

// endpointLabel is "ep-x (shop.main.primary)", or the id alone when the
// plan gives the endpoint no address.
func endpointLabel(f apply.StaleFact) string {
	if f.Address != "" {
		return fmt.Sprintf("%s (%s)", f.EndpointID, f.Address)
	}
	return f.EndpointID
}

// staleSentence words one fact but an attribute's; where is the state's
// place.
func staleSentence(where string, f apply.StaleFact) string {
	switch f.Kind {
	case apply.StaleLineage:
		return fmt.Sprintf("the state in %s is another state (lineage %s) than the one the plan was made against (lineage %s): "+
			"was the plan made in another directory, or with another state file?", where, f.Now, orNone(f.Was))
	case apply.StaleOlder:
		return fmt.Sprintf("the state in %s is older than the plan: it is at serial %s, but the plan was made at serial %s "+
			"(was it restored from a backup?)", where, f.Now, f.Was)
	case apply.StaleWritten:
		return fmt.Sprintf("the state in %s changed since the plan was made: it is at serial %s now, was %s when planned, "+
			"and a destroy plan covers the whole state %s", where, f.Now, f.Was, between)
	case apply.StaleEndpointCreated:
		return fmt.Sprintf("%s: %s was created on branch %s since the plan", f.Project, createdEndpoint(f), f.BranchID)
	case apply.StaleEndpointDeleted:
		return fmt.Sprintf("%s: %s was deleted since the plan", f.Project, endpointLabel(f))
	case apply.StaleDefaults:
		return fmt.Sprintf("the compute defaults of %s changed since the plan: %s %s -> %s", f.Address, f.Attribute, f.Was, f.Now)
	case apply.StaleLive:
		return fmt.Sprintf("%s (id %s): the live endpoints differ from the plan", f.Project, f.ProjectID)
	}
	return fmt.Sprintf("%s changed since the plan (%s)", f.Project, f.Kind)
}

// createdEndpoint is `ep-x (read_only named "reports")`.
func createdEndpoint(f apply.StaleFact) string {
	s := fmt.Sprintf("%s (%s", f.EndpointID, f.Type)
	if f.Name != "" {
		s += fmt.Sprintf(" named %q", f.Name)
	}
	return s + ")"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// between is what most often wrote the state since a plan.
const between = "(another apply, import or state command ran in between)"

func isEntry(k apply.StaleKind) bool {
	return k == apply.StaleEntryAdded || k == apply.StaleEntryRemoved || k == apply.StaleEntryChanged
}

// entriesLine words the entries of one project that changed in the state
// since the plan, in one sentence: about the one compute when there is
// one.
func entriesLine(where string, facts []apply.StaleFact) staleLine {
	parts := make([]string, len(facts))
	for i, f := range facts {
		switch f.Kind {
		case apply.StaleEntryAdded:
			parts[i] = f.Address + " was added"
		case apply.StaleEntryRemoved:
			parts[i] = f.Address + " was removed"
		default:
			parts[i] = f.Address + " changed"
		}
	}
	l := staleLine{text: fmt.Sprintf("the state in %s changed since the plan was made, in project %s, which the plan changes: %s %s",
		where, facts[0].Project, strings.Join(parts, ", "), between)}
	if len(facts) == 1 {
		l.address = facts[0].Address
	}
	return l
}

package diff

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/managed"
	"github.com/neonform/neonform/internal/textsafe"
)

// attributeReasons says in plain words what each disruptive attribute change
// does, given whether the compute is active now: in the words of the
// attribute's table entry when it has some, else in those of its effect.
func attributeReasons(pp *projectPlan, ch *Change) []string {
	var out []string
	restarts, recreate := 0, false
	r := reasonContext{active: ch.Active, branchName: pp.branchName}
	for _, a := range ch.Attributes {
		recreate = recreate || a.Effect == Recreate
		if a.Effect == Restart {
			restarts++
		}
		if a.Effect == Recreate {
			out = append(out, a.String()+" cannot change in place: the compute is deleted and created anew, "+
				"with a new endpoint id and host; clients must change their connection strings")
			continue
		}
		if at := attributeNamed(a.Name); at != nil {
			r.change = a.String()
			if words := at.reason(a, r); words != "" {
				out = append(out, words)
				continue
			}
		}
		switch a.Effect {
		case Restart:
			out = append(out, a.String()+" restarts the compute"+dropWords(ch.Active, " and drops its connections"))
		case Suspend:
			out = append(out, a.String()+" suspends the compute"+dropWords(ch.Active, " and drops its connections"))
		}
	}
	// The action is not decided yet when the reasons are written: a
	// recreate attribute is what makes it a replace.
	if restarts > 1 && !recreate {
		out = append(out, "all changes go in one PATCH, so the compute restarts once")
	}
	if !recreate && len(ch.Attributes) > 0 && ch.Disruption == None && len(out) == 0 {
		out = append(out, "applies without interrupting the compute")
	}
	return out
}

// reasonContext is what an attribute's words need besides its change:
// the change as people read it ("max_cu 1 -> 2"), whether the compute is
// active now, and a branch's name by its id.
type reasonContext struct {
	change     string
	active     bool
	branchName func(id string) string
}

// replaceAskedReason is why a compute is replaced when -replace asked for it.
const replaceAskedReason = "asked with -replace: the compute is deleted and created anew, with a new endpoint id and host, " +
	"whether or not anything in it changed; clients must change their connection strings"

// dropWords finishes a sentence about an interruption: what it drops when the
// compute is active, or that there is nothing to drop when it is idle.
func dropWords(active bool, drops string) string {
	if active {
		return drops
	}
	return "; idle now, no connections to drop"
}

// adoptReason: sensitive says which attributes of the compute come from
// sensitive variables (a replica is adopted by its name, which may be one).
func adoptReason(ep *LiveEndpoint, sensitive Secrets) string {
	if ep.Type == api.EndpointTypeReadWrite {
		return fmt.Sprintf("adopts %s, the branch's existing read_write compute, instead of creating a second (a branch holds one; every default branch comes with one)", ep.ID)
	}
	return fmt.Sprintf("adopts %s, an existing read replica on this branch named %s", ep.ID, quotedName(ep.Name, sensitive))
}

// quotedName is an endpoint's name in quotes, or HiddenValue when the name
// came from a sensitive variable.
func quotedName(name string, sensitive Secrets) string {
	if sensitive.Hides(managed.Name.Name) {
		return sensitive.Value(managed.Name.Name)
	}
	return strconv.Quote(name)
}

// Values returns the before and after values as the plan shows them to
// people, as the attribute table prints them: SensitiveValue for both when
// the attribute is sensitive. A value is the service's or a file's text, so
// its control characters show escaped (internal/textsafe) in whatever
// sentence quotes it, a reason or an error as well as a view.
func (a Attribute) Values() (before, after string) {
	if a.Sensitive {
		return HiddenValue(a.SensitiveFrom), HiddenValue(a.SensitiveFrom)
	}
	at := attributeNamed(a.Name)
	if at == nil { // not one of ours: a plan file Verify refuses; show it as it is
		return textsafe.Terminal(fmt.Sprint(a.Before)), textsafe.Terminal(fmt.Sprint(a.After))
	}
	return textsafe.Terminal(at.display(a.Before)), textsafe.Terminal(at.display(a.After))
}

// String is "max_cu 1 -> 2".
func (a Attribute) String() string {
	b, af := a.Values()
	return a.Name + " " + b + " -> " + af
}

// Row is one managed attribute as people read it.
type Row struct{ Name, Value string }

// Rows lists every managed attribute of v, in the table's order, as the
// plan prints values.
func (v Values) Rows() []Row {
	out := make([]Row, 0, len(attributes))
	for _, a := range attributes {
		out = append(out, Row{Name: a.Name(), Value: a.show(&v)})
	}
	return out
}

// FormatSettings prints Postgres settings as the configuration writes them:
// { work_mem = "64MB" }, keys sorted; {} when there are none.
func FormatSettings(m map[string]string) string {
	return formatSettings(m, strconv.Quote)
}

// formatSettings prints the settings with each value as value prints it.
func formatSettings(m map[string]string, value func(string) string) string {
	if len(m) == 0 {
		return "{}"
	}
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+" = "+value(m[k]))
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// formatSuspend prints a suspend timeout the way the configuration writes it:
// "default (5m)", "never", "5m", "1h30m", "1m30s".
func formatSuspend(s int64) string {
	switch {
	case s == managed.SuspendDefault:
		return "default (" + formatSuspend(managed.ServiceDefaultSuspend) + ")"
	case s < 0: // managed.SuspendNever; nothing else below 0 is a timeout
		return "never"
	}
	h, m, sec := s/3600, s/60%60, s%60
	var b strings.Builder
	if h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	if sec > 0 {
		fmt.Fprintf(&b, "%ds", sec)
	}
	return b.String()
}

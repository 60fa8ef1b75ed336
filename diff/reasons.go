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

// reasons sets the reasons of a change that derive makes (reasonKinds'
// derived), for Build and Verify alike, beside those the planner recorded,
// in the order a change lists them. live is the endpoint the change acts
// on (nil for a create).
func (d *deriver) reasons(ch *Change, live *LiveEndpoint) {
	out := slices.DeleteFunc(ch.Reasons, func(r Reason) bool {
		_, derived, _ := kindOf(r.Kind)
		return derived
	})
	switch ch.Action {
	case Create:
		b := d.branch(ch.BranchID)
		out = append(out, Reason{Kind: ReasonNewCompute, Type: ch.Type, Branch: &b})
	case Delete:
		if d.scope.destroy {
			out = append(out, Reason{Kind: ReasonDestroy, EndpointID: ch.EndpointID})
		}
	default:
		switch {
		case ch.Adopt && live.Type == api.EndpointTypeReadWrite:
			out = append(out, Reason{Kind: ReasonAdoptPrimary, EndpointID: live.ID})
		case ch.Adopt:
			out = append(out, Reason{Kind: ReasonAdoptReplica, EndpointID: live.ID, Name: live.Name})
		}
		if ch.MovedFrom != "" && live.BranchID == ch.BranchID {
			out = append(out, Reason{Kind: ReasonMoved, From: ch.MovedFrom})
		}
		if ch.Action == Replace && d.scope.replace[ch.Address] {
			out = append(out, Reason{Kind: ReasonReplaceAsked})
		}
		out = append(out, attributeReasons(ch, d.branch)...)
	}
	slices.SortStableFunc(out, func(a, b Reason) int {
		ra, _, _ := kindOf(a.Kind)
		rb, _, _ := kindOf(b.Kind)
		return ra - rb
	})
	ch.Reasons = out
}

// withReason is reasons with r in its place: after every reason of its
// rank or before (reasonKinds).
func withReason(reasons []Reason, r Reason) []Reason {
	rank, _, _ := kindOf(r.Kind)
	i := len(reasons)
	for i > 0 {
		if before, _, _ := kindOf(reasons[i-1].Kind); before <= rank {
			break
		}
		i--
	}
	return slices.Insert(reasons, i, r)
}

// attributeReasons are what each disruptive attribute change does: a kind
// of the attribute's table entry when it has one, else its effect's.
func attributeReasons(ch *Change, branch func(id string) Branch) []Reason {
	var out []Reason
	restarts, recreate := 0, false
	for _, a := range ch.Attributes {
		recreate = recreate || a.Effect == Recreate
		if a.Effect == Restart {
			restarts++
		}
		if a.Effect == Recreate {
			out = append(out, Reason{Kind: ReasonAttributeRecreate, Attribute: a.Name})
			continue
		}
		if at := attributeNamed(a.Name); at != nil {
			if r := at.reason(a, branch); r.Kind != "" {
				out = append(out, r)
				continue
			}
		}
		switch a.Effect {
		case Restart:
			out = append(out, Reason{Kind: ReasonAttributeRestart, Attribute: a.Name})
		case Suspend:
			out = append(out, Reason{Kind: ReasonAttributeSuspend, Attribute: a.Name})
		}
	}
	// A recreate attribute makes the change a replace, which restarts nothing.
	if restarts > 1 && !recreate {
		out = append(out, Reason{Kind: ReasonOneRestart})
	}
	if !recreate && len(ch.Attributes) > 0 && ch.Disruption == None && len(out) == 0 {
		out = append(out, Reason{Kind: ReasonNoInterruption})
	}
	return out
}

// QuotedName is an endpoint's name in quotes, or HiddenValue when the name
// came from a sensitive variable.
func QuotedName(name string, sensitive Secrets) string {
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

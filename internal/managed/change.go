package managed

import (
	"fmt"

	"github.com/neonform/neonform/internal/textsafe"
)

// Change is one plan attribute that changes: its value before (live) and
// after (configured), in the service's terms, and what the change does to
// a running compute. A create lists every attribute, with before null. The
// table (table.go) makes them; diff.Attribute is this type.
type Change struct {
	Name   string     `json:"name"`
	Before any        `json:"before"`
	After  any        `json:"after"`
	Effect Disruption `json:"effect"`
	// Sensitive: the configured value comes from a variable declared
	// sensitive; every view shows SensitiveValue instead of the values (the
	// plan file keeps them: apply needs them).
	Sensitive bool `json:"sensitive,omitempty"`
	// SensitiveFrom names the sensitive variables the value comes from, as
	// the change's SensitiveFrom (or the state entry's, for drift) says.
	SensitiveFrom []string `json:"sensitive_from,omitempty"`
}

// Values returns the before and after values as the plan shows them to
// people, as the attribute table prints them: HiddenValue for both when
// the attribute is sensitive. A value is the service's or a file's text, so
// its control characters show escaped (internal/textsafe) in whatever
// sentence quotes it, a reason or an error as well as a view.
func (c Change) Values() (before, after string) {
	if c.Sensitive {
		return HiddenValue(c.SensitiveFrom), HiddenValue(c.SensitiveFrom)
	}
	at := Named(c.Name)
	if at == nil { // not one of ours: a plan file Verify refuses; show it as it is
		return textsafe.Terminal(fmt.Sprint(c.Before)), textsafe.Terminal(fmt.Sprint(c.After))
	}
	return textsafe.Terminal(at.kind.display(c.Before)), textsafe.Terminal(at.kind.display(c.After))
}

// String is "max_cu 1 -> 2".
func (c Change) String() string {
	b, af := c.Values()
	return c.Name + " " + b + " -> " + af
}

// Disruption is what a change does to a running compute, from harmless to
// worst; the disruption of a change is the worst effect among its attributes.
// Each table entry says its own (effect), so it is the table's type;
// diff.Disruption is this type.
type Disruption uint8

const (
	// None: clients notice nothing.
	None Disruption = iota
	// Restart: the compute restarts; its connections drop and reconnect.
	Restart
	// Suspend: the compute is suspended; connections drop (and, when
	// disabled, new ones are refused).
	Suspend
	// Recreate: a new endpoint replaces the old, with a new id and host;
	// clients must change their connection strings.
	Recreate
	// Remove: the endpoint is deleted ("delete" in the plan file).
	Remove
)

var disruptionNames = [...]string{None: "none", Restart: "restart", Suspend: "suspend", Recreate: "recreate", Remove: "delete"}

func (d Disruption) String() string {
	if int(d) < len(disruptionNames) {
		return disruptionNames[d]
	}
	return fmt.Sprintf("disruption(%d)", d)
}

// DropsConnections reports whether the effect interrupts the clients of a
// running compute.
func (d Disruption) DropsConnections() bool { return d >= Restart }

func (d Disruption) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *Disruption) UnmarshalText(b []byte) error {
	for i, n := range disruptionNames {
		if n == string(b) {
			*d = Disruption(i)
			return nil
		}
	}
	return fmt.Errorf("unknown disruption %q (known: %v)", b, disruptionNames[:])
}

package diff

import "fmt"

// Action is what a plan does to one compute.
type Action uint8

const (
	NoOp Action = iota
	Create
	Update
	Replace
	Delete
)

var actionNames = [...]string{NoOp: "no-op", Create: "create", Update: "update", Replace: "replace", Delete: "delete"}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", a)
}

// Symbol is the Terraform-style mark of the action: + ~ -/+ -.
func (a Action) Symbol() string {
	switch a {
	case Create:
		return "+"
	case Update:
		return "~"
	case Replace:
		return "-/+"
	case Delete:
		return "-"
	}
	return "="
}

func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

func (a *Action) UnmarshalText(b []byte) error {
	return unmarshalEnum("action", b, actionNames[:], (*uint8)(a))
}

// StepKind says what a step does: one API call (create, update, delete) or a
// change to the state alone (no API call: an adoption, a rename by a moved
// block, forgetting an endpoint that is gone, or recording what is live).
type StepKind uint8

const (
	StepCreate StepKind = iota
	StepUpdate
	StepDelete
	StepState
	// StepDefaults changes a project's compute defaults: PATCH
	// /projects/{id} (defaults.go).
	StepDefaults
)

var stepKindNames = [...]string{StepCreate: "create", StepUpdate: "update", StepDelete: "delete", StepState: "state-only", StepDefaults: "project-defaults"}

func (k StepKind) String() string {
	if int(k) < len(stepKindNames) {
		return stepKindNames[k]
	}
	return fmt.Sprintf("step(%d)", k)
}

func (k StepKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

func (k *StepKind) UnmarshalText(b []byte) error {
	return unmarshalEnum("step kind", b, stepKindNames[:], (*uint8)(k))
}

func unmarshalEnum(what string, b []byte, names []string, dst *uint8) error {
	for i, n := range names {
		if n == string(b) {
			*dst = uint8(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q (known: %v)", what, b, names)
}

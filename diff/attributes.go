package diff

import (
	"fmt"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/managed"
)

// The attribute table is internal/managed's (table.go): each managed
// compute attribute once, with everything every package knows of it. The
// plan's types that hold its facts are the table's: a plan attribute that
// changes, a change's effect, a compute block's argument, a row people read.
type (
	Attribute  = managed.Change
	Disruption = managed.Disruption
	Argument   = managed.Argument
	Row        = managed.Row
)

// The effects a change has on a running compute, worst last (managed.Disruption).
const (
	None     = managed.None
	Restart  = managed.Restart
	Suspend  = managed.Suspend
	Recreate = managed.Recreate
	Remove   = managed.Remove
)

// reasonOf is, for the attributes whose change says more than its effect's
// reason, that reason, with the facts its words need. It stays here rather
// than in the table: a diff.Reason is the plan's (its kinds, the branches
// the plan names), which internal/managed cannot know without importing
// the plan. attributeReasons reads it; an attribute without one gives its
// effect's reason.
var reasonOf = map[*managed.Attribute]func(a Attribute, branch func(id string) Branch) Reason{
	managed.Branch: func(a Attribute, branch func(id string) Branch) Reason {
		from, to := branch(fmt.Sprint(a.Before)), branch(fmt.Sprint(a.After))
		return Reason{Kind: ReasonBranchMove, Attribute: a.Name, Branch: &from, ToBranch: &to}
	},
	managed.Disabled: func(a Attribute, _ func(id string) Branch) Reason {
		if a.Effect == Suspend {
			return Reason{Kind: ReasonDisable, Attribute: a.Name}
		}
		return Reason{Kind: ReasonEnable, Attribute: a.Name}
	},
	// A setting is read when Postgres starts, so a new one restarts it.
	managed.PgSettings: func(a Attribute, _ func(id string) Branch) Reason {
		if a.Effect != Restart {
			return Reason{}
		}
		return Reason{Kind: ReasonSettingRestart, Attribute: a.Name}
	},
}

func apiType(t config.ComputeType) api.EndpointType {
	if t == config.ReadOnly {
		return api.EndpointTypeReadOnly
	}
	return api.EndpointTypeReadWrite
}

// AtDefault reports whether value, as a plan records the attribute named
// planName, is that attribute's default (the views leave a default out of a
// create); false for a name the table does not know.
func AtDefault(planName string, value any) bool {
	a := managed.Named(planName)
	return a != nil && a.AtDefault(value)
}

// AttributeNames is the name of every managed attribute, in the order a plan
// lists them: what the plan file's schema must know.
func AttributeNames() []string {
	names := make([]string, len(managed.InPlan))
	for i, a := range managed.InPlan {
		names[i] = a.Name
	}
	return names
}

package view

import (
	"fmt"
	"strconv"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
)

// ReasonWords is a reason of a change in words: what every view prints and
// the plan file records beside the reason (its text). An attribute's values
// are the change's, hidden and escaped as the change shows them
// (diff.Attribute.Values); so is a name that came from a sensitive variable.
func ReasonWords(c *diff.Change, r diff.Reason) string {
	if words := reasonWords[r.Kind]; words != nil {
		return words(c, r)
	}
	return string(r.Kind) // not a kind neonform makes: a plan file Check refuses
}

// reasonWords words each kind of reason (diff.ReasonKinds).
var reasonWords = map[diff.ReasonKind]func(c *diff.Change, r diff.Reason) string{
	diff.ReasonNewCompute: func(_ *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("new %s on branch %s", diff.KindWords(r.Type), branchWords(r.Branch))
	},
	diff.ReasonEndpointDeletedOutside: func(_ *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("its endpoint %s was deleted outside neonform, so a new one (new id and host) takes its place", r.EndpointID)
	},
	diff.ReasonAdoptPrimary: func(_ *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("adopts %s, the branch's existing read_write compute, instead of creating a second (a branch holds one; every default branch comes with one)", r.EndpointID)
	},
	diff.ReasonAdoptReplica: func(c *diff.Change, r diff.Reason) string {
		// A replica is adopted by its name, which may come from a sensitive variable.
		return fmt.Sprintf("adopts %s, an existing read replica on this branch named %s", r.EndpointID, diff.QuotedName(r.Name, c.Secrets()))
	},
	diff.ReasonTakeBack: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("takes back %s, which an interrupted replacement of %s left in the state as %s: "+
			"the configuration describes it again, so nothing is created or deleted for it", r.EndpointID, c.Address, r.From)
	},
	diff.ReasonMoved: func(_ *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("renamed from %s by a moved block: the same endpoint, recorded under its new address", r.From)
	},
	diff.ReasonNamedAfterLabel: func(_ *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("the new endpoint is named %q after the block's label, as everything neonform creates is: apply finds it by its name if the answer to the create is lost", r.Name)
	},
	diff.ReasonReplaceAsked: func(*diff.Change, diff.Reason) string {
		return "asked with -replace: the compute is deleted and created anew, with a new endpoint id and host, " +
			"whether or not anything in it changed; clients must change their connection strings"
	},
	diff.ReasonAttributeRecreate: func(c *diff.Change, r diff.Reason) string {
		return attributeChange(c, r) + " cannot change in place: the compute is deleted and created anew, " +
			"with a new endpoint id and host; clients must change their connection strings"
	},
	diff.ReasonAttributeRestart: func(c *diff.Change, r diff.Reason) string {
		return attributeChange(c, r) + " restarts the compute" + dropWords(c.Active, " and drops its connections")
	},
	diff.ReasonAttributeSuspend: func(c *diff.Change, r diff.Reason) string {
		return attributeChange(c, r) + " suspends the compute" + dropWords(c.Active, " and drops its connections")
	},
	diff.ReasonBranchMove: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("moves from branch %s to %s: the service suspends the compute on the move%s",
			branchWords(r.Branch), branchWords(r.ToBranch), dropWords(c.Active, " and drops its connections"))
	},
	diff.ReasonSettingRestart: func(c *diff.Change, r diff.Reason) string {
		return attributeChange(c, r) + " takes effect at a restart: it restarts the compute" + dropWords(c.Active, " and drops its connections")
	},
	diff.ReasonDisable: func(c *diff.Change, r diff.Reason) string {
		return attributeChange(c, r) + " suspends the compute and refuses new connections" + dropWords(c.Active, "; its connections drop")
	},
	diff.ReasonEnable: func(c *diff.Change, r diff.Reason) string {
		return attributeChange(c, r) + " lets the compute accept connections again; nothing running is interrupted"
	},
	diff.ReasonOneRestart: func(*diff.Change, diff.Reason) string {
		return "all changes go in one PATCH, so the compute restarts once"
	},
	diff.ReasonNoInterruption: func(*diff.Change, diff.Reason) string {
		return "applies without interrupting the compute"
	},
	diff.ReasonDestroy: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("destroy: neonform deletes the computes it manages; the endpoint %s and its host go away%s",
			r.EndpointID, activeTail(c.Active, "its connections drop"))
	},
	diff.ReasonNoLongerConfigured: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("%s is no longer in the configuration", c.Address) + goesAway(c, r)
	},
	diff.ReasonRemovedBlock: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("a removed block deletes %s (lifecycle.destroy = true)", c.Address) + goesAway(c, r)
	},
	diff.ReasonReplacementSuperseded: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("%s was made by a replacement of %s that was interrupted, and %s takes back the endpoint it replaced",
			r.EndpointID, r.Address, r.Address) + goesAway(c, r)
	},
	diff.ReasonInterruptedReplace: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("the replacement of %s was interrupted before it deleted %s, the endpoint it replaces", r.Address, r.EndpointID) + goesAway(c, r)
	},
	diff.ReasonInterruptedReplaceUnconfigured: func(c *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("the replacement of %s was interrupted before it deleted %s, the endpoint it replaces, and %s is no longer in the configuration",
			r.Address, r.EndpointID, r.Address) + goesAway(c, r)
	},
	diff.ReasonExclusiveBranch: func(c *diff.Change, r diff.Reason) string {
		label := ""
		if r.Branch != nil {
			label = r.Branch.Label
		}
		return fmt.Sprintf("branch %s is exclusive and no compute block declares %s (%s%s)%s",
			label, r.EndpointID, r.Type, nameSuffix(r.Name), activeTail(c.Active, "its connections drop"))
	},
	diff.ReasonDowntimeReplace: func(_ *diff.Change, r diff.Reason) string {
		return fmt.Sprintf("downtime: the old endpoint is deleted first, because branch %s holds one read_write compute at a time; "+
			"the branch has no read_write compute until the new one is up", branchWords(r.Branch))
	},
	diff.ReasonDowntime: downtimeWords,
	diff.ReasonMayBeRenamed: func(c *diff.Change, r diff.Reason) string {
		without := "no delete and no create"
		if c.Downtime {
			without = "no delete, no create and no downtime"
		}
		// The block ends the reason, on lines of their own (human.go's reason).
		return fmt.Sprintf("%s may be %s renamed (a %s on the same branch): if it is, this moved block keeps the endpoint %s and its host, with %s:\n%s",
			c.Address, r.From, diff.KindWords(c.Type), r.EndpointID, without, config.MovedBlock(r.From, c.Address))
	},
}

// downtimeWords: the endpoint standing on the branch leaves first, deleted
// or moved away.
func downtimeWords(_ *diff.Change, r diff.Reason) string {
	standing := r.EndpointID + " (not managed by neonform)"
	if r.Address != "" {
		standing = fmt.Sprintf("%s (%s)", r.EndpointID, r.Address)
	}
	how := "is deleted"
	if r.ToBranch != nil {
		how = "moves to branch " + branchWords(r.ToBranch)
	}
	what := "this one is created"
	if r.MovedIn {
		what = "this one has moved in"
	}
	return fmt.Sprintf("downtime: branch %s holds one read_write compute at a time; %s %s first, so the branch has none until %s",
		branchWords(r.Branch), standing, how, what)
}

// repeatsAttribute reports whether a reason's words begin with its
// attribute's change ("max_cu 1 -> 2 restarts..."), which the human view
// shows as a row already.
func repeatsAttribute(r diff.Reason) bool {
	switch r.Kind {
	case diff.ReasonAttributeRecreate, diff.ReasonAttributeRestart, diff.ReasonAttributeSuspend,
		diff.ReasonSettingRestart, diff.ReasonDisable, diff.ReasonEnable:
		return true
	}
	return false
}

// attributeChange is the change of the reason's attribute as people read
// it: "max_cu 1 -> 2".
func attributeChange(c *diff.Change, r diff.Reason) string {
	for _, a := range c.Attributes {
		if a.Name == r.Attribute {
			return a.String()
		}
	}
	return r.Attribute // not one of the change's: a plan file Check refuses
}

// goesAway ends the reason of a delete: what goes, and what that drops.
func goesAway(c *diff.Change, r diff.Reason) string {
	return fmt.Sprintf(": the endpoint %s and its host go away%s", r.EndpointID, activeTail(c.Active, "its connections drop"))
}

// branchWords is a branch as a reason names it: "shop.main (br-...)".
func branchWords(b *diff.Branch) string {
	if b == nil {
		return ""
	}
	return b.String()
}

// dropWords finishes a sentence about an interruption: what it drops when the
// compute is active, or that there is nothing to drop when it is idle.
func dropWords(active bool, drops string) string {
	if active {
		return drops
	}
	return "; idle now, no connections to drop"
}

func activeTail(active bool, what string) string {
	if active {
		return "; active now, " + what
	}
	return ""
}

func nameSuffix(name string) string {
	if name == "" {
		return ""
	}
	return ", named " + strconv.Quote(name)
}

// reasonLine is a reason of a change as the human view prints it.
type reasonLine struct {
	text string
	// repeats: the line begins with an attribute's change, which the view
	// shows as a row already (repeatsAttribute).
	repeats bool
}

// reasonLines are the reasons of a change, in words.
func reasonLines(c *diff.Change) []reasonLine {
	out := make([]reasonLine, len(c.Reasons))
	for i, r := range c.Reasons {
		out[i] = reasonLine{text: ReasonWords(c, r), repeats: repeatsAttribute(r)}
	}
	return out
}

package diff

import "github.com/neonform/neonform/api"

// Reason is one reason a change gives: why it does what it does, or what it
// does to the compute's clients. The model records its kind and the facts
// its words need, never the words: diff/view words it (view.ReasonWords),
// as Terraform's plans carry an action reason that its views word. A fact a
// kind does not use is left empty. An attribute is named, not quoted: its
// values are the change's, hidden wherever the change hides them.
type Reason struct {
	Kind ReasonKind `json:"kind"`
	// Attribute is the plan attribute the reason is about ("max_cu",
	// "pg_settings.work_mem"), one of the change's.
	Attribute string `json:"attribute,omitempty"`
	// EndpointID is the endpoint the reason names: the one adopted, taken
	// back, deleted, deleted outside neonform, or standing in the way.
	EndpointID string `json:"endpoint_id,omitempty"`
	// Type is the type of the compute created, or of the endpoint deleted.
	Type api.EndpointType `json:"type,omitempty"`
	// Name is an endpoint's name: the replica adopted by it, the name a
	// replacement is given, an endpoint an exclusive branch deletes.
	Name string `json:"name,omitempty"`
	// Address is another compute's address the reason names: the compute an
	// interrupted replacement was of, or that holds the endpoint standing in
	// the way (empty: no compute holds it).
	Address string `json:"address,omitempty"`
	// From is an address the compute comes from (a moved block's, or where an
	// interrupted replacement left its endpoint), or may come from (a rename
	// the plan can see).
	From string `json:"from,omitempty"`
	// Branch is the branch the compute is created on, moves from, or
	// arrives on; ToBranch, the branch it moves to.
	Branch   *Branch `json:"branch,omitempty"`
	ToBranch *Branch `json:"to_branch,omitempty"`
	// MovedIn: the compute arriving on a branch with downtime moves there
	// from another branch (it is not created).
	MovedIn bool `json:"moved_in,omitempty"`
}

// Branch is a branch as a reason names it: its id, and its label as the
// configuration knows it ("shop.main"); no label when no branch block names
// it, or when the plan was read from a file (a label is the configuration's).
type Branch struct {
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
}

// String is "shop.main (br-...)", or the id when there is no label.
func (b Branch) String() string {
	if b.Label == "" {
		return b.ID
	}
	return b.Label + " (" + b.ID + ")"
}

// ReasonKind is the kind of a reason: a small closed set.
type ReasonKind string

// The kinds of reason, in the order a change lists them. The facts each
// uses are in brackets.
const (
	// A create [Type, Branch].
	ReasonNewCompute ReasonKind = "new_compute"
	// A create in place of an endpoint deleted outside neonform [EndpointID].
	ReasonEndpointDeletedOutside ReasonKind = "endpoint_deleted_outside"
	// The compute adopts the branch's read_write endpoint [EndpointID].
	ReasonAdoptPrimary ReasonKind = "adopt_primary"
	// The compute adopts a read replica of its name [EndpointID, Name].
	ReasonAdoptReplica ReasonKind = "adopt_replica"
	// The compute takes back the endpoint an interrupted replacement left in
	// the state at a deposed address [EndpointID, From].
	ReasonTakeBack ReasonKind = "take_back_interrupted_replace"
	// A moved block renames the compute, on the same endpoint [From].
	ReasonMoved ReasonKind = "moved"
	// A replacement of an endpoint without a name is named after the block's
	// label [Name].
	ReasonNamedAfterLabel ReasonKind = "named_after_label"
	// -replace asked for the replacement.
	ReasonReplaceAsked ReasonKind = "replace_asked"
	// An attribute that cannot change in place: the compute is recreated [Attribute].
	ReasonAttributeRecreate ReasonKind = "attribute_recreate"
	// An attribute change that restarts the compute [Attribute].
	ReasonAttributeRestart ReasonKind = "attribute_restart"
	// An attribute change that suspends the compute [Attribute].
	ReasonAttributeSuspend ReasonKind = "attribute_suspend"
	// The compute moves to another branch [Attribute, Branch, ToBranch].
	ReasonBranchMove ReasonKind = "branch_move"
	// A Postgres setting, which takes effect at a restart [Attribute].
	ReasonSettingRestart ReasonKind = "setting_restart"
	// disabled becomes true: suspended, connections refused [Attribute].
	ReasonDisable ReasonKind = "disable"
	// disabled becomes false: connections let in again [Attribute].
	ReasonEnable ReasonKind = "enable"
	// Several restarts, one PATCH: the compute restarts once.
	ReasonOneRestart ReasonKind = "one_restart"
	// The change interrupts nothing.
	ReasonNoInterruption ReasonKind = "no_interruption"
	// A destroy plan deletes every compute neonform manages [EndpointID].
	ReasonDestroy ReasonKind = "destroy"
	// The configuration no longer declares the compute [EndpointID].
	ReasonNoLongerConfigured ReasonKind = "no_longer_configured"
	// A removed block with lifecycle.destroy = true deletes the compute [EndpointID].
	ReasonRemovedBlock ReasonKind = "removed_block"
	// An interrupted replacement made the endpoint, and the compute took
	// back the one it replaced [EndpointID, Address].
	ReasonReplacementSuperseded ReasonKind = "replacement_superseded"
	// An interrupted replacement of a compute had yet to delete the endpoint
	// [EndpointID, Address].
	ReasonInterruptedReplace ReasonKind = "interrupted_replace"
	// The same, and the compute is no longer configured [EndpointID, Address].
	ReasonInterruptedReplaceUnconfigured ReasonKind = "interrupted_replace_unconfigured"
	// An exclusive branch deletes an endpoint no block declares
	// [Branch, EndpointID, Type, Name].
	ReasonExclusiveBranch ReasonKind = "exclusive_branch"
	// A replacement deletes first: the branch has no read_write compute for
	// a while [Branch].
	ReasonDowntimeReplace ReasonKind = "downtime_replace"
	// The branch's read_write endpoint leaves first (deleted, or moved to
	// ToBranch), so the branch has none until this compute arrives
	// [Branch, EndpointID, Address, ToBranch, MovedIn].
	ReasonDowntime ReasonKind = "downtime"
	// A create that comes with the delete of a compute of its type on its
	// branch may be that compute renamed: a moved block from From would keep
	// its endpoint [From, EndpointID].
	ReasonMayBeRenamed ReasonKind = "may_be_renamed"
)

// reasonKinds is every kind, in the order a change lists them (rank: kinds
// of one rank never come together, but attribute reasons, in the
// attributes' order), and whether derive makes it from the change, the
// recorded endpoints and the plan's scope, for Build and Verify alike
// (derived), or the planner records it from the configuration and the
// state's history (Verify checks that it fits the change: reasonFits).
var reasonKinds = []struct {
	kind    ReasonKind
	rank    int
	derived bool
}{
	{ReasonNewCompute, 1, true},
	{ReasonEndpointDeletedOutside, 2, false},
	{ReasonAdoptPrimary, 3, true},
	{ReasonAdoptReplica, 3, true},
	{ReasonTakeBack, 3, false},
	{ReasonMoved, 4, true},
	{ReasonNamedAfterLabel, 5, false},
	{ReasonReplaceAsked, 6, true},
	{ReasonAttributeRecreate, 7, true},
	{ReasonAttributeRestart, 7, true},
	{ReasonAttributeSuspend, 7, true},
	{ReasonBranchMove, 7, true},
	{ReasonSettingRestart, 7, true},
	{ReasonDisable, 7, true},
	{ReasonEnable, 7, true},
	{ReasonOneRestart, 8, true},
	{ReasonNoInterruption, 8, true},
	{ReasonDestroy, 9, true},
	{ReasonNoLongerConfigured, 9, false},
	{ReasonRemovedBlock, 9, false},
	{ReasonReplacementSuperseded, 9, false},
	{ReasonInterruptedReplace, 9, false},
	{ReasonInterruptedReplaceUnconfigured, 9, false},
	{ReasonExclusiveBranch, 9, false},
	{ReasonDowntimeReplace, 10, true},
	{ReasonDowntime, 10, true},
	{ReasonMayBeRenamed, 11, false},
}

// ReasonKinds lists every kind of reason, in the order a change lists them.
func ReasonKinds() []ReasonKind {
	out := make([]ReasonKind, len(reasonKinds))
	for i, k := range reasonKinds {
		out[i] = k.kind
	}
	return out
}

// kindOf is a kind's rank and whether derive makes it; ok is false for a
// kind neonform does not know.
func kindOf(k ReasonKind) (rank int, derived, ok bool) {
	for _, rk := range reasonKinds {
		if rk.kind == k {
			return rk.rank, rk.derived, true
		}
	}
	return 0, false, false
}

package emulator

import (
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/managed"
)

// lifecycle is what the emulator stores about a compute's state: the last transition that
// was ordered and when it completes. Everything else is derived at read time (view), so
// no goroutine ticks and a FakeClock moves every compute deterministically.
type lifecycle struct {
	From api.EndpointState `json:"from"` // shown as current_state until At
	To   api.EndpointState `json:"to"`   // reached at At: active or idle
	At   time.Time         `json:"at"`
	// LastActive is the last moment the compute was known active (activity or start);
	// zero when it never was. An active compute suspends at LastActive + suspend timeout.
	LastActive  time.Time  `json:"last_active,omitzero"`
	StartedAt   *time.Time `json:"started_at,omitempty"`
	SuspendedAt *time.Time `json:"suspended_at,omitempty"`
}

// stateView is a compute's state at one moment.
type stateView struct {
	current, pending api.EndpointState
	lastActive       *time.Time
	startedAt        *time.Time
	suspendedAt      *time.Time
}

// suspendAfter is the idle delay of a compute: 0 means the service default, -1 never.
func suspendAfter(seconds int64) (time.Duration, bool) {
	if seconds < 0 { // managed.SuspendNever
		return 0, false
	}
	return time.Duration(managed.EffectiveSuspend(seconds)) * time.Second, true
}

// view derives the state at now. fresh renders a transition that completes at now or
// later as still pending: the answer to the call that ordered it shows it as ordered
// (init with pending active), even when OpDelay is 0 and it is already done.
func (ep *endpoint) view(now time.Time, fresh bool) stateView {
	l := &ep.Life
	v := stateView{startedAt: l.StartedAt, suspendedAt: l.SuspendedAt}
	if !l.LastActive.IsZero() {
		t := l.LastActive
		v.lastActive = &t
	}
	if now.Before(l.At) || (fresh && !l.At.Before(now)) {
		v.current, v.pending = l.From, l.To
		return v
	}
	if l.To != api.EndpointStateActive {
		v.current = l.To
		if v.suspendedAt == nil {
			at := l.At
			v.suspendedAt = &at
		}
		return v
	}
	started := l.At
	v.startedAt = &started
	last := l.LastActive
	if last.Before(l.At) {
		last = l.At
	}
	v.lastActive = &last
	// Only a path that skipped catchUp gets here with the suspend due; it sees the
	// compute idle from the moment its timeout passed.
	if at, ok := ep.autoSuspendAt(); ok && !at.After(now) {
		v.current = api.EndpointStateIdle
		v.suspendedAt = &at
		return v
	}
	v.current = api.EndpointStateActive
	v.suspendedAt = nil
	return v
}

// transition orders a new state at now: shown as from until at, then to. What the
// compute was until now (its last activity, start and suspend times) is kept.
func (ep *endpoint) transition(now time.Time, from, to api.EndpointState, at time.Time) {
	v := ep.view(now, false)
	l := lifecycle{From: from, To: to, At: at, StartedAt: v.startedAt, SuspendedAt: v.suspendedAt}
	if v.lastActive != nil {
		l.LastActive = *v.lastActive
	}
	ep.Life = l
}

// touch records client activity at now; the caller wakes an idle compute first.
func (ep *endpoint) touch(now time.Time) {
	if now.After(ep.Life.LastActive) {
		ep.Life.LastActive = now
	}
}

// wire renders the endpoint as the API returns it. withPending=false leaves out
// pending_state, as the service's list responses do.
func (ep *endpoint) wire(now time.Time, fresh, withPending bool) api.Endpoint {
	v := ep.view(now, fresh)
	out := api.Endpoint{
		Host:                  ep.Host,
		ID:                    ep.ID,
		Name:                  ep.Name,
		ProjectID:             ep.ProjectID,
		BranchID:              ep.BranchID,
		AutoscalingLimitMinCU: ep.MinCU,
		AutoscalingLimitMaxCU: ep.MaxCU,
		RegionID:              ep.RegionID,
		Type:                  ep.Type,
		CurrentState:          v.current,
		Settings:              api.EndpointSettings{PgSettings: ep.PgSettings, PgbouncerSettings: ep.PgbouncerSettings, PreloadLibraries: ep.PreloadLibraries},
		PoolerEnabled:         ep.PoolerEnabled,
		PoolerMode:            ep.PoolerMode,
		Disabled:              ep.Disabled,
		PasswordlessAccess:    ep.PasswordlessAccess,
		LastActive:            v.lastActive,
		CreationSource:        ep.CreationSource,
		CreatedAt:             ep.CreatedAt,
		UpdatedAt:             ep.UpdatedAt,
		StartedAt:             v.startedAt,
		SuspendedAt:           v.suspendedAt,
		ProxyHost:             ep.ProxyHost,
		SuspendTimeoutSeconds: ep.SuspendTimeout,
		Provisioner:           ep.Provisioner,
	}
	if withPending {
		out.PendingState = v.pending
	}
	return out
}

// status derives an operation's status at now.
func (op *operation) status(now time.Time) api.OperationStatus {
	switch {
	case now.Before(op.StartAt):
		return api.OperationScheduling
	case now.Before(op.FinishAt):
		return api.OperationRunning
	}
	return api.OperationFinished
}

// wire renders the operation at now. fresh renders it as the call that started it
// answers: the first of its chain running, the others scheduling.
func (op *operation) wire(now time.Time, fresh bool) api.Operation {
	out := api.Operation{
		ID:         op.ID,
		ProjectID:  op.ProjectID,
		BranchID:   op.BranchID,
		EndpointID: op.EndpointID,
		Action:     op.Action,
		CreatedAt:  op.CreatedAt,
		UpdatedAt:  op.CreatedAt,
	}
	if fresh {
		out.Status = api.OperationScheduling
		if op.Step == 0 {
			out.Status = api.OperationRunning
		}
		return out
	}
	out.Status = op.status(now)
	switch out.Status {
	case api.OperationRunning:
		out.UpdatedAt = op.StartAt
		out.TotalDurationMs = int32(now.Sub(op.StartAt).Milliseconds())
	case api.OperationFinished:
		out.UpdatedAt = op.FinishAt
		out.TotalDurationMs = int32(op.FinishAt.Sub(op.StartAt).Milliseconds())
	}
	return out
}

package api_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// The client polls when the operations it waits for are expected to be
// over, as long as the run's own operations of that kind took, with one
// request a poll for all of a project's; when they run longer, it backs
// off from an eighth of what they were expected to take, never waiting
// more than PollInterval.
func TestPollsComeWhenOperationsAreExpectedToBeOver(t *testing.T) {
	clock := emulator.NewFakeClock(epoch)
	s := newService(t, emulator.Options{Clock: clock, OpDelay: 2 * time.Second},
		func(o *api.Options) { o.PollInterval = 0 }, nil) // the default: 10s
	c, ctx := s.client, context.Background()
	waits := fakeTime(c, clock)

	// A new project's two operations (create_timeline, start_compute), of
	// 2 s each: the first of this run, each expected to take a second.
	created, err := c.CreateProject(ctx, api.ProjectCreate{Name: "p"})
	must(t, err)
	pid := created.Project.ID
	must(t, c.WaitOperations(ctx, pid, created.Operations))
	if got := c.ExpectedDuration(api.ActionStartCompute); got != 2*time.Second {
		t.Fatalf("after a start_compute of 2s, one is expected to take %s", got)
	}

	// A replica's start_compute: one poll, right when it is over.
	before := len(waits())
	s.emu.ResetStats()
	rep, err := c.CreateEndpoint(ctx, pid, api.EndpointCreate{BranchID: created.Branch.ID, Type: api.EndpointTypeReadOnly})
	must(t, err)
	must(t, c.WaitOperations(ctx, pid, rep.Operations))
	if got, want := waits()[before:], []time.Duration{2*time.Second + 62500*time.Microsecond}; !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v: the start_compute's 2s and a 32nd", got, want)
	}
	stats := s.emu.Stats().Requests
	if stats["GET /projects/{project_id}/operations"] != 1 || stats["GET /projects/{project_id}/operations/{operation_id}"] != 0 {
		t.Errorf("requests %v: want one poll, of the project's operations", stats)
	}

	// A wait that begins after its call was answered (apply records the
	// step in the state first) counts from the answer: the poll still comes
	// when the operation is expected to be over, not that much later.
	before = len(waits())
	s.emu.ResetStats()
	rep2, err := c.CreateEndpoint(ctx, pid, api.EndpointCreate{BranchID: created.Branch.ID, Type: api.EndpointTypeReadOnly})
	must(t, err)
	clock.Advance(500 * time.Millisecond) // the state write
	must(t, c.WaitOperationsAfter(ctx, pid, rep2.Operations, 500*time.Millisecond))
	if got, want := waits()[before:], []time.Duration{1500*time.Millisecond + 62500*time.Microsecond}; !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v: the start_compute's 2s and a 32nd, less the 500ms since the answer", got, want)
	}
	if n := s.emu.Stats().Requests["GET /projects/{project_id}/operations"]; n != 1 {
		t.Errorf("%d polls, want one: the operation is over when it comes", n)
	}

	// The service slows down: a resize's apply_config takes 3s, expected
	// to take 2s like every operation of the run so far.
	s.emu.SetTiming(3*time.Second, 0)
	before = len(waits())
	two := 2.0
	up, err := c.UpdateEndpoint(ctx, pid, rep.Endpoint.ID, api.EndpointUpdate{AutoscalingLimitMinCU: &two, AutoscalingLimitMaxCU: &two})
	must(t, err)
	if len(up.Operations) != 1 {
		t.Fatalf("a resize of an active replica started %d operations, want its apply_config", len(up.Operations))
	}
	must(t, c.WaitOperations(ctx, pid, up.Operations))
	want := []time.Duration{2*time.Second + 62500*time.Microsecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second}
	if got := waits()[before:]; !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v: 2s as expected, then backing off from 250ms", got, want)
	}
	if got := c.ExpectedDuration(api.ActionApplyConfig); got != 3*time.Second {
		t.Errorf("after an apply_config of 3s, one is expected to take %s", got)
	}

	// Much slower still: the pauses stop growing at PollInterval.
	s.emu.SetTiming(20*time.Second, 0)
	before = len(waits())
	three := 3.0
	up, err = c.UpdateEndpoint(ctx, pid, rep.Endpoint.ID, api.EndpointUpdate{AutoscalingLimitMinCU: &three, AutoscalingLimitMaxCU: &three})
	must(t, err)
	must(t, c.WaitOperations(ctx, pid, up.Operations))
	want = []time.Duration{3*time.Second + 93750*time.Microsecond, 375 * time.Millisecond, 750 * time.Millisecond, 1500 * time.Millisecond,
		3 * time.Second, 6 * time.Second, 10 * time.Second}
	if got := waits()[before:]; !slices.Equal(got, want) {
		t.Errorf("waits %v, want %v: 3s as expected, then backing off from 375ms up to 10s", got, want)
	}
}

// Operations that took no time (an emulator's, with no operation delay) are
// polled at once the next time: no pause at all.
func TestOperationsThatTakeNoTimeArePolledAtOnce(t *testing.T) {
	s := newService(t, emulator.Options{}, nil, nil)
	c, ctx := s.client, context.Background()
	waits := api.RecordSleeps(c)
	created, err := c.CreateProject(ctx, api.ProjectCreate{Name: "p"})
	must(t, err)
	must(t, c.WaitOperations(ctx, created.Project.ID, created.Operations))
	before := len(waits())
	rep, err := c.CreateEndpoint(ctx, created.Project.ID, api.EndpointCreate{BranchID: created.Branch.ID, Type: api.EndpointTypeReadOnly})
	must(t, err)
	must(t, c.WaitOperations(ctx, created.Project.ID, rep.Operations))
	if got := waits()[before:]; !slices.Equal(got, []time.Duration{0}) {
		t.Errorf("waits %v, want one of none: the run's operations took no time", got)
	}
}

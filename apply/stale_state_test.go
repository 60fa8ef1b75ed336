package apply

import (
	"strings"
	"testing"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/state"
)

func TestStateWrittenSinceAPlanMadeWithoutOne(t *testing.T) {
	p := &diff.Plan{State: diff.StateRef{Lineage: "l-then", Serial: 0}}
	if r := checkState(p, &state.State{Lineage: "l-now", Serial: 0}, "here"); r != nil {
		t.Errorf("no state then, none now: the plan is current, got %v", r)
	}
	r := checkState(p, &state.State{Lineage: "l-now", Serial: 2, Computes: map[string]*state.Compute{"a.b.c": {}}}, "here")
	if len(r) != 1 || !strings.Contains(r[0], "was written since the plan was made: it is at serial 2 now, and there was none when planned") {
		t.Errorf("got %v", r)
	}
	p.State.Serial = 3
	for _, c := range []struct {
		st   state.State
		want string
	}{
		{state.State{Lineage: "l-then", Serial: 3}, ""},
		{state.State{Lineage: "l-then", Serial: 4}, "it is at serial 4 now, was 3 when planned"},
		{state.State{Lineage: "l-then", Serial: 2}, "is older than the plan: it is at serial 2, but the plan was made at serial 3"},
		{state.State{Lineage: "other", Serial: 3}, "is another state (lineage other) than the one the plan was made against (lineage l-then)"},
	} {
		r := checkState(p, &c.st, "here")
		if (c.want == "") != (len(r) == 0) || (c.want != "" && !strings.Contains(r[0], c.want)) {
			t.Errorf("state %+v: got %v, want %q", c.st, r, c.want)
		}
	}
}

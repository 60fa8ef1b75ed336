package views

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/apply"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe/textsafetest"
	"github.com/neonform/neonform/state"
)

// Apply's progress, on a terminal and in a log, and its report show the
// service's text escaped: a name, an id and an error message built to break
// a terminal (the plan file and the service give them).
func TestProgressAndReportShowServiceTextEscaped(t *testing.T) {
	bad := textsafetest.Name
	update := &diff.Step{ID: 1, Address: `shop.previews["` + bad + `"].primary`, Kind: diff.StepUpdate, EndpointID: bad,
		Method: "PATCH", Path: "/projects/p-1/endpoints/" + bad}
	create := &diff.Step{ID: 2, Address: "shop.main." + bad, Kind: diff.StepCreate, Name: bad,
		Method: "POST", Path: "/projects/p-1/endpoints", Record: &state.Compute{BranchID: bad, Type: api.EndpointTypeReadOnly}}
	moved := &diff.Step{ID: 3, Address: "shop.main.x", Kind: diff.StepState, MovedFrom: bad}
	refused := &api.Error{Method: "PATCH", Path: update.Path, StatusCode: 409, Message: bad, RequestID: bad}
	failedOp := &api.OperationFailedError{ProjectID: "p-1", OperationID: bad, Action: "start_compute", EndpointID: bad, Status: "failed", Text: bad}
	for _, live := range []bool{true, false} {
		var out bytes.Buffer
		p := newProgress(&out, live, time.Nanosecond, 3)
		p.othersRunning("p-1", bad, 2)
		p.start(update, &diff.Change{Disruption: diff.Restart, Active: true}, false)
		p.start(create, nil, false)
		time.Sleep(time.Millisecond) // past StillEvery: a log says "still"
		p.tick()
		p.note(create, apply.Note{Kind: apply.NoteCreateFound, EndpointID: bad})
		p.end(&apply.StepResult{Step: *update, Err: refused})
		p.end(&apply.StepResult{Step: *create, Err: failedOp, EndpointID: bad, Recorded: true})
		p.othersDone("p-1")
		p.start(moved, nil, false)
		p.end(&apply.StepResult{Step: *moved})
		p.failedBeforeStart(&apply.StepResult{Step: *update, Err: refused})
		p.finish()
		view := "progress in a log"
		if live {
			view = "progress on a terminal"
			// The status line, drawn after a line and cleared before the
			// next, stays within its 120 characters, escapes included.
			for _, drawn := range strings.Split(out.String(), "\r\x1b[K") {
				lines := strings.Split(drawn, "\n")
				if status := lines[len(lines)-1]; utf8.RuneCountInString(status) > 120 {
					t.Errorf("a status line of %d characters: %q", utf8.RuneCountInString(status), status)
				}
			}
		}
		textsafetest.Terminal(t, view, out.String())
	}
	rep := &apply.Report{
		Done:         []apply.StepResult{{Step: *moved, EndpointID: bad, StillRunning: true}},
		Failed:       []apply.StepResult{{Step: *update, Err: refused}, {Step: *create, Err: failedOp}},
		NotAttempted: []apply.StepResult{{Step: *create, Err: errors.New("not attempted: " + bad)}},
		LockLost:     &apply.LockLostError{Err: errors.New("the lock is now " + bad)},
	}
	textsafetest.Terminal(t, "report", Summary(rep, suggest.Context{}))
}

package apply

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/neonform/neonform/diff"
)

// The engine's tests read what Apply tells its hooks as facts, one line a
// call (logHook); the words people read are the views' to test
// (internal/command/views).

// nopHook is a Hook that does nothing; a test's hook embeds it and says
// what it wants to see.
type nopHook struct{}

func (nopHook) PlanChecked(*diff.Plan)                     {}
func (nopHook) Begin(func() (time.Duration, bool))         {}
func (nopHook) StepStarted(*diff.Step, *diff.Change, bool) {}
func (nopHook) StepNote(*diff.Step, Note)                  {}
func (nopHook) StepEnded(*StepResult)                      {}
func (nopHook) StepFailedBeforeStart(*StepResult)          {}
func (nopHook) OthersRunning(string, int)                  {}
func (nopHook) OthersDone(string)                          {}
func (nopHook) StateSaved(string, int64)                   {}
func (nopHook) Warning(error)                              {}
func (nopHook) Finished(*Report, error)                    {}

// logHook writes a line of facts for every call, in the order of the calls:
//
//	checked 3 steps
//	started shop.main.primary update
//	note shop.main.reports create-found ep-x named "reports"
//	ended shop.main.primary update
//	ended shop.main.primary update failed: PATCH ...: 400 ...
//	failed before start shop.main.primary: ...
//	others shop-id 2
//	others done shop-id
//	saved 4
//	warning: ...
//	finished
type logHook struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (h *logHook) log(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(h.b, format+"\n", args...)
}

// String is every line so far.
func (h *logHook) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.b.String()
}

// noteNames name the notes in the log.
var noteNames = map[NoteKind]string{NoteCreateFound: "create-found", NoteCreateResent: "create-resent", NoteUpdateInPlace: "update-in-place",
	NoteUpdateResent: "update-resent", NoteDefaultsResent: "defaults-resent", NoteDeleteResent: "delete-resent"}

func (h *logHook) PlanChecked(p *diff.Plan)           { h.log("checked %d steps", len(p.Steps)) }
func (h *logHook) Begin(func() (time.Duration, bool)) { h.log("begin") }
func (h *logHook) StepStarted(s *diff.Step, _ *diff.Change, idleNow bool) {
	h.log("started %s %s idle-now=%t", s.Address, s.Kind, idleNow)
}
func (h *logHook) StepNote(s *diff.Step, n Note) {
	h.log("note %s %s %s named %s", s.Address, noteNames[n.Kind], n.EndpointID, s.QuotedName())
}
func (h *logHook) StepEnded(res *StepResult) {
	if res.Err != nil {
		h.log("ended %s %s failed: %v", res.Step.Address, res.Step.Kind, res.Err)
		return
	}
	h.log("ended %s %s %s", res.Step.Address, res.Step.Kind, res.EndpointID)
}
func (h *logHook) StepFailedBeforeStart(res *StepResult) {
	h.log("failed before start %s: %v", res.Step.Address, res.Err)
}
func (h *logHook) OthersRunning(id string, n int)    { h.log("others %s %d", id, n) }
func (h *logHook) OthersDone(id string)              { h.log("others done %s", id) }
func (h *logHook) StateSaved(_ string, serial int64) { h.log("saved %d", serial) }
func (h *logHook) Warning(err error)                 { h.log("warning: %v", err) }
func (h *logHook) Finished(*Report, error)           { h.log("finished") }

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

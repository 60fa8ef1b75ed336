package apply

import (
	"time"

	"github.com/neonform/neonform/diff"
)

// The progress says how long the rest of an apply is expected to take, from
// what the run learned of its steps (budget.go): a step's time and requests
// as the steps done so far took, the projects at once, the client's pace.

// ended counts a step as ended (done, failed or not attempted). Steps that
// only change the state take no time, and are not counted.
func (r *run) ended(s *diff.Step) {
	if s.Kind == diff.StepState {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.left[s.ProjectID]--
}

// timeLeft is how long the steps not yet ended are expected to take; false
// before a step ended, when nothing is learned to go by.
func (r *run) timeLeft() (time.Duration, bool) {
	r.mu.Lock()
	longest, total := 0, 0
	for _, n := range r.left {
		longest = max(longest, n)
		total += n
	}
	r.mu.Unlock()
	if total == 0 {
		return 0, false
	}
	return r.budget.left(longest, total)
}

package planfile

import (
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/diff/view"
)

// wordReasons sets the text of every reason of p: its words as the views
// print them (view.ReasonWords), for whoever reads the file's JSON. The
// model records a reason's kind and facts only, which diff.Verify checks;
// the text is never read back: every view words the reason again, so a
// reworded reason in a later neonform is no change of the format
// (docs/plan-format.md).
func wordReasons(p *diff.Plan) {
	for i := range p.Changes {
		c := &p.Changes[i]
		for j := range c.Reasons {
			c.Reasons[j].Text = view.ReasonWords(c, c.Reasons[j])
		}
	}
}

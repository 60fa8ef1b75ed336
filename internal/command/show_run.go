package command

import (
	"errors"
	"io"

	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/diff/view"
)

// showOptions are what show was asked to do (cmd_show.go reads them from
// its flags and argument).
type showOptions struct {
	PlanFile string
	Chdir    string // the run's -chdir, which its advice carries
	Format   string
	Verbose  bool
	Stdout   io.Writer
	Color    bool
}

// runShow renders the saved plan in the format asked for.
func runShow(o showOptions) error {
	if err := checkFormat(o.Format); err != nil {
		return err
	}
	p, err := planfile.ReadFile(o.PlanFile)
	if err != nil {
		// show reads no configuration, so it cannot name the directory a new
		// plan is made from: its advice says DIR, not a guess that would plan
		// the current directory when pasted.
		text := err.Error()
		if completed := (configArgs{dir: "DIR", chdir: o.Chdir}).completeError(text, err); completed != text {
			return errors.New(completed + " (DIR: the configuration's directory)")
		}
		return err
	}
	switch o.Format {
	case "json":
		return planfile.RenderJSON(o.Stdout, p)
	case "markdown":
		return view.Markdown(o.Stdout, p, markdownLimit)
	}
	// Its advice (a partial plan's "neonform plan", a warning's) says DIR too.
	return view.Human(o.Stdout, p, view.HumanOptions{Color: o.Color, Verbose: o.Verbose, Context: (configArgs{dir: "DIR", chdir: o.Chdir}).context()})
}

package command

import (
	"errors"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/diff/view"
)

type showOptions struct {
	PlanFile string
	Chdir    string // the run's -chdir, which its advice carries
	Format   string
	Verbose  bool
	Stdout   io.Writer
	Color    bool
}

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print a saved plan file for people (or as JSON or Markdown)",
		UsageText: "neonform show PLANFILE [-format human|json|markdown] [-json] [-verbose]",
		Description: `Renders a plan saved with "neonform plan -out FILE", without reading the
configuration, the state or the service: what a reviewer reads before
"neonform apply FILE" carries exactly that plan out. -format json (or -json)
prints the file itself; -format markdown is for a pull-request comment.

Examples:
   neonform show plan.json
   neonform show -format markdown plan.json > comment.md

Exit status: 0 success, 1 when the file is missing or is not a plan this
neonform can read.`,
		Flags: []cli.Flag{
			formatFlag(), jsonFormatFlag(),
			&cli.BoolFlag{Name: "verbose", Usage: "also list the computes that do not change, and every unmanaged endpoint"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("show needs exactly one plan file: neonform show PLANFILE")
			}
			format, err := formatOf(c)
			if err != nil {
				return err
			}
			return runShow(showOptions{
				PlanFile: c.Args().First(),
				Chdir:    c.String("chdir"),
				Format:   format,
				Verbose:  c.Bool("verbose"),
				Stdout:   c.App.Writer,
				Color:    environmentOf(c).color(c.App.Writer),
			})
		},
	}
}

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

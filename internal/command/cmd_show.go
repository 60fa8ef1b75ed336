package command

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

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

package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/diff"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print a saved plan file for people (or as JSON or Markdown)",
		UsageText: "neonform show PLANFILE [-format human|json|markdown]",
		Description: `Renders a plan saved with "neonform plan -out FILE", without reading the
configuration or calling the service: what a reviewer sees before apply.

Examples:
   neonform show plan.json
   neonform show -format markdown plan.json > comment.md`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "human", Usage: "output format: human, json or markdown"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fmt.Errorf("show needs exactly one plan file: neonform show PLANFILE")
			}
			p, err := diff.ReadFile(c.Args().First())
			if err != nil {
				return err
			}
			w := c.App.Writer
			switch c.String("format") {
			case "human":
				return diff.RenderHuman(w, p, diff.HumanOptions{Color: wantColor(w)})
			case "json":
				return diff.RenderJSON(w, p)
			case "markdown":
				return diff.RenderMarkdown(w, p, markdownLimit)
			}
			return fmt.Errorf("-format %q: use human, json or markdown", c.String("format"))
		},
	}
}

package command

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// formatFlag is -format of plan and show: how a plan is printed. A value it
// does not know is a usage error, answered with the command's usage line like
// any other bad flag value.
func formatFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name: "format", Value: "human", Usage: "output format: human, json or markdown",
		Action: func(c *cli.Context, v string) error {
			if err := checkFormat(v); err != nil {
				return usageError(c, err, false)
			}
			return nil
		},
	}
}

// checkFormat refuses a -format value that no view prints.
func checkFormat(format string) error {
	switch format {
	case "human", "json", "markdown":
		return nil
	}
	return fmt.Errorf("-format %q: use human, json or markdown", format)
}

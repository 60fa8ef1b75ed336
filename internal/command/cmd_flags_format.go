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
		Name: "format", Value: "human", Usage: "output `FORMAT`: human, json or markdown",
		Action: func(c *cli.Context, v string) error {
			if err := checkFormat(v); err != nil {
				return usageError(c, err, false)
			}
			return nil
		},
	}
}

// jsonFormatFlag is -json of plan and show: -format json, as Terraform's
// plan -json and show -json ask for JSON.
func jsonFormatFlag() cli.Flag {
	return &cli.BoolFlag{Name: "json", Usage: "the same as -format json"}
}

// formatOf is the format -format and -json ask for; the two saying
// different formats is a mistake.
func formatOf(c *cli.Context) (string, error) {
	format := c.String("format")
	if !c.Bool("json") {
		return format, nil
	}
	if c.IsSet("format") && format != "json" {
		return "", fmt.Errorf("-json is -format json, but -format %s was given too: give one of them", format)
	}
	return "json", nil
}

package command

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the neonform version",
		UsageText: "neonform version [-json]",
		Description: `Prints the version of neonform and of the Go toolchain that built it.
The same version is sent as the User-Agent and written into plan files.
-json prints them as an object, as "terraform version -json" does:
neonform_version, go_version and platform (OS_ARCH).

Examples:
   neonform version
   neonform version -json | jq -r .neonform_version`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the version as a JSON object: neonform_version, go_version, platform"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("version takes no arguments (got %s)", c.Args().First())
			}
			return runVersion(versionOptions{JSON: c.Bool("json"), Stdout: c.App.Writer})
		},
	}
}

// printVersion is the version as `neonform version` and `neonform -version`
// both print it: one format, whichever a script calls.

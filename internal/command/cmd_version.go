package command

import (
	"fmt"
	"runtime"

	"github.com/urfave/cli/v2"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print the neonform version",
		UsageText: "neonform version",
		Description: `Prints the version of neonform and of the Go toolchain that built it.
The same version is sent as the User-Agent and written into plan files.

Example:
   neonform version`,
		Action: func(c *cli.Context) error {
			_, err := fmt.Fprintf(c.App.Writer, "neonform %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}

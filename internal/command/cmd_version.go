package command

import (
	"fmt"
	"io"
	"runtime"

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
			if c.Bool("json") {
				return writeJSON(c.App.Writer, versionInfo{Version: version, GoVersion: runtime.Version(), Platform: runtime.GOOS + "_" + runtime.GOARCH})
			}
			return printVersion(c.App.Writer)
		},
	}
}

// printVersion is the version as `neonform version` and `neonform -version`
// both print it: one format, whichever a script calls.
func printVersion(w io.Writer) error {
	_, err := fmt.Fprintf(w, "neonform %s (%s %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}

// versionInfo is what version -json prints; its keys are Terraform's where
// it has one (terraform_version becomes neonform_version; platform is
// Terraform's OS_ARCH).
type versionInfo struct {
	Version   string `json:"neonform_version"`
	GoVersion string `json:"go_version"`
	Platform  string `json:"platform"`
}

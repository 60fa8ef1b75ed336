package command

import (
	"fmt"
	"io"
	"runtime"
)

// versionOptions are the inputs of neonform version.
type versionOptions struct {
	JSON   bool
	Stdout io.Writer
}

func runVersion(o versionOptions) error {
	if o.JSON {
		return writeJSON(o.Stdout, versionInfo{Version: version, GoVersion: runtime.Version(), Platform: runtime.GOOS + "_" + runtime.GOARCH})
	}
	return printVersion(o.Stdout)
}

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

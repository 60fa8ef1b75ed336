package command

import (
	"runtime/debug"
)

// releaseVersion is set by a release build that does not go through the Go
// module system: go build -ldflags
// "-X github.com/neonform/neonform/internal/command.releaseVersion=v0.2.0".
var releaseVersion string

// version is the neonform version that the version command prints, the
// User-Agent carries and plan files record: what go install
// github.com/neonform/neonform@v0.2.0 built, read from the module version
// that Go records in the binary. (A go build in a Git checkout records a
// pseudo-version of the commit when Go reads the repository's history,
// "devel" otherwise.)
var version = versionOf(releaseVersion, debug.ReadBuildInfo)

// versionOf is the version: the one set at link time, else the main
// module's version in the build information, else "devel" (a test binary,
// or a build outside a module version and a Git checkout).
func versionOf(set string, buildInfo func() (*debug.BuildInfo, bool)) string {
	if set != "" {
		return set
	}
	if info, ok := buildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

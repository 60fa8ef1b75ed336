// Command neonform manages the compute endpoints of a hosted-Postgres service
// (Neon API v2) as code: HCL files in Git say which computes each branch should
// have; plan shows what would change and what each change does to running
// clients; apply carries a plan out in order.
//
// This file only sets the process up and hands over to internal/command,
// where the commands live.
package main

import (
	"os"
	"runtime/debug"

	"github.com/neonform/neonform/internal/command"
	"github.com/neonform/neonform/internal/memlimit"
)

func main() {
	// neonform runs briefly and does most of its work in one burst of short-lived
	// allocations (the HCL parser's tokens): a less eager garbage collector cuts
	// the CPU of loading a large configuration by a third, for some more memory
	// (docs/PERFORMANCE.md). A GOGC set in the environment still wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// That eagerness has a ceiling: past 256 MiB the collector works harder
	// instead, so that a plan of 10,000 projects stays under 300 MB; the
	// configuration loader raises it while hcl parses a large file, up to
	// 768 MiB, so that the largest configuration neonform reads
	// (config.MaxBytes) stays under 1 GB (internal/memlimit,
	// docs/PERFORMANCE.md). A GOMEMLIMIT set in the environment wins.
	if os.Getenv("GOMEMLIMIT") == "" {
		memlimit.Manage(256 << 20)
	}
	os.Exit(command.Run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

package state

import (
	"fmt"

	"github.com/neonform/neonform/internal/bounded"
)

// MaxComputes is the most computes a state may record (docs/limits.md): a
// plan of a state that large is made in seconds, and one any larger is
// refused when read (a file or a Postgres row) and by `state push`, rather
// than planned for minutes (docs/PERFORMANCE.md, "A large state").
const MaxComputes = 250_000

// tooLargeFix is what to do about a state above the limits. neonform
// reads no part of it, so the split is done on the JSON itself.
const tooLargeFix = "split its computes among several configurations, each with its own state within the limits " +
	"(docs/limits.md, \"The state\")"

// checkSize refuses a state of more than MaxFileSize bytes, before it is decoded.
func checkSize(size int, source string) error {
	if size > MaxFileSize {
		return fmt.Errorf("%s is %.1f MiB, more than a state may be (%s); it was left untouched: %s",
			source, float64(size)/(1<<20), bounded.MiB(MaxFileSize), tooLargeFix)
	}
	return nil
}

// checkComputes refuses a state of more than MaxComputes computes.
func checkComputes(n int, source string) error {
	if n > MaxComputes {
		return fmt.Errorf("%s records %d computes, more than a state may (%d); it was left untouched: %s",
			source, n, MaxComputes, tooLargeFix)
	}
	return nil
}

package config

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/internal/bounded"
	"github.com/neonform/neonform/internal/diag"
)

// The limits of what neonform reads, so that no file, however odd, can make
// it run out of memory or stack (docs/limits.md: "Limits"). Each is far above what a
// real configuration needs: 1,000 projects of 10 computes are 2.2 MB and half
// a million tokens, nested 6 levels deep.
const (
	// MaxBytes is the size of the configuration's files (variable files
	// included) together, and so of any one of them.
	MaxBytes = 8 << 20
	// MaxTokens is how many tokens (names, numbers, symbols, pieces of
	// strings) the files may hold together: memory grows with tokens more
	// than with bytes (a list of 1s costs hcl about 400 bytes a token).
	MaxTokens = 2_000_000 // messages say "2,000,000"
	// MaxNesting is how deep brackets, blocks, strings, operators and
	// conditionals may nest. hcl's parser and evaluator recurse once or more
	// per level, and a Go program dies when its stack passes 1 GB, at about
	// 100,000 levels.
	MaxNesting = 200
)

// budget is what a configuration has left of MaxBytes and MaxTokens while
// its files are read, so that many files cannot add up to more than one may hold.
type budget struct {
	bytes, tokens int
}

func newBudget() *budget { return &budget{bytes: MaxBytes, tokens: MaxTokens} }

// ReadFile reads one configuration or variable file (what names it for
// messages: "Configuration file", "Variable file"): a regular file, or a
// symbolic link to one, of at most MaxBytes. A device, a pipe or a directory
// is refused without reading, since /dev/zero or a FIFO would never end.
func ReadFile(path, what string) ([]byte, diag.Diagnostics) {
	src, d := newBudget().read(path, what)
	if d != nil {
		return nil, diag.FromHCL(hcl.Diagnostics{d})
	}
	return src, nil
}

func (b *budget) read(path, what string) ([]byte, *hcl.Diagnostic) {
	refuse := func(summary, detail string, args ...any) ([]byte, *hcl.Diagnostic) {
		return nil, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(detail, args...)}
	}
	src, err := bounded.Read(path, b.bytes)
	var tooLarge *bounded.TooLargeError
	switch {
	case errors.As(err, &tooLarge) && b.bytes == MaxBytes:
		return refuse(what+" too large",
			"%v; neonform reads configuration and variable files of up to %s. A real configuration is far smaller: is it the right file?",
			tooLarge, bounded.MiB(MaxBytes))
	case errors.As(err, &tooLarge):
		return refuse("Configuration too large",
			"With %s, the files of the configuration and the variable files add up to more than %s, the most neonform reads. A real configuration is far smaller: does the directory hold other files named *.hcl?",
			path, bounded.MiB(MaxBytes))
	case err != nil:
		// Not a regular file, a broken link, no permission (unreadable.go).
		return nil, unreadable(path, what, err)
	}
	b.bytes -= len(src)
	return src, nil
}

// take charges src (already in memory) to the budget; false if it does not fit.
func (b *budget) take(n int) bool {
	if n > b.bytes {
		return false
	}
	b.bytes -= n
	return true
}

func lower(what string) string {
	if what == "" {
		return what
	}
	return string(what[0]|0x20) + what[1:]
}

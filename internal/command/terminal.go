package command

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// isTerminal reports whether f is a terminal: the only place apply may ask
// for "yes", and where colour and a live view make sense. A character device
// is not enough: /dev/null is one, and a CI job whose standard input is
// /dev/null must be told to pass -auto-approve, not be asked.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	fd := file.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// color reports whether output to w may use colour: w is a terminal,
// NO_COLOR (https://no-color.org) is unset or empty, and -no-color was not
// given.
func (e environment) color(w io.Writer) bool {
	return !e.noColor && e.get("NO_COLOR") == "" && isTerminal(w)
}

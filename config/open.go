package config

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
)

// openFiles adds to files, the configuration's files read from disk by
// name, the contents an editor holds of some of them (Options.Open): an
// open file's text replaces its copy on disk, and a new file not yet saved
// is read as if it were. Each is charged to b as a file read from disk is.
func openFiles(dir string, files map[string][]byte, open map[string][]byte, b *budget) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, name := range sortedNames(open) {
		if !configFileName(name) {
			continue
		}
		src := open[name]
		if !b.take(len(src)) {
			return append(diags, tooLarge(filepath.Join(dir, name)))
		}
		files[name] = src
	}
	return diags
}

// editorHolds reports whether the configuration file named name is one of
// Options.Open, whose copy on disk is not read.
func editorHolds(opts Options, name string) bool {
	_, ok := opts.Open[name]
	return ok
}

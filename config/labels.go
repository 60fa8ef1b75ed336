package config

import "os"

// ValidLabel reports whether s can label a project, branch or compute block
// (and so be part of an address).
func ValidLabel(s string) bool { return labelPattern.MatchString(s) }

// LabelFrom makes a label of a name from the service, as the hint of an
// invalid label does: lowercased, with what labels cannot hold replaced by
// dashes; "" when that does not start with a letter.
func LabelFrom(name string) string { return fixLabel(name) }

// HasFiles reports whether dir holds a configuration file that Load reads; a
// directory that cannot be read, or does not exist, holds none.
func HasFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && configFileName(e.Name()) {
			return true
		}
	}
	return false
}

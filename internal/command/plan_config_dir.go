package command

import (
	"os"
	"path/filepath"
	"strings"
)

// A saved plan records its configuration's directory relative to the plan
// file (docs/plan-format.md, config_dir), so that apply PLANFILE run from
// elsewhere can name it in its advice instead of path/to/config.

// configDirFor is what a plan saved to out records of the configuration in
// dir: dir relative to out's directory, slash-separated; "" when either is
// unknown, or when the two share nothing below the root, where the
// relative path would spell out a path from the root.
func configDirFor(out, dir string) string {
	from, err := filepath.Abs(filepath.Dir(out))
	if err != nil {
		return ""
	}
	to, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(from, to)
	if err != nil {
		return ""
	}
	ups := 0
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == ".." {
			ups++
		}
	}
	depth := 0 // of the plan's directory below the root
	if trimmed := strings.Trim(filepath.ToSlash(from), "/"); trimmed != "" {
		depth = len(strings.Split(trimmed, "/"))
	}
	if ups >= depth {
		return ""
	}
	return filepath.ToSlash(rel)
}

// plannedFrom is the directory the plan file planFile says its
// configuration is in, as a path from here; "" when the plan does not say,
// says a path from the root, or names a directory that is not there (the
// file was moved without its configuration).
func plannedFrom(planFile, recorded string) string {
	if recorded == "" || filepath.IsAbs(filepath.FromSlash(recorded)) {
		return ""
	}
	dir := filepath.Join(filepath.Dir(planFile), filepath.FromSlash(recorded))
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return ""
	}
	return dir
}

// sameDir reports whether a and b are the same directory.
func sameDir(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

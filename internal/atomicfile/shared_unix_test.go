//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A shared file opens in place when it is a regular file, a link to one or
// missing (then made, 0600); a named pipe, a socket or a link to /dev/null
// is refused with Target's words, and nothing is opened.
func TestOpenSharedOpensOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "kept.json"), []byte("kept"), 0o600))
	must(t, os.Symlink("kept.json", filepath.Join(dir, "link.json")))
	for _, name := range []string{"new.json", "kept.json", "link.json"} {
		f, err := OpenShared(filepath.Join(dir, name), testOptions)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		f.Close()
	}
	if info, err := os.Stat(filepath.Join(dir, "new.json")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the missing file was made as %v (%v), want a 0600 file", info, err)
	}
	for name, want := range addSpecialFiles(t, dir, map[string]string{}) {
		f, err := OpenShared(filepath.Join(dir, name), testOptions)
		if err == nil {
			f.Close()
			t.Errorf("%s was opened", name)
		} else if !strings.HasSuffix(err.Error(), want+": choose another path") {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}

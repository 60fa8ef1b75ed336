package atomicfile

import (
	"path/filepath"
	"testing"
)

// A process that starts while another writes the same file (two runs sharing
// one sandbox) removes what killed writers left, and not the file the other
// is about to rename: that rename failed with "no such file or directory".
func TestRemoveStaleLeavesTheFileOfARunningWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.json")
	o := testOptions
	o.BeforeRename = func(string) error { return RemoveStale(path) }
	if err := WriteBytes(path, []byte("world"), o); err != nil {
		t.Fatalf("a write whose temporary file a starting process cleaned up: %v", err)
	}
	if got := read(t, path); got != "world" {
		t.Errorf("the file holds %q", got)
	}
}

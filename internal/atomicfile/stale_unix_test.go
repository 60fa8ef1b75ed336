//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// What a killed process left is removed; a file of a running process, or one
// that is not a temporary file of path, stays.
func TestRemoveStaleRemovesTheFilesOfEndedProcesses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	dead := endedPID(t)
	left := []string{
		fmt.Sprintf(".state.json.tmp-%d-123", dead), // killed before its rename
		".state.json.tmp-987654",                    // an older neonform's name: no process in it
	}
	kept := []string{
		fmt.Sprintf(".state.json.tmp-%d-456", os.Getpid()), // this process writes it
		fmt.Sprintf(".other.json.tmp-%d-1", dead),          // another file's
		fmt.Sprintf(".state.json.backup.tmp-%d-1", dead),   // the backup's: RemoveStale of the backup's path takes it
		"state.json.tmp-1",
	}
	for _, name := range append(left, kept...) {
		must(t, os.WriteFile(filepath.Join(dir, name), nil, 0o600))
	}
	if err := RemoveStale(path); err != nil {
		t.Fatal(err)
	}
	for _, name := range left {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s stayed", name)
		}
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
}

// endedPID is the process id of a process that has ended.
func endedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

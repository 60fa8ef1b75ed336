package command

import (
	"fmt"
	"io"
	"sync"
	"testing"
)

// Runs that share one embedded sandbox (two plans, or a plan while an apply
// runs) do not break each other's writes of .neonform/sandbox.json: a
// sandbox that starts removes only the temporary files that no running
// process owns. Before, every start removed them all, and a write about to
// rename its file failed with 500 "rename ... no such file or directory".
func TestSandboxesSharingADirectoryKeepEachOthersWrites(t *testing.T) {
	dir := t.TempDir()
	writer, err := startSandbox(dir, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 30 {
			other, err := startSandbox(dir, io.Discard)
			if err != nil {
				t.Errorf("sandbox %d: %v", i, err)
				return
			}
			other.Close()
		}
	}()
	for i := range 150 {
		if _, err := writer.emu.EnsureIdleProject(fmt.Sprintf("project-%d", i), "p"); err != nil {
			t.Errorf("a write while other sandboxes start: %v", err)
			break
		}
	}
	wg.Wait()
}

package command

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The configuration files generate writes are to be committed and read by
// others: mode 0644 (less the umask, as any file made with that mode), while
// the state it records stays 0600.
func TestGeneratedFilesAreReadableAndTheStateIsNot(t *testing.T) {
	w := newCrashWorld(t, 0)
	var out bytes.Buffer
	err := runGenerate(context.Background(), generateOptions{
		planInputs: planInputs{Dir: w.dir, Secrets: &sensitiveVars{}},
		ProjectIDs: crashProjects[:1],
		Env:        newEnvironment(os.Environ()),
		Stdout:     &out, Stderr: &out,
	})
	if err != nil {
		t.Fatalf("generate: %v\n%s", err, out.String())
	}
	// What this process's umask makes of 0644.
	ref := filepath.Join(t.TempDir(), "ref")
	f, err := os.OpenFile(ref, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	want := mode(t, ref)
	if got := mode(t, filepath.Join(w.dir, crashProjects[0]+".hcl")); got != want {
		t.Errorf("generated file mode %v, want %v (0644 less the umask)", got, want)
	}
	if got := mode(t, filepath.Join(w.dir, "neonform.state.json")); got != 0o600 {
		t.Errorf("state mode %v, want 0600", got)
	}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

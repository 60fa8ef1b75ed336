package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fmtIn runs neonform fmt with args in a directory holding files, and returns
// the exit code, stdout and stderr.
func fmtIn(t *testing.T, files map[string]string, args ...string) (dir string, code int, stdout, stderr string) {
	t.Helper()
	dir = t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	code = run(append([]string{"neonform", "fmt"}, append(args, dir)...), strings.NewReader(""), &out, &errOut)
	return dir, code, out.String(), errOut.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFmtCheckExitsThreeAndChangesNothing(t *testing.T) {
	dir, code, stdout, _ := fmtIn(t, map[string]string{"main.hcl": "a=1\n", "ok.hcl": "b = 2\n"}, "-check")
	if code != 3 {
		t.Errorf("exit code %d, want 3", code)
	}
	if want := filepath.Join(dir, "main.hcl") + "\n"; stdout != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	if got := readFile(t, filepath.Join(dir, "main.hcl")); got != "a=1\n" {
		t.Errorf("-check changed the file to %q", got)
	}
}

func TestFmtCheckFormattedExitsZero(t *testing.T) {
	_, code, stdout, stderr := fmtIn(t, map[string]string{"main.hcl": "a = 1\n"}, "-check")
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and nothing printed", code, stdout, stderr)
	}
}

func TestFmtSyntaxErrorExitsOneAndWritesNothing(t *testing.T) {
	dir, code, _, stderr := fmtIn(t, map[string]string{"a.hcl": "a=1\n", "b.hcl": "b = {\n"})
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if got := readFile(t, filepath.Join(dir, "a.hcl")); got != "a=1\n" {
		t.Errorf("a file was rewritten although another had a syntax error: %q", got)
	}
	// The mistake is the "{" left open on line 1, not the empty end of the file
	// where the parser noticed it.
	if !strings.Contains(stderr, "Error: Unclosed brace") || !strings.Contains(stderr, filepath.Join(dir, "b.hcl")+":1:5") {
		t.Errorf("stderr does not point at the unclosed brace, b.hcl:1:5:\n%s", stderr)
	}
}

// fmt rewrites a file atomically (a new file renamed over it) with the mode
// it had: neither more open nor closed to others than before.
func TestFmtKeepsFileMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o600, 0o644} {
		dir := t.TempDir()
		path := filepath.Join(dir, "secret.vars")
		if err := os.WriteFile(path, []byte("password=\"x\"\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		if code := run([]string{"neonform", "fmt", dir}, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != mode {
			t.Errorf("mode became %v, want %v", info.Mode().Perm(), mode)
		}
		if got := readFile(t, path); got != "password = \"x\"\n" {
			t.Errorf("not formatted: %q", got)
		}
	}
}

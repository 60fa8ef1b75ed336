package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var testOptions = Options{Rule: "-out writes only regular files: choose another path"}

func TestWriteReplacesARegularFileAndLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.json")
	for _, content := range []string{"first\n", "second\n"} {
		if err := WriteBytes(path, []byte(content), testOptions); err != nil {
			t.Fatal(err)
		}
		if got := read(t, path); got != content {
			t.Errorf("the file holds %q, want %q", got, content)
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600: a plan or a state is for its owner only", info.Mode().Perm())
	}
	if names := dirNames(t, dir); names != "plan.json" {
		t.Errorf("the directory holds %s, want only plan.json", names)
	}
}

// A link to a regular file is followed: the file it points to is replaced,
// the link stays a link (a state kept on a shared disk).
func TestWriteThroughALinkReplacesItsTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "shared.json")
	link := filepath.Join(dir, "plan.json")
	must(t, os.WriteFile(target, []byte("old"), 0o600))
	must(t, os.Symlink("shared.json", link))
	if err := WriteBytes(link, []byte("new"), testOptions); err != nil {
		t.Fatal(err)
	}
	if got := read(t, target); got != "new" {
		t.Errorf("the target holds %q, want the new content", got)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v, %v)", info, err)
	}
}

// What is not a regular file is refused whatever its size (a device says
// 0), naming what it is, and left as it was.
func TestWriteRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, "plans"), 0o700))
	must(t, os.Symlink("nowhere.json", filepath.Join(dir, "dangling.json")))
	must(t, os.Symlink("plans", filepath.Join(dir, "dirlink.json")))
	cases := map[string]string{
		"plans":         "plans is a directory; -out writes only regular files: choose another path",
		"dangling.json": "dangling.json is a symbolic link to nowhere.json, which does not exist; -out writes",
		"dirlink.json":  "dirlink.json is a symbolic link to plans, a directory; -out writes",
	}
	cases = addSpecialFiles(t, dir, cases)
	for name, want := range cases {
		path := filepath.Join(dir, name)
		before, _ := os.Lstat(path)
		for what, err := range map[string]error{
			"Check": Check(path, testOptions),
			"Write": WriteBytes(path, []byte("plan"), testOptions),
		} {
			var refused *RefusedError
			if !errors.As(err, &refused) || !strings.HasPrefix(err.Error(), filepath.Join(dir, want)) {
				t.Errorf("%s of %s = %v, want a refusal %q", what, name, err, want)
			}
		}
		after, _ := os.Lstat(path)
		if before == nil || after == nil || before.Mode() != after.Mode() || !os.SameFile(before, after) {
			t.Errorf("%s changed: %v, then %v", name, before, after)
		}
	}
	if names := dirNames(t, dir); strings.Contains(names, ".tmp-") {
		t.Errorf("a refused write left a temporary file: %s", names)
	}
}

// A writer's own rule refuses a regular file, which is then left as it was.
func TestWriteAsksReplaceAboutAnExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "main.hcl")
	must(t, os.WriteFile(path, []byte("keep"), 0o644))
	o := testOptions
	o.Replace = func(target string, info fs.FileInfo) error { return errors.New("not a plan: " + filepath.Base(target)) }
	if err := WriteBytes(path, []byte("plan"), o); err == nil || err.Error() != "not a plan: main.hcl" {
		t.Errorf("Write = %v, want Replace's refusal", err)
	}
	if got := read(t, path); got != "keep" {
		t.Errorf("the refused file holds %q", got)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func dirNames(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

package command

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal and returns its terminal side, the kind
// of file a person's shell hands neonform.
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	_, tty := openPTY(t)
	return tty
}

// openPTY opens a pseudo-terminal: what is written to ptmx is what a person
// types on tty.
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("numbering the pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening the terminal side: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return ptmx, tty
}

func TestTerminalIsTheOnlyPlaceForColourAndQuestions(t *testing.T) {
	tty := openTerminal(t)
	devNull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	file, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()

	if !isTerminal(tty) {
		t.Error("a terminal is not taken for one")
	}
	// /dev/null is a character device, as a terminal is: a CI job with its
	// standard input closed must not be asked for "yes".
	for name, f := range map[string]any{"/dev/null": devNull, "a file": file, "a pipe": r, "a buffer": &bytes.Buffer{}} {
		if isTerminal(f) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}

	env := newEnvironment(nil)
	if !env.color(tty) {
		t.Error("no colour on a terminal")
	}
	if env.color(devNull) || env.color(file) {
		t.Error("colour on /dev/null or a file")
	}
	if noColor := newEnvironment([]string{"NO_COLOR=1"}); noColor.color(tty) {
		t.Error("colour on a terminal although NO_COLOR is set")
	}
	if flag := (environment{noColor: true}); flag.color(tty) {
		t.Error("colour on a terminal although -no-color is given")
	}
}

// -no-color, given to any command, turns colour off on a terminal as
// NO_COLOR does: an error's diagnostics are plain text.
func TestNoColorFlagTurnsColourOff(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/main.hcl", []byte("project \"shop\" {\n  id = \"dark-sun-46453911\"\n  branch \"main\" {\n    compute \"primary\" {\n      size = 17\n    }\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		colour bool
	}{
		{[]string{"neonform", "validate", dir}, true},
		{[]string{"neonform", "validate", "-no-color", dir}, false},
		{[]string{"neonform", "-no-color", "validate", dir}, false},
	} {
		ptmx, tty := openPTY(t)
		if code := run(tc.args, strings.NewReader(""), tty, tty); code != 1 {
			t.Fatalf("%v: exit %d, want 1 (the configuration is not valid)", tc.args, code)
		}
		ptmx.SetReadDeadline(time.Now().Add(5 * time.Second))
		var out []byte
		buf := make([]byte, 4096)
		for !bytes.Contains(out, []byte("not valid")) {
			n, err := ptmx.Read(buf)
			if err != nil {
				t.Fatalf("%v: reading the terminal: %v (so far %q)", tc.args, err, out)
			}
			out = append(out, buf[:n]...)
		}
		if got := bytes.Contains(out, []byte("\x1b[")); got != tc.colour {
			t.Errorf("%v: colour codes %v, want %v:\n%q", tc.args, got, tc.colour, out)
		}
	}
}

// -input=false never asks, even on a terminal, as Terraform's: apply with a
// directory then stops at a plan with changes to review, changing nothing,
// as it does without a terminal (here a resize, in the embedded sandbox).
func TestInputFalseDoesNotAskOnATerminal(t *testing.T) {
	t.Setenv("NEON_API_URL", "embedded")
	t.Setenv("NEON_API_KEY", "")
	t.Setenv("NO_COLOR", "1")
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/main.hcl", []byte("project \"shop\" {\n  id = \"dark-sun-46453911\"\n  branch \"main\" {\n    compute \"primary\" {\n      size = 2\n    }\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tty := openTerminal(t)
	var out, errs bytes.Buffer
	if code := run([]string{"neonform", "apply", "-input=false", dir}, tty, &out, &errs); code != 1 {
		t.Fatalf("exit %d, want 1; stdout %q, stderr %q", code, out.String(), errs.String())
	}
	if want := "apply cannot ask for confirmation: -input=false was given, and the plan has changes to review. Nothing was changed."; !strings.Contains(errs.String(), want) {
		t.Errorf("stderr %q, want it to say %q", errs.String(), want)
	}
	if strings.Contains(out.String(), "Apply this plan?") || strings.Contains(out.String(), "Apply complete") {
		t.Errorf("stdout %q, want the plan, no question and no apply", out.String())
	}
	if _, err := os.Stat(dir + "/neonform.state.json"); err == nil {
		t.Errorf("apply -input=false wrote a state: it changed something")
	}
}

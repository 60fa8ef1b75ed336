package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/testscript"
)

// Custom testscript commands of the plan scenarios (registered in scriptCommands):
//
//	genconfig DIR PROJECTS COMPUTES
//	    writes DIR/main.hcl: PROJECTS projects, each with a branch "main" holding a
//	    primary and COMPUTES-1 read replicas, and creates the projects in the
//	    script's emulator (each with its default branch and primary), for plans
//	    too large to write out.
//	maxchars FILE N
//	    fails unless FILE holds at most N characters (runes).

func cmdGenConfig(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: genconfig DIR PROJECTS COMPUTES")
	}
	projects, err := strconv.Atoi(args[1])
	ts.Check(err)
	computes, err := strconv.Atoi(args[2])
	ts.Check(err)
	se := emulatorOf(ts)
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	var b strings.Builder
	for p := range projects {
		id := generatedProjectID(p)
		_, err := se.emu.EnsureProject(id, id)
		ts.Check(err)
		writeGeneratedProject(&b, p, computes)
	}
	ts.Check(os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(b.String()), 0o644))
}

// generatedProjectID is the id of the p-th generated project: lowercase
// letters, digits and dashes, as the service's ids are.
func generatedProjectID(p int) string { return fmt.Sprintf("bench-project-%08d", p) }

// writeGeneratedProject writes one project block: a primary that autoscales
// and computes-1 fixed-size replicas.
func writeGeneratedProject(b *strings.Builder, p, computes int) {
	fmt.Fprintf(b, "project \"p%d\" {\n  id = %q\n\n  branch \"main\" {\n", p, generatedProjectID(p))
	fmt.Fprintf(b, "    compute \"primary\" {\n      min_cu = 0.25\n      max_cu = 2\n    }\n")
	for c := 1; c < computes; c++ {
		fmt.Fprintf(b, "    compute \"replica%d\" {\n      type = \"read_only\"\n    }\n", c)
	}
	b.WriteString("  }\n}\n\n")
}

func cmdMaxChars(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: maxchars FILE N")
	}
	limit, err := strconv.Atoi(args[1])
	ts.Check(err)
	n := utf8.RuneCountInString(ts.ReadFile(args[0]))
	if (n <= limit) == neg {
		ts.Fatalf("%s holds %d characters; the limit is %d", args[0], n, limit)
	}
	ts.Logf("%s holds %d characters", args[0], n)
}

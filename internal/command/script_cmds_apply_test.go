package command

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// The custom command of the apply, import and state scripts (registered in
// scriptCommands):
//
//	scrub [-from REGEXP] IN OUT [KNOWN...]
//	    copies IN ("stdout", "stderr" or a file) to the file OUT with what
//	    changes from run to run replaced, so OUT can be compared with a golden
//	    file by cmp (and rewritten by -update): durations become "T", plan
//	    dates "DATE", request ids "R", UUIDs (lineages, lock ids) "UUID", and endpoint ids the
//	    emulator made up "ep-new-1", "ep-new-2"... in order of appearance.
//	    Endpoint ids found in the KNOWN files (the world file) stay as they are.
//	    Made-up ids differ in length, so the padding between columns is
//	    shrunk to two spaces. -from keeps only the lines from the first one
//	    that matches REGEXP: what apply did, without the plan it printed
//	    first (the plan scripts check how plans look).
var (
	durationRE  = regexp.MustCompile(`(after |in |\()\d+(\.\d+)?(µs|ms|s|m\d+s)\b`)
	dateRE      = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\b`)
	uuidRE      = regexp.MustCompile(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	requestRE   = regexp.MustCompile(`request id [0-9a-f]+`)
	columnGapRE = regexp.MustCompile(`(\S) {2,}`)
	endpointRE  = regexp.MustCompile(`\bep-[a-z]+-[a-z]+-[a-z0-9]{6,8}\b`)
)

func cmdScrub(ts *testscript.TestScript, neg bool, args []string) {
	var from *regexp.Regexp
	if len(args) > 1 && args[0] == "-from" {
		from = regexp.MustCompile(args[1])
		args = args[2:]
	}
	if neg || len(args) < 2 {
		ts.Fatalf("usage: scrub [-from REGEXP] IN OUT [KNOWN...]")
	}
	in := ts.ReadFile(args[0]) // knows "stdout" and "stderr"
	if from != nil {
		lines := strings.SplitAfter(in, "\n")
		i := slices.IndexFunc(lines, from.MatchString)
		if i < 0 {
			ts.Fatalf("scrub: no line of %s matches %s", args[0], from)
		}
		in = strings.Join(lines[i:], "")
	}
	known := map[string]bool{}
	for _, f := range args[2:] {
		for _, id := range endpointRE.FindAllString(ts.ReadFile(f), -1) {
			known[id] = true
		}
	}
	out := scrub(in, known)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o666))
}

// scrub replaces what differs between runs; see cmdScrub.
func scrub(s string, known map[string]bool) string {
	s = uuidRE.ReplaceAllString(s, "UUID")
	s = dateRE.ReplaceAllString(s, "DATE")
	s = requestRE.ReplaceAllString(s, "request id R")
	names := map[string]string{}
	s = endpointRE.ReplaceAllStringFunc(s, func(id string) string {
		if known[id] {
			return id
		}
		if n, ok := names[id]; ok {
			return n
		}
		names[id] = fmt.Sprintf("ep-new-%d", len(names)+1)
		return names[id]
	})
	s = durationRE.ReplaceAllString(s, "${1}T")
	// Columns are padded to the longest value, and made-up ids differ in
	// length: keep one gap of two spaces between columns.
	return columnGapRE.ReplaceAllString(s, "$1  ")
}

package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/neonform/neonform/diff/planfile"
	"github.com/neonform/neonform/internal/planschema"
)

// planReport names the file in which a scenario's neonform reports a plan
// that does not match the plan file's schema, for the scenario to fail on
// (checkPlanReport).
const planReport = "PLANSCHEMA_REPORT"

// runChecked runs neonform as a CLI scenario's command, then checks the plan
// file it wrote (-out) and the plan it printed (-format json) against the
// plan file's schema: the scenarios' share of the tests' check of every plan
// (internal/planschema), done here because neonform itself carries no hook
// for it. A printed plan with redacted values departs from the schema by
// design (docs/plan-format.md), so it is not checked.
func runChecked(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var printed bytes.Buffer
	if flagValue(args, "format") == "json" {
		stdout = io.MultiWriter(stdout, &printed)
	}
	code := run(args, stdin, stdout, stderr)
	if code != 0 && code != 2 { // 2: -detailed-exitcode's changes
		return code
	}
	var made [][]byte
	if out := flagValue(args, "out"); out != "" {
		if b, err := os.ReadFile(out); err == nil {
			made = append(made, b)
		}
	}
	made = append(made, printed.Bytes())
	for _, b := range made {
		if !isPlan(b) {
			continue
		}
		if err := planschema.Check(planfile.Schema, b); err != nil {
			report(fmt.Sprintf("neonform %s: %v", strings.Join(args[1:], " "), err))
		}
	}
	return code
}

// flagValue is the value of the flag name in args (-name V, -name=V, or
// with two dashes), or "".
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == "--" {
			break
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

// isPlan reports whether b is a plan document whose values are all there:
// what the plan file holds.
func isPlan(b []byte) bool {
	var doc map[string]json.RawMessage
	if json.Unmarshal(b, &doc) != nil {
		return false
	}
	_, steps := doc["steps"]
	_, changes := doc["changes"]
	_, redacted := doc["redacted"]
	return steps && changes && !redacted
}

// report appends a problem to the scenario's report file.
func report(problem string) {
	f, err := os.OpenFile(os.Getenv(planReport), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		panic(fmt.Sprintf("%s\n(and the report cannot be written: %v)", problem, err))
	}
	defer f.Close()
	fmt.Fprintln(f, problem)
}

// checkPlanReport has a scenario report its plans to a file of its own, and
// fail at its end when one did not match the schema.
func checkPlanReport(env *testscript.Env, dir string) error {
	f, err := os.CreateTemp(dir, "planschema-*.txt")
	if err != nil {
		return err
	}
	f.Close()
	env.Setenv(planReport, f.Name())
	env.Defer(func() {
		if b, err := os.ReadFile(f.Name()); err == nil && len(b) > 0 {
			env.T().Fatal(string(b))
		}
	})
	return nil
}

// Package planschema validates plan files against their JSON Schema
// (planfile.Schema, given by the caller, so that the plan packages' own tests can use it
// without an import cycle). The tests of every package that makes plans
// check them with it (Check, CheckPlan): the plan packages' through
// diff/internal/plantest and difftest, apply's through its test world, the
// CLI scenarios' every plan file and printed plan. Tests only: neonform
// itself neither imports it nor calls a hook for it.
package planschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Checker compiles schema and returns a function that validates one plan
// file's JSON against it, saying where it does not match.
func Checker(schema []byte) (func([]byte) error, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("the plan schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "plan.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("the plan schema does not compile: %w", err)
	}
	return func(plan []byte) error {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(plan))
		if err != nil {
			return fmt.Errorf("not JSON: %w", err)
		}
		return sch.Validate(v)
	}, nil
}

// MustChecker is Checker for a schema that is known to compile (tests).
func MustChecker(schema []byte) func([]byte) error {
	check, err := Checker(schema)
	if err != nil {
		panic(err)
	}
	return check
}

// Benchmarking reports whether the test binary was asked to run benchmarks
// (-test.bench with a pattern): their plans are not checked, or the check
// would be what they measure. It reads the arguments itself because the
// hook is set before the test flags are parsed (and, in a CLI scenario's
// neonform process, they never are).
func Benchmarking() bool {
	for i, a := range os.Args {
		a = strings.TrimPrefix(a, "-")
		switch {
		case strings.HasPrefix(a, "-test.bench=") || strings.HasPrefix(a, "test.bench="):
			return !strings.HasSuffix(a, "=")
		case a == "test.bench" || a == "-test.bench":
			return i+1 < len(os.Args) && os.Args[i+1] != ""
		}
	}
	return false
}

// checkers holds each schema's compiled checker, by the schema's text: a
// test checks many plans against one schema.
var checkers sync.Map

// Check validates b, a plan file's JSON, against schema, saying where it
// does not match and showing b; nil while benchmarking, whose plans are not
// checked (the check would be what they measure). A plan it refuses is a bug
// in neonform: the plan file's writer, its schema and docs/plan-format.md
// disagree.
func Check(schema, b []byte) error {
	if Benchmarking() {
		return nil
	}
	c, ok := checkers.Load(string(schema))
	if !ok {
		check, err := Checker(schema)
		if err != nil {
			return err
		}
		c, _ = checkers.LoadOrStore(string(schema), check)
	}
	if err := c.(func([]byte) error)(b); err != nil {
		return fmt.Errorf("a plan that does not match the plan file's schema (diff/planfile/plan.schema.json): %v\n%s", err, b)
	}
	return nil
}

// CheckPlan is Check of plan as the plan file holds it: indented JSON
// (diff/planfile's TestPlanFileIsMarshalIndent). The tests hand it the plans
// they make with diff.Build.
func CheckPlan(schema []byte, plan any) error {
	b, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		return err
	}
	return Check(schema, b)
}

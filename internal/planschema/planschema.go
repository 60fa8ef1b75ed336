// Package planschema validates plan files against their JSON Schema
// (planfile.Schema, given by the caller, so that the plan packages' own tests can use it
// without an import cycle). The tests of every package that makes plans set
// schemacheck.Plan to it; neonform itself does not use it.
package planschema

import (
	"bytes"
	"fmt"
	"os"
	"strings"

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

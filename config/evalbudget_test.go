package config_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/neonform/neonform/config"
)

// evalAttacks are configurations of a few lines whose evaluation ran out of
// memory, overflowed the stack or went on for minutes (docs/security.md lists
// them). Each must now be refused where the expression
// that passes a bound is written, saying which bound.
var evalAttacks = []struct {
	name string
	src  string
	// summary, and the line and column where the refused expression starts.
	summary   string
	line, col int
	detail    []string
}{
	{
		name: "replace whose replacement holds the text",
		src: "locals {\n  a = \"" + strings.Repeat("a", 1000) + "\"\n" +
			"  b = replace(local.a, \"a\", local.a)\n  c = replace(local.b, \"a\", local.b)\n}\n",
		summary: "Value too large", line: 4, col: 7,
		detail: []string{"replace's result would hold 931.3 GiB of text", "at most 16 MiB", "docs/limits.md"},
	},
	{
		name:    "jsondecode of three million [",
		src:     "locals {\n  s = \"" + strings.Repeat("[", 3_000_000) + "\"\n  j = jsondecode(local.s)\n}\n",
		summary: "JSON nested too deep", line: 3, col: 7,
		detail: []string{"3,000,000 levels deep", "at most 200 levels"},
	},
	{
		name:    "setproduct of three ranges of 1,000",
		src:     "locals {\n  p = setproduct(range(1000), range(1000), range(1000))\n}\n",
		summary: "Value too large", line: 2, col: 7,
		detail: []string{"setproduct's result would hold 4,000,000,000 elements", "at most 2,000,000"},
	},
	{
		name:    "format with a width of 999,999,999",
		src:     "locals {\n  f = format(\"%-999999999s\", \"a\")\n}\n",
		summary: "Value too large", line: 2, col: 7,
		detail: []string{"format's result would hold 953.7 MiB of text", "at most 16 MiB"},
	},
	{
		name:    "indent by 999,999,999 spaces",
		src:     "locals {\n  i = indent(999999999, \"a\\nb\")\n}\n",
		summary: "Value too large", line: 2, col: 7,
		detail: []string{"indent's result would hold 1.9 GiB of text"},
	},
	{
		name:    "regex_replace whose replacement repeats the match",
		src:     "locals {\n  a = \"" + strings.Repeat("a", 100_000) + "\"\n  r = regex_replace(local.a, \"a\", \"" + strings.Repeat("$0", 1000) + "\")\n}\n",
		summary: "Value too large", line: 3, col: 7,
		detail: []string{"regex_replace's result would hold"},
	},
	{
		name:    "join with a long separator",
		src:     "locals {\n  a = \"" + strings.Repeat("a", 100_000) + "\"\n  j = join(local.a, range(1000))\n}\n",
		summary: "Value too large", line: 3, col: 7,
		detail: []string{"join's result would hold"},
	},
	{
		name: "a template that doubles its text, local after local",
		src: func() string {
			var b strings.Builder
			b.WriteString("locals {\n  t0 = \"" + strings.Repeat("a", 1024) + "\"\n")
			for i := 1; i <= 20; i++ {
				fmt.Fprintf(&b, "  t%d = \"${local.t%d}${local.t%d}\"\n", i, i-1, i-1)
			}
			return b.String() + "}\n"
		}(),
		// t15 is 32 MiB: the first past 16.
		summary: "Value too large", line: 17, col: 9,
		detail: []string{"This template, from its first parts only, would hold 32 MiB of text", "at most 16 MiB"},
	},
	{
		name:    "a template of a thousand copies of a large text",
		src:     "locals {\n  a = \"" + strings.Repeat("a", 1<<20) + "\"\n  t = \"" + strings.Repeat("${local.a}", 1000) + "\"\n}\n",
		summary: "Value too large", line: 3, col: 7,
		detail: []string{"This template, from its first parts only, would hold 17 MiB of text"},
	},
	{
		name:    "nested for expressions of a billion elements",
		src:     "locals {\n  n = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : 1]]]\n}\n",
		summary: "Configuration takes too long to evaluate", line: 2, col: 65,
		detail: []string{"20,000,000 steps"},
	},
	{
		name:    "a number that prints as a hundred million digits",
		src:     "locals {\n  n = \"${1e100000000}\"\n}\n",
		summary: "Number too large", line: 2, col: 10,
		detail: []string{"about 99,999,999 digits", "1e-10000 to 1e10000"},
	},
	{
		name:    "distinct compares every element with every other",
		src:     "locals {\n  s = \"" + strings.Repeat("a,", 100_000) + "\"\n  d = distinct(split(\",\", local.s))\n}\n",
		summary: "Configuration takes too long to evaluate", line: 3, col: 7,
		detail: []string{"20,000,000 steps"},
	},
	{
		// hcl converts a tuple to a list of any type by comparing each
		// element's type with every other's: hours for a million.
		name:    "a tuple of a million elements given for a list",
		src:     "locals {\n  d = distinct(flatten([for i in range(1000) : range(1000)]))\n}\n",
		summary: "Configuration takes too long to evaluate", line: 2, col: 16,
		detail: []string{"20,000,000 steps"},
	},
}

func TestEvaluationIsBounded(t *testing.T) {
	for _, a := range evalAttacks {
		t.Run(a.name, func(t *testing.T) {
			_, diags := load(t, a.src, config.Options{})
			d := only(t, diags)
			if d.Summary != a.summary {
				t.Errorf("summary %q, want %q\n%s", d.Summary, a.summary, d.Detail)
			}
			if d.Range == nil || d.Range.Start.Line != a.line || d.Range.Start.Column != a.col {
				t.Errorf("at %v, want line %d, column %d", d.Range, a.line, a.col)
			}
			for _, want := range a.detail {
				if !strings.Contains(d.Detail, want) {
					t.Errorf("detail lacks %q:\n%s", want, d.Detail)
				}
			}
		})
	}
}

// TestEvaluationWithinTheBoundsIsUnchanged: what a real configuration does
// with the same functions still works, up to the bounds.
func TestEvaluationWithinTheBoundsIsUnchanged(t *testing.T) {
	src := `locals {
  a     = "` + strings.Repeat("a", 4000) + `"
  b     = replace(local.a, "a", local.a)   # 16,000,000 bytes: just within
  f     = format("%-20s|%.3f", "x", 1.5)
  i     = indent(2, "a\nb")
  p     = setproduct(range(100), range(100), range(10))
  j     = jsondecode("[[1, 2], {\"a\": [3]}]")
  big   = 1e10000
  lines = join("\n", formatlist("%s=%d", ["a", "b"], [1, 2]))
}
`
	_, diags := load(t, src, config.Options{})
	if len(diags) != 0 {
		t.Fatalf("diagnostics:\n%s", describe(diags))
	}
}

// TestEvaluationStopsWhenInterrupted: a cancelled context (SIGINT, SIGTERM)
// stops the load with one error, where it stopped, and nothing else:
// cancelled before it, before the first file is parsed.
func TestEvaluationStopsWhenInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(fmt.Errorf("interrupt signal received"))
	src := "locals {\n  a = upper(\"x\")\n}\n" + `project "p" {
  id = "proj-1"
  branch "main" {
    compute "c" {
      size = undefined_thing
    }
  }
}
`
	_, diags := load(t, src, config.Options{Context: ctx})
	d := only(t, diags)
	if d.Summary != "Interrupted" || !strings.Contains(d.Detail, "interrupt signal received") || !strings.Contains(d.Detail, "Nothing was changed") {
		t.Errorf("%s: %s", d.Summary, d.Detail)
	}
	if d.Range == nil || !strings.HasSuffix(d.Range.Filename, "main.hcl") || d.Range.Start.Line != 1 {
		t.Errorf("at %v, want the start of the first file", d.Range)
	}
}

// countdown is a context that is done from its nth look on: an interrupt
// that comes in the middle of an evaluation.
type countdown struct {
	context.Context
	looks, n int
}

func (c *countdown) Err() error {
	c.looks++
	if c.looks >= c.n {
		return context.Canceled
	}
	return nil
}

// TestEvaluationStopsSoonAfterAnInterrupt: an interrupt in the middle of a
// long expression stops it at the next look at the context, not at its end
// (a look every 1,024 steps: a million steps here).
func TestEvaluationStopsSoonAfterAnInterrupt(t *testing.T) {
	ctx := &countdown{Context: context.Background(), n: 10}
	src := "locals {\n  n = [for a in range(1000) : [for b in range(1000) : upper(\"x\")]]\n}\n"
	_, diags := load(t, src, config.Options{Context: ctx})
	d := only(t, diags)
	if d.Summary != "Interrupted" || d.Range == nil || d.Range.Start.Line != 2 {
		t.Errorf("%s at %v: %s", d.Summary, d.Range, d.Detail)
	}
	// One look more: the message asks the context why it is done.
	if ctx.looks != ctx.n+1 {
		t.Errorf("the context was looked at %d times, want %d: the evaluation went on after it was done", ctx.looks, ctx.n+1)
	}
}

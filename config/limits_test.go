package config_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/memlimit"
)

// deep is a file that nests n levels deep in one of the ways hcl's parser
// (or its evaluator) recurses: each crashed neonform with a stack overflow
// at 100,000 levels before the nesting check.
var deep = map[string]func(n int) string{
	"parentheses": func(n int) string {
		return "locals {\n  deep = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\n}\n"
	},
	"lists": func(n int) string {
		return "locals {\n  deep = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n}\n"
	},
	"objects": func(n int) string {
		return "locals {\n  deep = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n}\n"
	},
	"blocks": func(n int) string {
		return "locals {\n" + strings.Repeat("a {\n", n) + strings.Repeat("}\n", n) + "}\n"
	},
	"templates": func(n int) string {
		return "locals {\n  deep = " + strings.Repeat(`"${`, n) + "1" + strings.Repeat(`}"`, n) + "\n}\n"
	},
	"template directives": func(n int) string {
		return "locals {\n  deep = \"" + strings.Repeat("%{ if true }", n) + strings.Repeat("%{ endif }", n) + "\"\n}\n"
	},
	"additions": func(n int) string { return "locals {\n  deep = 1" + strings.Repeat(" + 1", n) + "\n}\n" },
	"additions across lines": func(n int) string {
		return "locals {\n  deep = (1" + strings.Repeat("\n + 1", n) + ")\n}\n"
	},
	"negations":    func(n int) string { return "locals {\n  deep = " + strings.Repeat("!", n) + "true\n}\n" },
	"conditionals": func(n int) string { return "locals {\n  deep = " + strings.Repeat("true ? 1 : ", n) + "2\n}\n" },
	// hcl's tables take the newline after "\xd4" into the heredoc's marker;
	// the nesting check once took "<<" for two operators and the "#" for a
	// comment, and hcl parsed the parentheses as code (issue: stack overflow).
	"a heredoc with an invalid UTF-8 marker": func(n int) string {
		return "locals {\n  deep = <<\xd4\n\n#${" + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "}\n}\n"
	},
	"indexes": func(n int) string {
		return "locals {\n  x    = [0]\n  deep = local.x" + strings.Repeat("[local.x[0]]", n) + "\n}\n"
	},
}

func TestDeepNestingIsRefusedBeforeParsing(t *testing.T) {
	for name, gen := range deep {
		t.Run(name, func(t *testing.T) {
			_, diags := load(t, gen(100_000), config.Options{})
			d := only(t, diags)
			if d.Summary != "Nesting too deep" || !strings.Contains(d.Detail, "more than 200 levels") {
				t.Fatalf("got %s: %s", d.Summary, d.Detail)
			}
			// Where the deep part starts: the attribute that holds it, or the
			// outermost of the nested blocks.
			want := hcl.Pos{Line: 2, Column: 3}
			switch name {
			case "blocks":
				want = hcl.Pos{Line: 1, Column: 1}
			case "indexes":
				want = hcl.Pos{Line: 3, Column: 3}
			}
			if got := d.Range; got == nil || got.Filename != filepath.Join("conf", "main.hcl") || got.Start.Line != want.Line || got.Start.Column != want.Column {
				t.Errorf("subject %v, want conf/main.hcl:%d:%d", got, want.Line, want.Column)
			}
		})
	}
}

func TestNestingWithinTheLimitIsRead(t *testing.T) {
	// 60 levels of each kind, more than any real configuration: the check
	// counts conservatively, but not so much that these are refused.
	for name, gen := range deep {
		if _, diags := load(t, gen(60), config.Options{}); hasSummary(diags, "Nesting too deep") {
			t.Errorf("%s: 60 levels refused: %s", name, diags.String())
		}
	}
}

func hasSummary(diags diag.Diagnostics, summary string) bool {
	for _, d := range diags {
		if d.Summary == summary {
			return true
		}
	}
	return false
}

func TestDeepNestingInAVariableValue(t *testing.T) {
	opts := config.Options{Vars: []string{"cu=" + strings.Repeat("[", 5000) + strings.Repeat("]", 5000)}}
	_, diags := load(t, "variable \"cu\" {\n  type = list(number)\n}\n", opts)
	d := only(t, diags)
	if d.Summary != "Nesting too deep" || !strings.HasPrefix(d.Detail, "The value from -var cu: ") || d.Range != nil {
		t.Errorf("got %s: %s (%v)", d.Summary, d.Detail, d.Range)
	}
}

func TestTooManyTokensIsRefused(t *testing.T) {
	// 1,000,001 list elements and their commas: 2 million tokens, in 2 MB.
	src := "locals {\n  big = [" + strings.Repeat("1,", 1_000_001) + "]\n}\n"
	_, diags := load(t, src, config.Options{})
	d := only(t, diags)
	if d.Summary != "Configuration too large" || !strings.Contains(d.Detail, "more than 2,000,000 tokens") || d.Range == nil || d.Range.Start.Line != 2 {
		t.Errorf("got %s: %s (%v)", d.Summary, d.Detail, d.Range)
	}
}

func TestFilesLargerThanTheLimitAreRefused(t *testing.T) {
	dir := t.TempDir()
	// 8 MiB + 1 byte of comment: not even read past the limit.
	big := "#" + strings.Repeat("x", config.MaxBytes-1) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := config.Load(dir, config.Options{})
	d := only(t, diags)
	if d.Summary != "Configuration file too large" || !strings.Contains(d.Detail, "main.hcl is larger than 8 MiB;") {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}

	// Two files of 5 MiB: each is fine, together they are not.
	half := "#" + strings.Repeat("x", 5<<20) + "\n"
	for _, name := range []string{"main.hcl", "more.hcl"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(half), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, diags = config.Load(dir, config.Options{})
	d = only(t, diags)
	if d.Summary != "Configuration too large" || !strings.Contains(d.Detail, "more.hcl, the files of the configuration and the variable files add up to more than 8 MiB") {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}

	// A variable file counts too.
	if err := os.WriteFile(filepath.Join(dir, "more.hcl"), []byte("locals {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := filepath.Join(t.TempDir(), "big.vars")
	if err := os.WriteFile(vars, []byte(half), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags = config.Load(dir, config.Options{VarFiles: []string{vars}})
	d = only(t, diags)
	if d.Summary != "Configuration too large" || !strings.HasPrefix(d.Detail, "-var-file "+vars+": With "+vars) {
		t.Errorf("got %s: %s", d.Summary, d.Detail)
	}
}

func TestFormatRefusesDeepNesting(t *testing.T) {
	out, diags := config.Format([]byte(deep["parentheses"](100_000)), "main.hcl")
	if out != nil || only(t, diags).Summary != "Nesting too deep" {
		t.Errorf("got %q, %s", out, diags.String())
	}
}

// Loading makes room for hcl's tree of the file it parses, which a plan's
// soft memory limit would not leave (internal/memlimit): a list of 100,000
// numbers (200,000 tokens) raises a limit of 64 MiB to twice the 400 bytes
// a token hcl may hold; a file of projects, a file at a time, does not.
func TestLoadingMakesRoomForLargeFiles(t *testing.T) {
	t.Cleanup(func() { memlimit.Manage(math.MaxInt64) }) // no limit again
	memlimit.Manage(64 << 20)
	small := map[string][]byte{"main.hcl": []byte("project \"shop\" {\n  id = \"shop-1\"\n  branch \"main\" {\n    compute \"primary\" {}\n  }\n}\n")}
	if _, diags := config.LoadSources("cfg", small, config.Options{}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := memlimit.Limit(); got != 64<<20 {
		t.Errorf("a small configuration moved the limit to %d", got)
	}
	list := "locals {\n  big = [" + strings.Repeat("1,", 100_000) + "1]\n}\n"
	if _, diags := config.LoadSources("cfg", map[string][]byte{"big.hcl": []byte(list)}, config.Options{}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := memlimit.Limit(); got < 2*400*200_000 {
		t.Errorf("a list of 200,000 tokens left the limit at %d", got)
	}
}

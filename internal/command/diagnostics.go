package command

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/textsafe"
)

// printDiagnostics writes config errors and warnings the way a person fixes
// them: the summary, file:line:col, the offending source line with a marker
// under the offending part, then the sentence that says what to do. Colour
// only when w is a terminal and NO_COLOR is not set. Source lines come from
// files (the parsed files by name); a file not in it is read from disk.
//
// hcl's own text writer marks the offending part with colour only, so in CI
// logs and under NO_COLOR it would show no marker and no column; hence this.
func printDiagnostics(w io.Writer, diags diag.Diagnostics, files map[string]*hcl.File, env environment) {
	writeDiagnostics(w, diags, files, env.color(w))
}

// ANSI codes, used only when colour is on.
const (
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// Limits of what one run prints, so that a hostile or generated file cannot
// bury the first mistake under megabytes (docs/limits.md: "Limits").
const (
	// maxDiagnostics are printed; the rest are counted: "and 12 more errors".
	maxDiagnostics = 50
	// maxLineWidth characters of a source line are quoted, around the mistake.
	// (diag.MaxSummary and diag.MaxDetail cut a message that quotes a long value.)
	maxLineWidth = 120
)

// writeDiagnostics prints diags for people: a diagnostic about a place in a
// file quotes it; one about a compute names its address (and plan file).
func writeDiagnostics(w io.Writer, diags diag.Diagnostics, files map[string]*hcl.File, color bool) {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	sources := sourceCache{files: files}
	shown, moreErrors, moreWarnings := firstDiagnostics(diags)
	for _, d := range shown {
		d.Word()
		severity, code := "Error", ansiRed
		if d.Severity == diag.SeverityWarning {
			severity, code = "Warning", ansiYellow
		}
		// A diagnostic quotes the files' text and, in a plan, the service's:
		// shown escaped (internal/textsafe).
		fmt.Fprintf(w, "%s: %s\n", paint(ansiBold+code, severity), paint(ansiBold, textsafe.Terminal(diag.Clip(d.Summary, diag.MaxSummary))))
		switch {
		case d.Range != nil:
			r := *d.Range
			src := sources.get(r.Filename)
			where := fmt.Sprintf("%s:%d:%d", textsafe.Terminal(r.Filename), r.Start.Line, r.Start.Column)
			if in := blockPath(src, r.Start.Byte); in != "" {
				where += ", in " + in
			}
			fmt.Fprintf(w, "\n  on %s:\n", where)
			if line, marker, ok := sourceLine(src.bytes, r); ok && d.Quotable() {
				num := fmt.Sprint(r.Start.Line)
				pad := strings.Repeat(" ", len(num))
				fmt.Fprintf(w, "  %s | %s\n", num, line)
				fmt.Fprintf(w, "  %s | %s\n", pad, paint(code, marker))
			}
		case d.Address != "":
			where := textsafe.Terminal(d.Address)
			if d.PlanFile != "" {
				where += " in " + textsafe.Terminal(d.PlanFile)
			}
			fmt.Fprintf(w, "\n  on %s\n", where)
		}
		if d.Detail != "" {
			fmt.Fprintf(w, "\n  %s\n", strings.ReplaceAll(textsafe.TerminalText(diag.Clip(d.Detail, diag.MaxDetail)), "\n", "\n  "))
		}
		fmt.Fprintln(w)
	}
	if more := moreDiagnostics(moreErrors, moreWarnings); more != "" {
		fmt.Fprintf(w, "... and %s, not shown: fix the ones above first (some of the others may follow from them).\n\n", more)
	}
}

// firstDiagnostics picks the diagnostics to print: up to maxDiagnostics, in
// order, errors before warnings when there are too many (a warning must not
// hide an error), and counts the others.
func firstDiagnostics(diags diag.Diagnostics) (shown diag.Diagnostics, moreErrors, moreWarnings int) {
	if len(diags) <= maxDiagnostics {
		return diags, 0, 0
	}
	errs := 0
	for _, d := range diags {
		if d.Severity == diag.SeverityError {
			errs++
		}
	}
	warningRoom := max(maxDiagnostics-errs, 0)
	for _, d := range diags {
		switch {
		case d.Severity == diag.SeverityError && moreErrors == 0 && len(shown) < maxDiagnostics:
			shown = append(shown, d)
		case d.Severity == diag.SeverityError:
			moreErrors++
		case warningRoom > 0:
			shown = append(shown, d)
			warningRoom--
		default:
			moreWarnings++
		}
	}
	return shown, moreErrors, moreWarnings
}

// moreDiagnostics is "12 more errors and 1 more warning", or "".
func moreDiagnostics(errs, warnings int) string {
	var parts []string
	if errs > 0 {
		parts = append(parts, english.Plural(errs, "more error", "more errors"))
	}
	if warnings > 0 {
		parts = append(parts, english.Plural(warnings, "more warning", "more warnings"))
	}
	return english.And(parts)
}

// source is one file's bytes and, when it parsed, its syntax tree.
type source struct {
	bytes []byte
	body  *hclsyntax.Body
}

// sourceCache finds source text by file name: first in the parsed files the
// caller has, then on disk (a diagnostic about a file that failed to load).
type sourceCache struct {
	files map[string]*hcl.File
	read  map[string]source
}

func (c *sourceCache) get(name string) source {
	if s, ok := c.read[name]; ok {
		return s
	}
	var s source
	if f, ok := c.files[name]; ok && f != nil {
		s.bytes = f.Bytes
		s.body, _ = f.Body.(*hclsyntax.Body)
	} else if b, d := config.ReadFile(name, "File"); d == nil {
		// Within the limits of a configuration file: a diagnostic may name a
		// file neonform refused to read (too large, or a device).
		s.bytes = b
	}
	if s.body == nil && s.bytes != nil {
		// Even a file with syntax errors parses far enough to name its blocks;
		// config.Parse refuses, as Load does, a file too deep to parse.
		if f, _ := config.Parse(s.bytes, name); f != nil {
			s.body, _ = f.Body.(*hclsyntax.Body)
		}
	}
	if c.read == nil {
		c.read = map[string]source{}
	}
	c.read[name] = s
	return s
}

// sourceLine returns the first line of r and a marker of carets under the
// part of it that r covers (one caret for an empty range or the end of a line).
// A line longer than maxLineWidth characters is cut to a window around the
// start of r, with "…" where it was cut.
func sourceLine(src []byte, r hcl.Range) (line, marker string, ok bool) {
	start := r.Start.Byte
	if src == nil || start > len(src) || start < 0 {
		return "", "", false
	}
	lineStart := bytes.LastIndexByte(src[:start], '\n') + 1
	lineEnd := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		lineEnd = start + i
	}
	if lineEnd > lineStart && src[lineEnd-1] == '\r' {
		lineEnd--
	}
	start = min(start, lineEnd)
	// The window: up to a third of the width before the mistake, the rest after.
	left := start
	for n := 0; left > lineStart && n < maxLineWidth/3; n++ {
		_, size := utf8.DecodeLastRune(src[lineStart:left])
		left -= size
	}
	right := start
	for n := utf8.RuneCount(src[left:start]); right < lineEnd && n < maxLineWidth; n++ {
		_, size := utf8.DecodeRune(src[right:lineEnd])
		right += size
	}
	var text, indent strings.Builder
	if left > lineStart {
		text.WriteString("…")
		indent.WriteByte(' ')
	}
	text.WriteString(textsafe.TerminalText(string(src[left:right])))
	if right < lineEnd {
		text.WriteString("…")
	}
	// Keep tabs in the marker's indent so the carets line up under tabs too;
	// a character shown escaped takes the width of its escape.
	for i := left; i < start; {
		_, size := utf8.DecodeRune(src[i:start])
		if src[i] == '\t' {
			indent.WriteByte('\t')
		} else {
			indent.WriteString(strings.Repeat(" ", shownWidth(src[i:i+size])))
		}
		i += size
	}
	end := min(r.End.Byte, right)
	width := 1
	if end > start {
		width = shownWidth(src[start:end])
	}
	return text.String(), indent.String() + strings.Repeat("^", width), true
}

// shownWidth is how many characters b takes as sourceLine shows it.
func shownWidth(b []byte) int {
	return utf8.RuneCountInString(textsafe.TerminalText(string(b)))
}

// blockPath names the blocks that enclose offset, outermost first:
// `project "shop", branch "main", compute "primary"`.
func blockPath(src source, offset int) string {
	var path []string
	body := src.body
	for body != nil {
		var inner *hclsyntax.Body
		for _, b := range body.Blocks {
			if b.Range().ContainsOffset(offset) {
				name := b.Type
				for _, l := range b.Labels {
					name += fmt.Sprintf(" %q", l)
				}
				path = append(path, name)
				inner = b.Body
				break
			}
		}
		body = inner
	}
	return strings.Join(path, ", ")
}

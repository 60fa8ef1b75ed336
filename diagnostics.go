package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// printDiagnostics writes config errors and warnings the way a person fixes
// them: the summary, file:line:col, the offending source line with a marker
// under the offending part, then the sentence that says what to do. Colour
// only when w is a terminal and NO_COLOR is not set. Source lines come from
// files (the parsed files by name); a file not in it is read from disk.
//
// hcl's own text writer marks the offending part with colour only, so in CI
// logs and under NO_COLOR it would show no marker and no column; hence this.
func printDiagnostics(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File) {
	writeDiagnostics(w, diags, files, wantColor(w))
}

// ANSI codes, used only when colour is on.
const (
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

func writeDiagnostics(w io.Writer, diags hcl.Diagnostics, files map[string]*hcl.File, color bool) {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	sources := sourceCache{files: files}
	for _, d := range diags {
		severity, code := "Error", ansiRed
		if d.Severity == hcl.DiagWarning {
			severity, code = "Warning", ansiYellow
		}
		fmt.Fprintf(w, "%s: %s\n", paint(ansiBold+code, severity), paint(ansiBold, d.Summary))
		if d.Subject != nil {
			r := *d.Subject
			src := sources.get(r.Filename)
			where := fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
			if in := blockPath(src, r.Start.Byte); in != "" {
				where += ", in " + in
			}
			fmt.Fprintf(w, "\n  on %s:\n", where)
			if line, marker, ok := sourceLine(src.bytes, r); ok {
				num := fmt.Sprint(r.Start.Line)
				pad := strings.Repeat(" ", len(num))
				fmt.Fprintf(w, "  %s | %s\n", num, line)
				fmt.Fprintf(w, "  %s | %s\n", pad, paint(code, marker))
			}
		}
		if d.Detail != "" {
			fmt.Fprintf(w, "\n  %s\n", strings.ReplaceAll(d.Detail, "\n", "\n  "))
		}
		fmt.Fprintln(w)
	}
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
	} else if b, err := os.ReadFile(name); err == nil {
		s.bytes = b
	}
	if s.body == nil && s.bytes != nil {
		// Even a file with syntax errors parses far enough to name its blocks.
		if f, _ := hclsyntax.ParseConfig(s.bytes, name, hcl.InitialPos); f != nil {
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
func sourceLine(src []byte, r hcl.Range) (line, marker string, ok bool) {
	if src == nil || r.Start.Byte > len(src) {
		return "", "", false
	}
	lineStart := r.Start.Byte
	for lineStart > 0 && src[lineStart-1] != '\n' {
		lineStart--
	}
	lineEnd := r.Start.Byte
	for lineEnd < len(src) && src[lineEnd] != '\n' {
		lineEnd++
	}
	text := strings.TrimRight(string(src[lineStart:lineEnd]), "\r")
	// Keep tabs in the marker's indent so the carets line up under tabs too.
	var indent strings.Builder
	for _, ch := range string(src[lineStart:r.Start.Byte]) {
		if ch == '\t' {
			indent.WriteByte('\t')
		} else {
			indent.WriteByte(' ')
		}
	}
	end := min(r.End.Byte, lineStart+len(text))
	width := 1
	if end > r.Start.Byte {
		width = utf8.RuneCount(src[r.Start.Byte:end])
	}
	return text, indent.String() + strings.Repeat("^", width), true
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

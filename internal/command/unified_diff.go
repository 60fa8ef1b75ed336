package command

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is how many unchanged lines a hunk shows around a change, as in diff -u.
const diffContext = 3

// lineOp is one line of a line-by-line diff.
type lineOp struct {
	op   diffmatchpatch.Operation
	text string // the line, with its newline if it had one
}

// unifiedDiff returns the changes from before to after as a unified diff with
// "--- a/NAME" and "+++ b/NAME" headers, so it reads like git diff and applies
// with git apply or patch -p1. It is empty when the texts are equal.
func unifiedDiff(name string, before, after string) string {
	if before == after {
		return ""
	}
	ops := diffLines(before, after)
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	for _, h := range hunks(ops) {
		writeHunk(&b, ops[h[0]:h[1]], h[2], h[3])
	}
	return b.String()
}

// diffLines diffs whole lines with diffmatchpatch (each line reduced to one rune).
func diffLines(before, after string) []lineOp {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // the same input must always give the same diff
	a, b, lines := dmp.DiffLinesToRunes(before, after)
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)
	var ops []lineOp
	for _, d := range diffs {
		for _, line := range strings.SplitAfter(d.Text, "\n") {
			if line != "" {
				ops = append(ops, lineOp{d.Type, line})
			}
		}
	}
	return ops
}

// hunks groups changed lines that are close together, each with its context:
// every hunk is {first op, end op, first line in before, first line in after},
// the line numbers counted from 1.
func hunks(ops []lineOp) [][4]int {
	var out [][4]int
	oldLine, newLine := 1, 1
	for i := 0; i < len(ops); {
		if ops[i].op == diffmatchpatch.DiffEqual {
			oldLine++
			newLine++
			i++
			continue
		}
		// A change at i: back up over at most diffContext equal lines.
		start := i
		for start > 0 && i-start < diffContext && ops[start-1].op == diffmatchpatch.DiffEqual {
			start--
		}
		hunkOld, hunkNew := oldLine-(i-start), newLine-(i-start)
		// Extend past changes until a run of equal lines too long to join the next change.
		end := i
		for end < len(ops) {
			if ops[end].op != diffmatchpatch.DiffEqual {
				if ops[end].op == diffmatchpatch.DiffDelete {
					oldLine++
				} else {
					newLine++
				}
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].op == diffmatchpatch.DiffEqual {
				run++
			}
			if run < len(ops) && run-end <= 2*diffContext {
				oldLine += run - end
				newLine += run - end
				end = run
				continue
			}
			tail := min(run-end, diffContext)
			oldLine += tail
			newLine += tail
			end += tail
			break
		}
		out = append(out, [4]int{start, end, hunkOld, hunkNew})
		i = end
	}
	return out
}

// writeHunk writes one hunk: its @@ header, then each line with its mark.
func writeHunk(b *strings.Builder, ops []lineOp, oldStart, newStart int) {
	oldCount, newCount := 0, 0
	for _, o := range ops {
		if o.op != diffmatchpatch.DiffInsert {
			oldCount++
		}
		if o.op != diffmatchpatch.DiffDelete {
			newCount++
		}
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(oldStart, oldCount), hunkRange(newStart, newCount))
	for _, o := range ops {
		mark := " "
		switch o.op {
		case diffmatchpatch.DiffDelete:
			mark = "-"
		case diffmatchpatch.DiffInsert:
			mark = "+"
		}
		b.WriteString(mark)
		b.WriteString(o.text)
		if !strings.HasSuffix(o.text, "\n") {
			b.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange writes a hunk's line range as diff -u does: "start,count", just
// "start" for one line, and the line before for an empty range.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

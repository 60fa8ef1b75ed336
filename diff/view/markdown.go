package view

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/textsafe"
)

// DefaultMarkdownLimit keeps a comment under GitHub's cap of 65,535 characters.
const DefaultMarkdownLimit = 60000

// Markdown writes the plan as a pull-request comment: the summary and
// the warnings first (two lines tell a reviewer the risk), one table of
// changes, the details folded. The output stays under limit bytes (and so
// characters) however large the plan, and says what it left out; limit <= 0
// means DefaultMarkdownLimit.
func Markdown(w io.Writer, p *diff.Plan, limit int) error {
	return MarkdownContext(context.Background(), w, p, limit)
}

// MarkdownContext is Markdown that stops soon after ctx is done (looks.go),
// with ctx's error and nothing written.
func MarkdownContext(ctx context.Context, w io.Writer, p *diff.Plan, limit int) error {
	if limit <= 0 {
		limit = DefaultMarkdownLimit
	}
	l := newLooks(ctx)
	comment := markdown(p, limit, l)
	if l.err != nil {
		return l.err
	}
	_, err := io.WriteString(w, comment)
	return err
}

// section is a list that may be cut short: head, as many items as fit, a note
// saying how many were left out, then tail.
type section struct {
	head, tail string
	items      []string
	weight     int
	omitted    func(n int) string
	// room is the most of the items any comment can show: its limit. Past
	// it an item is counted (more), not formatted: a plan of 250,000
	// changes is a comment of a few hundred rows, and formatting the rest
	// was most of its time.
	room, size, more int
}

// full is whether the items formatted so far fill any comment: the rest
// are only counted.
func (s *section) full() bool { return s.size > s.room }

func (s *section) add(item string) {
	s.items = append(s.items, item)
	s.size += len(item)
}

// reserve is room kept for the notes that say what was left out.
const reserve = 400

func markdown(p *diff.Plan, limit int, l *looks) string {
	var b strings.Builder
	if !p.HasChanges() {
		b.WriteString(markdownNoChanges(p))
		if p.HasSteps() {
			fmt.Fprintf(&b, "\n%s\n\n", strings.TrimSpace(noReviewEnd(p)))
			if adopted := stateOnly(p); len(adopted) > 0 { // adoptions as they are
				b.WriteString("Recorded in the state (no API call, nothing to review):\n\n")
				for _, st := range adopted {
					fmt.Fprintf(&b, "- %s: %s\n", textsafe.MarkdownCode(st.Address), textsafe.Markdown(st.Note))
				}
				b.WriteString("\n")
			}
			writeSection(&b, driftSection(p, l, limit), limit-b.Len()-reserve)
		}
		if c := costCallouts(p); c != "" {
			b.WriteString("\n" + c)
		}
		if len(p.Unmanaged) > 0 {
			fmt.Fprintf(&b, "\n%s not in the configuration left alone.\n", english.Plural(len(p.Unmanaged), "endpoint", "endpoints"))
		}
		return clip(b.String(), limit)
	}
	fmt.Fprintf(&b, "### %s: %s\n\n", markdownTitle(p), summaryLine(p.Summary))
	b.WriteString(clip(alerts(p, l), (limit-reserve)/4))
	b.WriteString(clip(fleetLines(p, l), (limit-reserve)/8))

	sections := []*section{changeTable(p, l, limit), driftSection(p, l, limit), unmanagedSection(p, l, limit), callsSection(p, l, limit)}
	weights := 0
	for _, s := range sections {
		weights += s.weight
	}
	for _, s := range sections {
		if len(s.items) == 0 {
			weights -= s.weight
			continue
		}
		left := limit - b.Len() - reserve
		allowance := left * s.weight / max(weights, 1)
		weights -= s.weight
		writeSection(&b, s, allowance)
	}
	return b.String()
}

func writeSection(b *strings.Builder, s *section, allowance int) {
	start := b.Len()
	b.WriteString(s.head)
	// Items only counted (more) make total more than any allowance.
	total := len(s.head) + len(s.tail) + s.size
	noteRoom := 0
	if total > allowance {
		noteRoom = len(s.omitted(len(s.items) + s.more))
	}
	n := 0
	for _, it := range s.items {
		if b.Len()-start+len(it)+len(s.tail)+noteRoom > allowance {
			break
		}
		b.WriteString(it)
		n++
	}
	if left := len(s.items) - n + s.more; left > 0 {
		b.WriteString(s.omitted(left))
	}
	b.WriteString(s.tail)
}

// alerts is what a reviewer must not miss: a block quote of one list item
// each. A list, not a line each: GitHub renders single newlines as breaks in
// a pull-request comment but not in a job summary or a .md file, where lines
// of a block quote run together into one paragraph.
func alerts(p *diff.Plan, l *looks) string {
	var restarts, suspends, recreates, activeDeletes, deletes, downtime []string
	for i := range p.Changes {
		if l.stopped() {
			return ""
		}
		c := &p.Changes[i]
		addr := textsafe.MarkdownCode(c.Address)
		switch {
		case c.Action == diff.Replace:
			recreates = append(recreates, addr)
		case c.Action == diff.Delete && c.Active:
			activeDeletes = append(activeDeletes, addr)
		case c.Action == diff.Delete:
			deletes = append(deletes, addr)
		case c.Active && c.Disruption == diff.Restart:
			restarts = append(restarts, addr)
		case c.Active && c.Disruption == diff.Suspend:
			suspends = append(suspends, addr)
		}
		if c.Downtime {
			downtime = append(downtime, addr)
		}
	}
	var b strings.Builder
	if len(p.Targets) > 0 {
		fmt.Fprintf(&b, "> - **Partial plan** (%s): only the targeted computes were read and planned; "+
			"other changes the configuration asks for may be waiting, and are not shown\n", textsafe.MarkdownCode(targetFlags(p)))
	}
	line := func(list []string, one, many, why string) {
		if len(list) > 0 {
			fmt.Fprintf(&b, "> - **%s**%s: %s\n", english.Plural(len(list), one, many), why, english.FirstFew(list, 10))
		}
	}
	line(restarts, "restart of an active compute", "restarts of active computes", " (drops connections)")
	line(suspends, "suspend of an active compute", "suspends of active computes", " (drops connections)")
	line(recreates, "recreate", "recreates", " (new host, connection strings change)")
	line(downtime, "branch without a read_write compute for a while", "branches without a read_write compute for a while", " (downtime)")
	line(activeDeletes, "delete of an active compute", "deletes of active computes", " (drops connections, the host goes away)")
	line(deletes, "delete", "deletes", "")
	line(overwrittenDrift(p), "change made outside neonform is overwritten", "changes made outside neonform are overwritten", "")
	b.WriteString(costCallouts(p))
	for i, w := range p.Warnings {
		if i == 5 {
			fmt.Fprintf(&b, "> - and %s more\n", english.Plural(len(p.Warnings)-5, "warning", "warnings"))
			break
		}
		fmt.Fprintf(&b, "> - **Warning:** %s\n", textsafe.Markdown(strings.ReplaceAll(clip(w, 600), "\n", " ")))
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// overwrittenDrift lists the drift that the plan reverts or overwrites, each
// compute with what its change does to the drifted attributes: someone
// changed it in the console, and approving the plan discards their change.
func overwrittenDrift(p *diff.Plan) []string {
	byAddress := make(map[string]*diff.Change, len(p.Changes))
	for i := range p.Changes {
		byAddress[p.Changes[i].Address] = &p.Changes[i]
	}
	var out []string
	for _, d := range p.Drift {
		c := byAddress[d.Address]
		if c == nil || c.Action == diff.NoOp {
			continue
		}
		if d.Gone {
			if c.Action == diff.Create {
				out = append(out, textsafe.MarkdownCode(d.Address)+" (deleted outside neonform; created again, with a new host)")
			}
			continue
		}
		drifted := make(map[string]bool, len(d.Attributes))
		for _, a := range d.Attributes {
			drifted[a.Name] = true
		}
		var back []string
		for _, a := range c.Attributes {
			if drifted[a.Name] {
				back = append(back, markdownAttribute(a))
			}
		}
		if len(back) > 0 {
			out = append(out, fmt.Sprintf("%s (%s)", textsafe.MarkdownCode(d.Address), clip(strings.Join(back, ", "), 300)))
		}
	}
	return out
}

func changeTable(p *diff.Plan, l *looks, room int) *section {
	s := &section{
		head:   "| | compute | action | disruption | what changes |\n|---|---|---|---|---|\n",
		tail:   "\n",
		weight: 6,
		room:   room,
		omitted: func(n int) string {
			return fmt.Sprintf("\n_%s not shown, to keep this comment under the size GitHub allows; `neonform show PLANFILE` lists every change._\n",
				english.Plural(n, "more change", "more changes"))
		},
	}
	costs := p.Cost.Shown()
	if costs {
		s.head = "| | compute | action | disruption | what changes | cost a month |\n|---|---|---|---|---|---|\n"
	}
	for _, c := range dangerFirst(p.Changes) {
		if l.stopped() {
			return s
		}
		if s.full() {
			s.more++
			continue
		}
		row := fmt.Sprintf("| %s | %s | %s | %s | %s |",
			c.Action.Symbol(), cell(textsafe.MarkdownCode(c.Address)), c.Action, disruptionCell(c), cell(clip(askedWords(p, c)+whatChanges(c), maxCell)))
		if costs {
			row += " " + cell(dollarsSafe(costCell(p, c))) + " |"
		}
		s.add(row + "\n")
	}
	for _, d := range p.Defaults {
		if len(d.Attributes) == 0 {
			continue
		}
		if s.full() {
			s.more++
			continue
		}
		var parts []string
		for _, a := range d.Attributes {
			parts = append(parts, markdownAttribute(a))
		}
		row := fmt.Sprintf("| ~ | %s | defaults | none | %s |", cell(textsafe.MarkdownCode(d.Address)),
			cell(clip(strings.Join(parts, ", ")+" (for computes created from now on)", maxCell)))
		if costs {
			row += " |"
		}
		s.add(row + "\n")
	}
	for _, st := range stateOnly(p) {
		if s.full() {
			s.more++
			continue
		}
		row := fmt.Sprintf("| | %s | state only | none | %s |", cell(textsafe.MarkdownCode(st.Address)), cell(textsafe.Markdown(st.Note)))
		if costs {
			row += " |"
		}
		s.add(row + "\n")
	}
	return s
}

func disruptionCell(c *diff.Change) string {
	var out string
	switch {
	case c.Disruption == diff.None:
		out = "none"
	case c.Disruption == diff.Restart || c.Disruption == diff.Suspend:
		if c.Active {
			out = fmt.Sprintf("**%s** (active)", c.Disruption)
		} else {
			out = fmt.Sprintf("%s (idle)", c.Disruption)
		}
	case c.Action == diff.Delete && c.Active:
		out = "**delete** (active)"
	default:
		out = "**" + c.Disruption.String() + "**"
	}
	if c.Downtime {
		out += ", **downtime**"
	}
	return out
}

func whatChanges(c *diff.Change) string {
	var parts []string
	switch c.Action {
	case diff.Create:
		parts = append(parts, "new "+diff.KindWords(c.Type)+", "+shortSize(c.Size))
	case diff.Delete:
		parts = append(parts, textsafe.Markdown(c.EndpointID))
	}
	if c.Adopt {
		parts = append(parts, "adopts "+textsafe.Markdown(c.EndpointID))
	}
	if c.MovedFrom != "" {
		parts = append(parts, "moved from "+textsafe.MarkdownCode(c.MovedFrom))
	}
	if c.Action == diff.Create {
		for _, a := range createdAttributes(c) {
			_, after := a.Values()
			parts = append(parts, textsafe.Markdown(a.Name)+" "+textsafe.Markdown(after))
		}
		return strings.Join(parts, ", ")
	}
	for _, a := range c.Attributes {
		parts = append(parts, markdownAttribute(a))
	}
	return strings.Join(parts, ", ")
}

// markdownAttribute is "max_cu 1 -> 2" with the values (and the name, which
// a plan file gives) shown as text, never markup.
func markdownAttribute(a diff.Attribute) string {
	before, after := a.Values()
	return textsafe.Markdown(a.Name) + " " + textsafe.Markdown(before) + " -> " + textsafe.Markdown(after)
}

// maxCell is the most of a table cell a comment shows: a value longer than a
// screen (a long Postgres setting) is cut, so that one change cannot crowd
// the others out of the comment.
const maxCell = 600

// cell keeps text, whose values are escaped already, inside its table
// cell: a | in a code span must still be written \|.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

func driftSection(p *diff.Plan, l *looks, room int) *section {
	s := &section{
		head:   fmt.Sprintf("<details><summary>Changed outside neonform since the last apply (%d)</summary>\n\n", len(p.Drift)),
		tail:   "\n</details>\n\n",
		weight: 1,
		room:   room,
		omitted: func(n int) string {
			return fmt.Sprintf("- _and %d more not shown_\n", n)
		},
	}
	notes := goneNotes(p)
	for _, d := range p.Drift {
		if l.stopped() {
			return s
		}
		if s.full() {
			s.more++
			continue
		}
		what := "deleted outside neonform"
		if note := notes[d.Address]; d.Gone && note != "" {
			what += "; " + note
		}
		if !d.Gone {
			var parts []string
			for _, a := range d.Attributes {
				parts = append(parts, markdownAttribute(a))
			}
			what = strings.Join(parts, ", ")
		}
		id := d.EndpointID
		if id == "" {
			id = "project compute defaults"
		}
		s.add(fmt.Sprintf("- %s (%s): %s\n", textsafe.MarkdownCode(d.Address), textsafe.Markdown(id), clip(what, 1000)))
	}
	return s
}

func unmanagedSection(p *diff.Plan, l *looks, room int) *section {
	s := &section{
		head:   fmt.Sprintf("<details><summary>Left alone: %s %s</summary>\n\n", english.Plural(len(p.Unmanaged), "endpoint", "endpoints"), unmanagedWords(p)),
		tail:   "\n</details>\n\n",
		weight: 1,
		room:   room,
		omitted: func(n int) string {
			return fmt.Sprintf("- _and %d more not shown_\n", n)
		},
	}
	for _, u := range p.Unmanaged {
		if l.stopped() {
			return s
		}
		if s.full() {
			s.more++
			continue
		}
		s.add("- " + textsafe.Markdown(describeUnmanaged(u)) + "\n")
	}
	return s
}

func callsSection(p *diff.Plan, l *looks, room int) *section {
	calls := p.APICalls()
	s := &section{
		head:   fmt.Sprintf("<details><summary>%s, in order</summary>\n\n", english.Plural(calls, "API call", "API calls")),
		tail:   "\n</details>\n",
		weight: 3,
		room:   room,
		omitted: func(n int) string {
			return fmt.Sprintf("\n_%s not shown; `neonform show -format json PLANFILE` has them all._\n", english.Plural(n, "more call", "more calls"))
		},
	}
	n := 0
	for _, st := range p.Steps {
		if l.stopped() {
			return s
		}
		if st.Kind == diff.StepState {
			continue
		}
		n++
		if s.full() {
			s.more++
			continue
		}
		s.add(fmt.Sprintf("%d. %s (%s)\n", n, textsafe.MarkdownCode(st.Method+" "+st.Path), textsafe.Markdown(st.Address)))
	}
	return s
}

// clip cuts s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = "…"
	cut := max(n-len(mark), 0)
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + mark
}

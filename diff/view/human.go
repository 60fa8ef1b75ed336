package view

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/suggest"
	"github.com/neonform/neonform/internal/textsafe"
)

// HumanOptions shape the terminal view.
type HumanOptions struct {
	// Color: ANSI colours (only on a terminal, and never with NO_COLOR).
	Color bool
	// Verbose: also list unchanged computes, every reason and every unmanaged endpoint.
	Verbose bool
	// SavedTo is the plan file's path when the plan was saved; "" when not.
	SavedTo string
	// ApplyWith is the command that applies the saved plan, as the caller
	// would have it typed (with the configuration's directory, when it is
	// not the current one): the view cannot know it.
	ApplyWith string
	// Stats, when set, is appended to the first line: "3 API reads, 0.4s".
	Stats string
	// Context is the run's, which every command the view suggests carries
	// (a warning's, how to see the rest of a partial plan): its -chdir, and
	// the configuration's directory and variables.
	Context suggest.Context
}

// unmanagedShown is how many unmanaged endpoints the terminal lists without -verbose.
const unmanagedShown = 10

// Human writes the plan for a person at a terminal: what changed
// outside neonform, then what neonform will do, the dangerous things first,
// every interruption in words, and a closing summary.
func Human(w io.Writer, p *diff.Plan, o HumanOptions) error {
	return HumanContext(context.Background(), w, p, o)
}

// HumanContext is Human that stops soon after ctx is done (looks.go) or a
// write fails, with that error.
func HumanContext(ctx context.Context, w io.Writer, p *diff.Plan, o HumanOptions) error {
	bw := bufio.NewWriter(w)
	h := &human{w: bw, o: o, looks: newLooks(ctx)}
	h.render(p)
	if h.err != nil {
		return h.err
	}
	return bw.Flush()
}

type human struct {
	w *bufio.Writer
	o HumanOptions
	*looks
}

// printf writes a line of the view. Every string it is given is a value
// (an address, an id, a reason quoting a name) and is shown escaped
// (internal/textsafe); the view's own words are the format, and its colours
// come from paint, already escaped.
func (h *human) printf(format string, args ...any) {
	if h.err != nil {
		return
	}
	for i, a := range args {
		// Boxed again only when escaping changed it: a plan of 250,000
		// lines would otherwise allocate a copy of every safe string.
		if s, ok := a.(string); ok {
			if t := textsafe.Terminal(s); t != s {
				args[i] = t
			}
		}
	}
	if _, err := fmt.Fprintf(h.w, format, args...); err != nil {
		h.failed(err)
	}
}

// painted is text paint has escaped and coloured: printf writes it as it is.
type painted string

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiDim    = "\x1b[2m"
)

func (h *human) paint(code, s string) painted {
	s = textsafe.Terminal(s)
	if !h.o.Color || s == "" {
		return painted(s)
	}
	return painted(code + s + ansiReset)
}

func (h *human) symbol(a diff.Action) painted {
	s := fmt.Sprintf("%4s", a.Symbol())
	switch a {
	case diff.Create:
		return h.paint(ansiGreen, s)
	case diff.Update:
		return h.paint(ansiYellow, s)
	case diff.Replace, diff.Delete:
		return h.paint(ansiRed, s)
	}
	return painted(s)
}

func (h *human) render(p *diff.Plan) {
	if !p.HasChanges() {
		if h.o.Verbose {
			h.header(p)
			h.unchanged(p)
		}
		h.drift(p)      // only gone computes, which apply forgets
		h.stateSteps(p) // only adoptions as they are
		h.unmanaged(p)
		h.warnings(p)
		h.printf("%s\n", noChangesLine(p, h.o.Stats, h.o.Context)+noReviewEnd(p))
		if p.HasSteps() {
			h.saved()
		}
		return
	}
	h.header(p)
	h.drift(p)
	h.changes(p)
	h.defaults(p)
	h.stateSteps(p)
	if h.o.Verbose {
		h.unchanged(p)
	}
	h.unmanaged(p)
	h.warnings(p)
	line := "Plan: " + summaryLine(p.Summary)
	h.printf("%s.\n", h.paint(ansiBold, line))
	for _, l := range costLines(p, textsafe.Terminal) {
		h.printf("%s: %s\n", l.topic, l.text)
	}
	if len(p.Targets) > 0 && !p.Destroy {
		h.printf("%s\n", h.paint(ansiYellow+ansiBold, partialEnd(h.o.Context)))
	}
	h.saved()
}

// saved says where the plan was saved, if it was, and how to apply it.
func (h *human) saved() {
	if h.o.SavedTo != "" {
		h.printf("Saved the plan to %s.", h.o.SavedTo)
		if h.o.ApplyWith != "" {
			h.printf(" Apply exactly this plan with: %s", h.o.ApplyWith)
		}
		h.printf("\n")
	}
}

func (h *human) header(p *diff.Plan) {
	line := headerLine(p)
	if h.o.Stats != "" {
		line += " (" + h.o.Stats + ")"
	}
	h.printf("%s\n\n", line)
	if len(p.Targets) > 0 {
		h.printf("%s %s\n\n", h.paint(ansiYellow+ansiBold, "Warning:"), partialTop(p))
	}
}

func (h *human) drift(p *diff.Plan) {
	if len(p.Drift) == 0 {
		return
	}
	h.printf("Changed outside neonform since the last apply:\n")
	notes := goneNotes(p)
	gone := h.paint(ansiRed, "   -") // once, not once a line
	for _, d := range p.Drift {
		if h.stopped() {
			return
		}
		if d.Gone {
			h.printf("%s %s  %s  %s\n", gone, d.Address, d.EndpointID, "deleted outside neonform")
			if note := notes[d.Address]; note != "" {
				h.printf("      %s\n", note)
			}
			continue
		}
		if d.EndpointID == "" { // a project's compute defaults
			h.printf("%s %s  %s\n", h.paint(ansiYellow, "   ~"), d.Address, "project compute defaults")
		} else {
			h.printf("%s %s  %s\n", h.paint(ansiYellow, "   ~"), d.Address, d.EndpointID)
		}
		h.attributes(d.Attributes, false)
	}
	h.printf("\n")
}

func (h *human) changes(p *diff.Plan) {
	list := dangerFirst(p.Changes)
	if len(list) == 0 {
		return
	}
	addrW, idW := 0, 0
	for _, c := range list {
		if h.stopped() {
			return
		}
		addrW = max(addrW, len(c.Address))
		idW = max(idW, len(endpointColumn(c)))
	}
	addrW, idW = min(addrW, 40), min(idW, 32)
	h.printf("neonform will:\n\n")
	groups := fleets(p.Changes, h.looks) // fleets.go
	inFleet := map[*diff.Change]*fleet{}
	for _, f := range groups {
		for _, c := range f.changes {
			inFleet[c] = f
		}
	}
	shown := map[*fleet]bool{}
	for _, c := range list {
		if h.stopped() {
			return
		}
		f := inFleet[c]
		if f == nil {
			h.change(p, c, reasonLines(c), addrW, idW)
			continue
		}
		if shown[f] {
			continue
		}
		shown[f] = true
		// The fleet where its most dangerous instance would be: its summary,
		// then each run of instances that change alike, the change said once.
		h.printf("   %s\n\n", h.paint(ansiBold, f.address+": "+f.summary(p)))
		var members []*diff.Change
		for _, m := range list {
			if inFleet[m] == f {
				members = append(members, m)
			}
		}
		for _, run := range sameChanges(members) {
			if len(run) == 1 || h.o.Verbose {
				for _, m := range run {
					if h.stopped() {
						return
					}
					h.change(p, m, reasonLines(m), addrW, idW)
				}
				continue
			}
			for _, m := range run[:len(run)-1] {
				if h.stopped() {
					return
				}
				h.headline(m, addrW, idW)
			}
			h.change(p, run[len(run)-1], commonReasons(run), addrW, idW)
		}
	}
}

// headline is the first line of a change: symbol, address, endpoint, and
// what it does to the compute's clients.
func (h *human) headline(c *diff.Change, addrW, idW int) {
	words := painted(headline(c))
	if loud(c) {
		words = h.paint(ansiRed+ansiBold, headline(c))
	} else if c.Disruption != diff.None {
		words = h.paint(ansiYellow, headline(c))
	}
	h.printf("%s %-*s  %-*s  %s\n", h.symbol(c.Action), addrW, c.Address, idW, endpointColumn(c), words)
}

// change prints one change, or the last of a run of changes alike (whose
// headlines come before it): its headline, then what changes, with reasons.
func (h *human) change(p *diff.Plan, c *diff.Change, reasons []reasonLine, addrW, idW int) {
	h.headline(c, addrW, idW)
	if c.Action != diff.Create {
		h.attributes(c.Attributes, true)
	}
	if c.Size != "" {
		label := "size"
		if c.Action == diff.Update {
			label = "new size"
		}
		h.printf("      %s: %s\n", label, c.Size)
	}
	if c.Action == diff.Create {
		h.settings(createdAttributes(c))
	}
	if cost := changeCost(p, c); cost != "" {
		h.printf("      cost a month: %s\n", cost)
	}
	if c.Action == diff.Replace && !c.Downtime {
		h.printf("      order: the new compute is created first, then the old one deleted\n")
	}
	for _, r := range reasons {
		if h.o.Verbose || !r.repeats {
			h.reason(r.text)
		}
	}
	h.printf("\n")
}

// reason prints one reason. A reason that suggests a block ends with it, on
// lines of their own: each is printed on its own line, indented under the
// sentence, so that the block can be copied and pasted into a file as it is.
func (h *human) reason(r string) {
	lines := strings.Split(r, "\n")
	h.printf("      %s\n", h.paint(ansiDim, lines[0]))
	for _, l := range lines[1:] {
		h.printf("        %s\n", h.paint(ansiDim, l))
	}
}

// configured counts the computes the configuration declares: every change
// but the deletes (of computes no longer declared, or not declared on an
// exclusive branch).
func configured(p *diff.Plan) int {
	n := 0
	for _, c := range p.Changes {
		if c.Action != diff.Delete {
			n++
		}
	}
	return n
}

// endpointColumn is the endpoint id, or what a create makes.
func endpointColumn(c *diff.Change) string {
	if c.Action == diff.Create {
		return "(new " + diff.KindWords(c.Type) + ")"
	}
	return c.EndpointID
}

func (h *human) attributes(attrs []diff.Attribute, effects bool) {
	nameW, valW := 16, 0
	rows := make([]string, len(attrs))
	for i, a := range attrs {
		nameW = max(nameW, len(a.Name))
		before, after := a.Values()
		rows[i] = before + " -> " + after
		valW = max(valW, len(rows[i]))
	}
	for i, a := range attrs {
		effect := ""
		if effects {
			effect = effectWords(a)
		}
		if effect == "" {
			h.printf("      %-*s  %s\n", nameW, a.Name, rows[i])
			continue
		}
		h.printf("      %-*s  %-*s  %s\n", nameW, a.Name, valW, rows[i], h.paint(ansiYellow, effect))
	}
}

// settings prints the values a create sets: "name  reports".
func (h *human) settings(attrs []diff.Attribute) {
	nameW := 16
	for _, a := range attrs {
		nameW = max(nameW, len(a.Name))
	}
	for _, a := range attrs {
		_, after := a.Values()
		h.printf("      %-*s  %s\n", nameW, a.Name, after)
	}
}

// defaults prints the changes to projects' compute defaults: they apply to
// the computes the service creates from then on, so they restart nothing.
func (h *human) defaults(p *diff.Plan) {
	if p.Summary.Defaults == 0 {
		return
	}
	h.printf("Project compute defaults, for the computes created from now on (no compute restarts):\n")
	for _, d := range p.Defaults {
		if h.stopped() {
			return
		}
		if len(d.Attributes) == 0 {
			continue
		}
		h.printf("%s %s  %s\n", h.paint(ansiYellow, "   ~"), d.Address, d.ProjectID)
		h.attributes(d.Attributes, false)
	}
	h.printf("\n")
}

func (h *human) stateSteps(p *diff.Plan) {
	steps := stateOnly(p)
	if len(steps) == 0 {
		return
	}
	if !p.HasChanges() {
		h.printf("neonform will record in the state (no API call, nothing to review):\n")
	} else {
		h.printf("neonform will also record in the state (no API call):\n")
	}
	for _, s := range steps {
		if h.stopped() {
			return
		}
		h.printf("      %s  %s\n", h.paint(ansiCyan, s.Address), s.Note)
	}
	h.printf("\n")
}

func (h *human) unchanged(p *diff.Plan) {
	var addrs []string
	for _, c := range p.Changes {
		if h.stopped() {
			return
		}
		if c.Action == diff.NoOp {
			addrs = append(addrs, fmt.Sprintf("%s (%s)", c.Address, c.EndpointID))
		}
	}
	if len(addrs) == 0 {
		return
	}
	h.printf("Unchanged:\n")
	for _, a := range addrs {
		if h.stopped() {
			return
		}
		h.printf("      %s\n", a)
	}
	h.printf("\n")
}

func (h *human) unmanaged(p *diff.Plan) {
	if len(p.Unmanaged) == 0 {
		return
	}
	shown := p.Unmanaged
	if !h.o.Verbose && len(shown) > unmanagedShown {
		shown = shown[:unmanagedShown]
	}
	parts := make([]string, len(shown))
	for i, u := range shown {
		if h.stopped() {
			return
		}
		parts[i] = describeUnmanaged(u)
	}
	line := leftAloneWords(p) + ": " + strings.Join(parts, "; ")
	if more := len(p.Unmanaged) - len(shown); more > 0 {
		line += fmt.Sprintf("; and %d more (-verbose lists them)", more)
	}
	h.printf("%s\n\n", line)
}

func (h *human) warnings(p *diff.Plan) {
	for _, w := range p.Warnings {
		h.printf("%s %s\n\n", h.paint(ansiYellow+ansiBold, "Warning:"), h.o.Context.Complete(w, p.Suggestions))
	}
}

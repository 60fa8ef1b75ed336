package apply

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/neonform/neonform/sizing"
)

// modelConfig is the configuration a model walk (model_test.go) changes at
// random, always valid: a branch has at most one read_write compute, labels
// are never reused within a project, and the names of a branch's computes
// (the written name, else the label) differ. It is written out as HCL, so
// that a failure shows the configuration a user would have written.
type modelConfig struct {
	projects []*modelProject
	moves    [][2]string // the moved blocks of this step: from, to
	// edits says in words what this step changed, for the failure report.
	edits []string
}

type modelProject struct {
	label, id string
	branches  []*modelBranch
	next      int // the number of the last label given
}

type modelBranch struct {
	label     string // also its name in the service
	exclusive bool
	computes  []*modelCompute
}

type modelCompute struct {
	label string
	rw    bool
	// name is the name the block writes; "" writes none (the label names
	// what it creates).
	name string
	size modelSize
	// suspend is the suspend_timeout written ("" for none) and seconds what
	// it means to the service.
	suspend  modelSuspend
	settings map[string]string
	disabled bool
}

type modelSize struct {
	hcl          string // "" writes no size: the default, 1 CU fixed
	minCU, maxCU float64
}

type modelSuspend struct {
	hcl     string // "" writes none: the service's default
	seconds int64
}

var (
	modelSizes = []modelSize{
		{"", 1, 1}, {"size = 0.25", 0.25, 0.25}, {"size = 0.5", 0.5, 0.5}, {"size = 2", 2, 2}, {"size = 8", 8, 8},
		{"size = 24", 24, 24}, {"min_cu = 0.25\n      max_cu = 1", 0.25, 1}, {"min_cu = 0.25\n      max_cu = 4", 0.25, 4},
		{"min_cu = 0.5\n      max_cu = 2", 0.5, 2}, {"min_cu = 1\n      max_cu = 8", 1, 8}, {"min_cu = 8\n      max_cu = 16", 8, 16},
	}
	modelSuspends = []modelSuspend{{"", 0}, {`"5m"`, 300}, {`"300s"`, 300}, {`"60s"`, 60}, {`"90s"`, 90}, {`"1h"`, 3600},
		{`"168h"`, 604800}, {`"never"`, -1}}
	// modelSettings are the values of each setting, as HCL writes them:
	// numbers and bools become strings (docs/configuration.md, the compute block).
	modelSettings = map[string][]string{
		"work_mem":                   {`"4MB"`, `"64MB"`},
		"statement_timeout":          {`"0"`, `"30s"`, `0`},
		"log_min_duration_statement": {`"250"`, `1000`},
		"random_page_cost":           {`1.1`, `4`},
		"jit":                        {`true`, `false`},
	}
	// modelNames are written names beside "n-LABEL": any text up to 64
	// characters is a name.
	modelNames       = []string{"Reports EU #1", "naïve-名前", `with "quotes" and \\`, "x"}
	modelBranchNames = []string{"main", "dev", "qa"}
)

// modelGenerator makes and changes configurations.
type modelGenerator struct {
	rng *rand.Rand
	// foreignPrimary reports whether a read_write endpoint that neonform
	// does not manage stands on a branch: a read_write compute moved or
	// turned there is refused by design (docs/plans.md, the order of the calls),
	// so the generator does not ask for it. A new one adopts it.
	foreignPrimary func(p *modelProject, branch string) bool
	// foreignReplicas lists the names of the read replicas on a branch that
	// neonform does not manage.
	foreignReplicas func(p *modelProject, branch string) []string
}

func (g *modelGenerator) newConfig(ids []string) *modelConfig {
	m := &modelConfig{}
	for i, id := range ids {
		p := &modelProject{label: fmt.Sprintf("p%d", i), id: id}
		for _, name := range modelBranchNames {
			p.branches = append(p.branches, &modelBranch{label: name, exclusive: g.rng.IntN(6) == 0})
		}
		main := p.branches[0]
		main.computes = append(main.computes, g.newCompute(p, true, "primary"))
		for _, b := range p.branches {
			if b != main && g.rng.IntN(2) == 0 {
				b.computes = append(b.computes, g.newCompute(p, true, ""))
			}
			for range g.rng.IntN(3) {
				b.computes = append(b.computes, g.newCompute(p, false, ""))
			}
		}
		m.projects = append(m.projects, p)
	}
	m.edits = []string{"the first configuration"}
	return m
}

// fitSuspend keeps a compute above 16 CU valid: it never scales to zero, so it
// takes the default or "never", not a timeout (sizing.CheckSuspend).
func (c *modelCompute) fitSuspend() {
	if c.size.maxCU > sizing.MaxScaleToZeroCU && c.suspend.seconds > 0 {
		c.suspend = modelSuspends[len(modelSuspends)-1]
	}
}

func (g *modelGenerator) newCompute(p *modelProject, rw bool, label string) *modelCompute {
	if label == "" {
		p.next++
		label = fmt.Sprintf("c%d", p.next)
	}
	c := &modelCompute{label: label, rw: rw, size: modelSizes[g.rng.IntN(len(modelSizes))],
		suspend: modelSuspends[g.rng.IntN(len(modelSuspends))], settings: map[string]string{}}
	c.fitSuspend()
	if g.rng.IntN(3) == 0 {
		c.name = "n-" + label
	}
	if g.rng.IntN(3) == 0 {
		g.changeSettings(c)
	}
	if !rw && g.rng.IntN(8) == 0 {
		c.disabled = true
	}
	return c
}

func (g *modelGenerator) changeSettings(c *modelCompute) {
	keys := slices.Sorted(maps.Keys(modelSettings))
	k := keys[g.rng.IntN(len(keys))]
	switch {
	case g.rng.IntN(5) == 0:
		c.settings = map[string]string{}
	case c.settings[k] != "" && g.rng.IntN(2) == 0:
		delete(c.settings, k)
	default:
		vs := modelSettings[k]
		c.settings[k] = vs[g.rng.IntN(len(vs))]
	}
}

// change makes one to three random edits, of the kinds a team makes.
func (g *modelGenerator) change(m *modelConfig) {
	m.moves, m.edits = nil, nil
	for range 1 + g.rng.IntN(3) {
		p := m.projects[g.rng.IntN(len(m.projects))]
		b := p.branches[g.rng.IntN(len(p.branches))]
		var c *modelCompute
		if len(b.computes) > 0 {
			c = b.computes[g.rng.IntN(len(b.computes))]
		}
		if e := g.edit(m, p, b, c); e != "" {
			m.edits = append(m.edits, e)
		}
	}
}

// edit makes one edit and says what it did ("" for nothing).
func (g *modelGenerator) edit(m *modelConfig, p *modelProject, b *modelBranch, c *modelCompute) string {
	addr := func(b *modelBranch, c *modelCompute) string { return address(p, b, c) }
	switch g.rng.IntN(14) {
	case 0, 1:
		n := g.newCompute(p, false, "")
		b.computes = append(b.computes, n)
		return "add replica " + addr(b, n)
	case 2:
		if b.primary() != nil {
			return ""
		}
		n := g.newCompute(p, true, "")
		b.computes = append(b.computes, n)
		return "add primary " + addr(b, n)
	case 3:
		if c == nil || m.moved(p, c) {
			return ""
		}
		b.computes = slices.DeleteFunc(b.computes, func(x *modelCompute) bool { return x == c })
		return "remove " + addr(b, c)
	case 4:
		if c == nil {
			return ""
		}
		c.size = modelSizes[g.rng.IntN(len(modelSizes))]
		c.fitSuspend()
		return fmt.Sprintf("resize %s to %g-%g CU", addr(b, c), c.size.minCU, c.size.maxCU)
	case 5:
		if c == nil {
			return ""
		}
		c.suspend = modelSuspends[g.rng.IntN(len(modelSuspends))]
		c.fitSuspend()
		return "suspend_timeout of " + addr(b, c)
	case 6:
		if c == nil {
			return ""
		}
		g.changeSettings(c)
		return "pg_settings of " + addr(b, c)
	case 7:
		if c == nil {
			return ""
		}
		name := ""
		switch {
		case c.name == "":
			name = "n-" + c.label
		case g.rng.IntN(3) == 0:
			name = modelNames[g.rng.IntN(len(modelNames))]
		case g.rng.IntN(2) == 0:
			p.next++
			name = fmt.Sprintf("w%d-%s", p.next, c.label)
		}
		if b.nameTaken(name, c) || (name == "" && b.nameTaken(c.label, c)) {
			return ""
		}
		c.name = name
		return fmt.Sprintf("name of %s: %q", addr(b, c), c.name)
	case 8:
		if c == nil {
			return ""
		}
		c.disabled = !c.disabled
		return fmt.Sprintf("disabled of %s: %v", addr(b, c), c.disabled)
	case 9:
		return g.flipType(p, b, c, addr)
	case 10: // rename, with a moved block
		if c == nil || m.moved(p, c) {
			return ""
		}
		from := addr(b, c)
		p.next++
		c.label = fmt.Sprintf("c%d", p.next)
		m.moves = append(m.moves, [2]string{from, addr(b, c)})
		return "rename " + from + " to " + addr(b, c)
	case 11: // move to another branch, with a moved block
		to := p.branches[g.rng.IntN(len(p.branches))]
		if c == nil || to == b || m.moved(p, c) || (c.rw && (to.primary() != nil || g.foreignPrimary(p, to.label))) || to.nameTaken(c.wantName(c.label), nil) {
			return ""
		}
		from := addr(b, c)
		b.computes = slices.DeleteFunc(b.computes, func(x *modelCompute) bool { return x == c })
		to.computes = append(to.computes, c)
		m.moves = append(m.moves, [2]string{from, addr(to, c)})
		return "move " + from + " to " + addr(to, c)
	case 12:
		b.exclusive = !b.exclusive
		return fmt.Sprintf("exclusive of %s.%s: %v", p.label, b.label, b.exclusive)
	case 13: // declare a replica made outside neonform, by its name
		names := g.foreignReplicas(p, b.label)
		if len(names) == 0 {
			return ""
		}
		name := names[g.rng.IntN(len(names))]
		if b.nameTaken(name, nil) {
			return ""
		}
		n := g.newCompute(p, false, "")
		n.name = name
		b.computes = append(b.computes, n)
		return fmt.Sprintf("declare the replica %q as %s", n.name, addr(b, n))
	}
	return ""
}

// flipType turns a replica into the branch's primary, or the primary into a
// replica, and then, half the time, another compute takes over as primary:
// an existing replica or a new compute.
func (g *modelGenerator) flipType(p *modelProject, b *modelBranch, c *modelCompute, addr func(*modelBranch, *modelCompute) string) string {
	if c == nil || (!c.rw && (b.primary() != nil || g.foreignPrimary(p, b.label))) {
		return ""
	}
	c.rw = !c.rw
	what := fmt.Sprintf("type of %s: read_write %v", addr(b, c), c.rw)
	if c.rw || g.rng.IntN(2) == 0 {
		return what
	}
	var replicas []*modelCompute
	for _, r := range b.computes {
		if r != c {
			replicas = append(replicas, r)
		}
	}
	if len(replicas) > 0 && g.rng.IntN(2) == 0 {
		r := replicas[g.rng.IntN(len(replicas))]
		r.rw = true
		return what + "; " + addr(b, r) + " takes over as read_write"
	}
	n := g.newCompute(p, true, "")
	b.computes = append(b.computes, n)
	return what + "; new " + addr(b, n) + " takes over as read_write"
}

// address is the compute's address in the configuration.
func address(p *modelProject, b *modelBranch, c *modelCompute) string {
	return fmt.Sprintf("%s.%s.%s", p.label, b.label, c.label)
}

func (p *modelProject) branch(label string) *modelBranch {
	for _, b := range p.branches {
		if b.label == label {
			return b
		}
	}
	return nil
}

// nameTaken reports whether a compute of the branch other than except
// names its endpoint name (config refuses two of one name on a branch).
func (b *modelBranch) nameTaken(name string, except *modelCompute) bool {
	for _, c := range b.computes {
		if c != except && c.wantName(c.label) == name {
			return true
		}
	}
	return false
}

func (b *modelBranch) primary() *modelCompute {
	for _, c := range b.computes {
		if c.rw {
			return c
		}
	}
	return nil
}

// moved reports whether a moved block of this step already takes c somewhere.
func (m *modelConfig) moved(p *modelProject, c *modelCompute) bool {
	for _, mv := range m.moves {
		if strings.HasPrefix(mv[1], p.label+".") && strings.HasSuffix(mv[1], "."+c.label) {
			return true
		}
	}
	return false
}

func (m *modelConfig) hcl() string {
	var b strings.Builder
	for _, p := range m.projects {
		fmt.Fprintf(&b, "project %q {\n  id = %q\n", p.label, p.id)
		for _, br := range p.branches {
			fmt.Fprintf(&b, "  branch %q {\n", br.label)
			if br.exclusive {
				b.WriteString("    exclusive = true\n")
			}
			for _, c := range br.computes {
				typ := "read_only"
				if c.rw {
					typ = "read_write"
				}
				fmt.Fprintf(&b, "    compute %q {\n      type = %q\n", c.label, typ)
				if c.name != "" {
					fmt.Fprintf(&b, "      name = %q\n", c.name)
				}
				if c.size.hcl != "" {
					fmt.Fprintf(&b, "      %s\n", c.size.hcl)
				}
				if c.suspend.hcl != "" {
					fmt.Fprintf(&b, "      suspend_timeout = %s\n", c.suspend.hcl)
				}
				if len(c.settings) > 0 {
					b.WriteString("      pg_settings = {")
					for i, k := range slices.Sorted(maps.Keys(c.settings)) {
						if i > 0 {
							b.WriteString(",")
						}
						fmt.Fprintf(&b, " %s = %s", k, c.settings[k])
					}
					b.WriteString(" }\n")
				}
				if c.disabled {
					b.WriteString("      disabled = true\n")
				}
				b.WriteString("    }\n")
			}
			b.WriteString("  }\n")
		}
		b.WriteString("}\n")
	}
	for _, mv := range m.moves {
		fmt.Fprintf(&b, "moved {\n  from = %q\n  to   = %q\n}\n", mv[0], mv[1])
	}
	return b.String()
}

// wantName is the name the compute's endpoint must have, given the name it
// has: the written name, else the label, except that an endpoint without a
// name keeps none while the block writes none (docs/configuration.md, the compute block).
func (c *modelCompute) wantName(live string) string {
	if c.name != "" {
		return c.name
	}
	if live == "" {
		return ""
	}
	return c.label
}

package config

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

var (
	// labelPattern is what project, branch and compute labels look like; they make up
	// addresses, which split on dots.
	labelPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)
	// projectIDPattern is the service's pattern for project ids (OpenAPI path parameter).
	projectIDPattern = regexp.MustCompile(`^[a-z0-9-]{1,60}$`)
	// branchIDPattern is a branch id: the br- prefix and the same id alphabet, 60 at most.
	branchIDPattern = regexp.MustCompile(`^br-[a-z0-9-]{1,57}$`)
)

// decodeProjects reads project blocks, in file order, each instance of a
// block with for_each in key order, and checks that no two blocks share a label
// and no two projects a service project id, with those of earlier calls
// (the projects are decoded a file at a time, see loadByFile).
func (l *loader) decodeProjects(blocks []*hclsyntax.Block) {
	if l.projectLabels == nil {
		l.projectLabels, l.projectIDs = map[string]hcl.Range{}, map[string]*Project{}
	}
	declared, ids := l.projectLabels, l.projectIDs
	for _, b := range blocks {
		prev, dup := declared[b.Labels[0]]
		if dup {
			l.errorf(b.LabelRanges[0], "Duplicate project label",
				"A project labelled %q is already declared at %s. Each project is declared once, with all its branches in that block: merge the two, or rename one if they are different projects.", b.Labels[0], where(prev))
		} else {
			declared[b.Labels[0]] = b.DefRange()
		}
		var spans []span
		for _, inst := range l.instances(b) {
			var p *Project
			spans = append(spans, l.within(inst, inst.label, func() { p = l.decodeProject(b, inst.label) }))
			if dup || inst.probe {
				continue
			}
			l.checkActiveComputes(p)
			if p.ID != "" {
				if prev := ids[p.ID]; prev != nil {
					l.errorf(l.idSource(p, p.Label, p.DeclRange), "Duplicate project id",
						"Projects %s (%s) and %s both have id %s. Declare each service project once, with all its branches in one project block.", prev.Label, where(l.idSource(prev, prev.Label, prev.DeclRange)), p.Label, l.shown(p.ID, l.idRange[p]))
					l.keepLast()
				} else {
					ids[p.ID] = p
				}
			}
			l.cfg.Projects = append(l.cfg.Projects, p)
		}
		l.nameInstances(spans)
	}
}

// idSource is where the id of a project, or the name or id of a branch, is
// written: for an instance of a block with for_each, the attribute (the
// instances share the block's range); else the block, decl.
func (l *loader) idSource(of any, label string, decl hcl.Range) hcl.Range {
	if _, _, keyed := SplitInstance(label); keyed {
		if r, ok := l.idRange[of]; ok {
			return r
		}
	}
	return decl
}

func (l *loader) decodeProject(b *hclsyntax.Block, label string) *Project {
	p := &Project{Label: label, DeclRange: b.DefRange()}
	l.checkLabel(b, "project")
	c, diags := bodyContent(b.Body, projectSchema, "a project block")
	l.diags = append(l.diags, diags...)

	if a := c.Attributes["id"]; a == nil {
		l.errorf(p.DeclRange, "Missing project id",
			"Add id = \"...\" with the service's project id, such as \"dark-sun-46453911\"; the console shows it in the project's settings, and GET /projects lists them.")
	} else if id, state := l.stringAttr(a, `a project id such as "dark-sun-46453911"`); state == valid {
		l.idRange[p] = a.Expr.Range()
		if projectIDPattern.MatchString(id) {
			p.ID = id
		} else {
			l.errorf(a.Expr.Range(), "Invalid project id",
				"%q is not a project id: ids are lowercase letters, digits and dashes, at most 60, such as \"dark-sun-46453911\". Copy it from the console's project settings.", id)
		}
	}

	declared := map[string]hcl.Range{}
	byName := map[string]*Branch{}
	var rules, budgets []*hclsyntax.Block
	for _, blk := range c.Blocks {
		switch blk.Type {
		case "branches":
			rules = append(rules, blk)
			continue
		case "budget":
			budgets = append(budgets, blk)
			continue
		}
		if blk.Type == "defaults" {
			l.decodeDefaults(p, blk)
			continue
		}
		prev, dup := declared[blk.Labels[0]]
		if dup {
			l.errorf(blk.LabelRanges[0], "Duplicate branch label",
				"Project %s already has a branch labelled %q at %s; branch labels must be unique within a project, so rename one.", p.Label, blk.Labels[0], where(prev))
		} else {
			declared[blk.Labels[0]] = blk.DefRange()
		}
		var spans []span
		for _, inst := range l.instances(blk) {
			var br *Branch
			spans = append(spans, l.within(inst, p.Label+"."+inst.label, func() { br = l.decodeBranch(p, blk, inst) }))
			if dup || inst.probe {
				continue
			}
			// Two blocks for one service branch would dodge the one-read_write rule and
			// fight over the same endpoints.
			if key, ok := l.branchKey(br); ok {
				if prev := byName[key]; prev != nil {
					fix := "put its computes in one branch block"
					if prev.DeclRange == br.DeclRange {
						fix = "each instance of a block with for_each needs a branch of its own, so make its name (or id) depend on each.key"
					}
					l.errorf(l.idSource(br, br.Label, br.DeclRange), "Branch declared twice",
						"Branches %s.%s (%s) and %s.%s are the same service branch (%s); %s.", p.Label, prev.Label, where(l.idSource(prev, prev.Label, prev.DeclRange)), p.Label, br.Label, key, fix)
					l.keepLast()
				} else {
					byName[key] = br
				}
			}
			p.Branches = append(p.Branches, br)
		}
		l.nameInstances(spans)
	}
	l.decodeRules(p, rules, declared)
	if p.Budget = l.decodeBudget(budgets, "Project "+p.Label); p.Budget != nil {
		l.checkBudgetPrice(p.Budget)
	}
	return p
}

// branchKey says which service branch a block means: "id \"br-...\"" or
// "name \"main\""; false when its name or id was invalid (already reported).
func (l *loader) branchKey(br *Branch) (string, bool) {
	if l.badBranch[br] {
		return "", false
	}
	if br.ID != "" {
		return "id " + l.shown(br.ID, l.idRange[br]), true
	}
	return "name " + l.shown(br.Name, l.idRange[br]), true
}

func (l *loader) decodeBranch(p *Project, b *hclsyntax.Block, inst instance) *Branch {
	br := &Branch{Label: inst.label, Name: b.Labels[0], DeclRange: b.DefRange(), NameRange: b.LabelRanges[0]}
	l.checkLabel(b, "branch")
	c, diags := bodyContent(b.Body, branchSchema, "a branch block")
	l.diags = append(l.diags, diags...)

	nameAttr, idAttr := c.Attributes["name"], c.Attributes["id"]
	if nameAttr != nil && idAttr != nil {
		l.errorf(idAttr.SrcRange, "Conflicting branch name and id",
			"A branch is found in the service by its name or by its id, not both: keep id to pin this exact branch, or name to follow whichever branch has that name.")
		l.keepLast()
	}
	if inst.keyed() && nameAttr == nil && idAttr == nil {
		// The label would name every instance's branch alike.
		l.errorf(b.Body.Attributes["for_each"].SrcRange, "Missing branch name",
			"Each instance of a branch block with for_each is a branch of its own: say which, with name = each.key (or id = each.value, for a map of branch ids).")
		l.badBranch[br] = true
	}
	for _, a := range []*hclsyntax.Attribute{nameAttr, idAttr} {
		if a != nil {
			l.idRange[br] = a.Expr.Range()
		}
	}
	name, nameState := l.stringAttr(nameAttr, `the branch's name in the service, such as "main"`)
	if nameState == valid {
		if name == "" {
			nameState = invalid
			l.errorf(nameAttr.Expr.Range(), "Invalid branch name",
				"name cannot be empty: write the branch's name in the service, or omit name to use the label %q.", b.Labels[0])
		} else {
			br.Name, br.NameRange = name, nameAttr.Expr.Range()
		}
	}
	id, idState := l.stringAttr(idAttr, `a branch id such as "br-small-term-683261"`)
	if idState == valid {
		if branchIDPattern.MatchString(id) {
			br.ID = id
		} else {
			idState = invalid
			l.errorf(idAttr.Expr.Range(), "Invalid branch id",
				"%q is not a branch id: branch ids start with br- and are lowercase letters, digits and dashes, such as \"br-small-term-683261\". To find a branch by its name, write name = \"...\" instead.", id)
		}
	}
	if nameState == invalid || idState == invalid {
		l.badBranch[br] = true
	}
	if v, state := l.boolAttr(c.Attributes["exclusive"]); state == valid {
		br.Exclusive = v
	}

	l.decodeComputes(p, br, c.Blocks)
	return br
}

// decodeComputes reads the compute blocks of a branch block (or of a branch
// rule, rules.go) into br, and checks them together.
func (l *loader) decodeComputes(p *Project, br *Branch, blocks []*hclsyntax.Block) {
	declared := map[string]hcl.Range{}
	for _, blk := range blocks {
		prev, dup := declared[blk.Labels[0]]
		if dup {
			l.errorf(blk.LabelRanges[0], "Duplicate compute label",
				"Branch %s.%s already has a compute labelled %q at %s; compute labels must be unique within a branch, so rename one.",
				p.Label, br.Label, blk.Labels[0], where(prev))
		} else {
			declared[blk.Labels[0]] = blk.DefRange()
		}
		var spans []span
		for _, inst := range l.instances(blk) {
			var cp *Compute
			spans = append(spans, l.within(inst, AddressOf(p.Label, br.Label, inst.label), func() { cp = l.decodeCompute(p, br, blk, inst) }))
			if !dup && !inst.probe {
				br.Computes = append(br.Computes, cp)
			}
		}
		l.nameInstances(spans)
	}
	l.checkBranchComputes(p, br)
}

// checkBranchComputes applies the service's rules across the computes of a branch:
// at most one read_write, and distinct endpoint names.
func (l *loader) checkBranchComputes(p *Project, br *Branch) {
	var primary *Compute
	names := map[string]*Compute{}
	for _, cp := range br.Computes {
		bad := l.bad[cp]
		if !bad["type"] && cp.Type == ReadWrite {
			if primary != nil {
				l.errorf(cp.Range("type"), "More than one read_write compute",
					"Branch %s.%s already has the read_write compute %s (%s), and a branch has at most one. Make this one a read replica with type = \"read_only\", or move it to another branch.",
					p.Label, br.Label, primary.Address, where(primary.DeclRange))
			} else {
				primary = cp
			}
		}
		if !bad["name"] {
			if prev := names[cp.Name]; prev != nil {
				fix := "Give one of them another name (the name defaults to the label)."
				if prev.DeclRange == cp.DeclRange {
					fix = "Each instance of a block with for_each needs a name of its own: make name depend on each.key, as in name = \"reports-${each.key}\"."
				}
				l.errorf(cp.Range("name"), "Duplicate compute name",
					"Computes %s (%s) and %s would both be named %s in the service, on one branch. %s",
					prev.Address, where(prev.Range("name")), cp.Address, l.shown(cp.Name, cp.Range("name")), fix)
				l.keepLast()
			} else {
				names[cp.Name] = cp
			}
		}
	}
}

// checkLabel reports a project, branch or compute label that cannot be part of an
// address, with a corrected label when one is easy to guess.
func (l *loader) checkLabel(b *hclsyntax.Block, kind string) {
	label := b.Labels[0]
	if labelPattern.MatchString(label) {
		return
	}
	detail := fmt.Sprintf("%q cannot label a %s: labels are lowercase letters, digits, _ and -, starting with a letter, because they make up addresses such as shop.main.primary.", label, kind)
	if fixed := fixLabel(label); fixed != "" {
		detail += fmt.Sprintf(" Try %q.", fixed)
	}
	if kind == "branch" {
		detail += " A branch whose name in the service is different can keep it: branch \"feature-x\" { name = \"feature/x\" }."
	}
	l.errorf(b.LabelRanges[0], "Invalid label", "%s", detail)
}

// fixLabel lowercases a label and replaces what labels cannot hold with dashes;
// "" when that does not give a valid label.
func fixLabel(label string) string {
	fixed := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '-'
	}, label)
	if labelPattern.MatchString(fixed) {
		return fixed
	}
	return ""
}

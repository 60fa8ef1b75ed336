package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// An address names a compute by the labels of its blocks:
// "<project>.<branch>.<compute>", such as shop.main.primary. A part of an
// address is an instance: a block label, followed by ["key"] for one instance
// of a block with for_each or of a branch rule (tenant["acme"],
// previews["preview/pr-12"]). Keys are any string, written quoted as Go and
// HCL both read them, so a key may hold dots, slashes or brackets without
// changing where the address splits.

// InstanceLabel is the address part of one instance: label["key"].
func InstanceLabel(label, key string) string {
	return label + "[" + strconv.Quote(key) + "]"
}

// AllInstances is the address part that stands for every instance of a
// block: label[*], as in shop.previews[*].primary. It names no single
// compute, so ParseAddress refuses it.
func AllInstances(label string) string {
	return label + "[*]"
}

// SplitInstance splits an address part into its block label and key; keyed
// is false for a part without a key (a block without for_each).
func SplitInstance(part string) (label, key string, keyed bool) {
	label, rest, ok := strings.Cut(part, "[")
	if !ok {
		return part, "", false
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil || rest[len(q):] != "]" {
		return part, "", false
	}
	key, err = strconv.Unquote(q)
	if err != nil {
		return part, "", false
	}
	return label, key, true
}

// AddressOf joins the parts of a compute address.
func AddressOf(project, branch, compute string) string {
	return project + "." + branch + "." + compute
}

// ParseAddress splits a compute address, "<project>.<branch>.<compute>", and checks
// that each part is a valid label, with or without a key.
func ParseAddress(s string) (project, branch, compute string, err error) {
	parts, err := splitAddress(s)
	if err == nil && len(parts) != 3 {
		err = fmt.Errorf("%q is not a compute address: an address is <project>.<branch>.<compute>, such as \"shop.main.primary\" or \"shop.main.reports[\\\"eu\\\"]\"", s)
	}
	if err != nil {
		return "", "", "", err
	}
	return parts[0], parts[1], parts[2], nil
}

// ParsePartialAddress splits an address of a project, a branch or a compute
// ("shop", "shop.main", "shop.main.primary"), for flags that name any of
// them; it returns one to three parts.
func ParsePartialAddress(s string) ([]string, error) {
	parts, err := splitAddress(s)
	if err == nil && len(parts) > 3 {
		err = fmt.Errorf("%q is not an address: an address is a project label, <project>.<branch> or <project>.<branch>.<compute>, such as \"shop\", \"shop.main\" or \"shop.main.primary\"", s)
	}
	return parts, err
}

// splitAddress splits an address into its parts, each a label with an
// optional ["key"], checking each; a dot inside a key does not split.
func splitAddress(s string) ([]string, error) {
	kinds := []string{"project", "branch", "compute"}
	// Room for an address's three parts at once: a plan splits a few
	// addresses a state entry, 250,000 entries at the state's limit.
	parts := make([]string, 0, len(kinds))
	rest := s
	for {
		kind := "part"
		if len(parts) < len(kinds) {
			kind = kinds[len(parts)]
		}
		end := strings.IndexAny(rest, ".[")
		if end < 0 {
			end = len(rest)
		}
		label := rest[:end]
		if !labelPattern.MatchString(label) {
			return nil, fmt.Errorf("%q is not an address: %q is not a %s label (lowercase letters, digits, _ and -, starting with a letter)", s, label, kind)
		}
		rest = rest[end:]
		part := label
		if strings.HasPrefix(rest, "[") {
			q, err := strconv.QuotedPrefix(rest[1:])
			if err != nil || q[0] != '"' || !strings.HasPrefix(rest[1+len(q):], "]") {
				return nil, fmt.Errorf("%q is not an address: after %s, a key is written [\"key\"], in double quotes", s, label)
			}
			part = label + rest[:1+len(q)+1]
			rest = rest[1+len(q)+1:]
		}
		parts = append(parts, part)
		if rest == "" {
			return parts, nil
		}
		if rest[0] != '.' {
			return nil, fmt.Errorf("%q is not an address: parts are separated by dots, and %q follows %s", s, rest, part)
		}
		rest = rest[1:]
	}
}

// addressOfTraversal writes an address given as an HCL traversal, as a moved
// block may (from = shop.main.reports["eu"]), the way ParseAddress reads it;
// it does not check the labels, which ParseAddress does.
func addressOfTraversal(t hcl.Traversal) (string, error) {
	var b strings.Builder
	keyed := false
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
			keyed = false
		case hcl.TraverseIndex:
			if keyed {
				return "", fmt.Errorf("an address part has one key at most, as in reports[\"eu\"]")
			}
			if !s.Key.IsKnown() || s.Key.IsNull() || s.Key.Type() != cty.String {
				return "", fmt.Errorf("a key in an address is a quoted string, as in reports[\"eu\"]")
			}
			b.WriteString("[" + strconv.Quote(s.Key.AsString()) + "]")
			keyed = true
		default:
			return "", fmt.Errorf("an address is labels and keys only, as in shop.main.reports[\"eu\"]")
		}
	}
	return b.String(), nil
}

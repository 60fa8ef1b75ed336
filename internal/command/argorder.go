package command

import "strings"

// commandShape is what interspersed needs to know of a command: its names,
// which of its flags take a value, and its subcommands. main.go reads it off
// the CLI's commands, so that this file does not depend on the CLI library.
type commandShape struct {
	names  []string
	valued map[string]bool // flag name -> takes a value
	subs   []commandShape
}

// interspersed moves a command's flags in front of its positional arguments, so
// flags work anywhere on the line, as with kubectl and gh: "neonform plan infra
// -out plan.json" is "neonform plan -out plan.json infra". urfave/cli v2 alone
// stops reading flags at the first positional argument, and would take "-out"
// for a directory.
//
// A "--" ends the flags: what follows is an argument even if it starts with "-"
// ("neonform fmt -- -draft.hcl"). The arguments are always passed after a "--"
// of their own, so one that starts with "-" is never read as a flag.
//
// The root's own flags come first, before the command's name (neonform
// -chdir=infra plan), and are left where they are.
func interspersed(root commandShape, args []string) []string {
	if len(args) < 2 {
		return args
	}
	i := 1
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' && args[i] != "--" {
		name := strings.TrimLeft(args[i], "-")
		i++
		if !strings.Contains(name, "=") && root.valued[name] {
			i++ // its value (-chdir infra)
		}
	}
	cmds := root.subs
	var cmd *commandShape
	for i < len(args) {
		c := findShape(cmds, args[i])
		if c == nil {
			break
		}
		cmd, cmds = c, c.subs
		i++
	}
	if cmd == nil {
		return args
	}
	var flags, positional []string
	rest := args[i:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			positional = append(positional, rest[j+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if cmd.valued[name] && j+1 < len(rest) {
			j++
			flags = append(flags, rest[j])
		}
	}
	out := append([]string{}, args[:i]...)
	out = append(out, flags...)
	if len(positional) == 0 {
		return out
	}
	out = append(out, "--")
	return append(out, positional...)
}

func findShape(cmds []commandShape, name string) *commandShape {
	for i := range cmds {
		for _, n := range cmds[i].names {
			if n == name {
				return &cmds[i]
			}
		}
	}
	return nil
}

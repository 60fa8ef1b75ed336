package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves a command's flags in front of its positional arguments, so
// flags work anywhere on the line, as with kubectl and gh: "neonform plan infra
// -out plan.json" is "neonform plan -out plan.json infra". urfave/cli v2 alone
// stops reading flags at the first positional argument, and would take "-out"
// for a directory.
//
// A "--" ends the flags: what follows is an argument even if it starts with "-"
// ("neonform fmt -- -draft.hcl"). The arguments are always passed after a "--"
// of their own, so one that starts with "-" is never read as a flag.
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	cmds := app.Commands
	i := 1
	var cmd *cli.Command
	for i < len(args) {
		c := findCommand(cmds, args[i])
		if c == nil {
			break
		}
		cmd, cmds = c, c.Subcommands
		i++
	}
	if cmd == nil {
		return args
	}
	valued := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			valued[n] = !isBool
		}
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
		if valued[name] && j+1 < len(rest) {
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

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// flagUsageError is a command's OnUsageError: instead of urfave/cli's answer to a
// bad flag (the whole help text on standard output), one line on standard error
// that names the flag, lists the command's flags, and says how to pass a file
// whose name starts with "-".
func flagUsageError(c *cli.Context, err error, _ bool) error {
	name := c.Command.FullName()
	var flags []string
	for _, f := range c.Command.Flags {
		if n := f.Names()[0]; n != "help" {
			flags = append(flags, "-"+n)
		}
	}
	list := ""
	if len(flags) > 0 {
		list = fmt.Sprintf(" Its flags are %s.", strings.Join(flags, ", "))
	}
	if flag, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
		return fmt.Errorf("neonform %s has no flag %s.%s An argument that starts with - goes after --, as in: neonform %s -- %s",
			name, flag, list, name, flag)
	}
	return errors.New(err.Error() + "." + list + fmt.Sprintf(" Run 'neonform %s --help' for more.", name))
}

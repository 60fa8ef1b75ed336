package command

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/shellquote"
)

// otherCommandsFlag is the advice for a flag given where it does not belong
// but that another command takes: before the command's name (neonform -out
// plan.json plan), or to the wrong command (apply -out). "" when no command
// takes it.
func otherCommandsFlag(c *cli.Context, flag string) string {
	var owners []string
	var takesValue bool
	for _, cmd := range c.App.Commands {
		if cmd.Hidden {
			continue
		}
		for _, f := range cmd.Flags {
			if slices.Contains(f.Names(), flag) {
				owners = append(owners, cmd.Name)
				if df, ok := f.(cli.DocGenerationFlag); ok && df.TakesValue() {
					takesValue = true
				}
				break
			}
		}
	}
	if len(owners) == 0 {
		return ""
	}
	given := "-" + flag
	if takesValue {
		value, ok := valueGiven(c, flag)
		if !ok {
			value = "VALUE"
		}
		given += " " + shellquote.Word(value)
	}
	if !isCommand(c) {
		// Before the command's name: the command that follows, if it takes it.
		if cmd := commandGiven(c); slices.Contains(owners, cmd) {
			return fmt.Sprintf("%s is a flag of %s: it goes after the command's name: neonform %s %s", given, cmd, cmd, given)
		}
		return fmt.Sprintf("%s is a flag of %s: it goes after the command's name: neonform %s %s", given, english.Or(owners), owners[0], given)
	}
	if c.Command.Name == "apply" && flag == "out" {
		// Terraform's two-step habit: plan saves, apply applies.
		file := strings.TrimPrefix(given, "-out ")
		return fmt.Sprintf("-out belongs to plan, which saves a plan: neonform plan -out %s, then neonform apply %s applies exactly that plan.", file, file)
	}
	return fmt.Sprintf("%s is a flag of %s, not of %s.", given, english.Or(owners), c.Command.Name)
}

// commandGiven is the first of the run's words that names a command: the
// command a flag put before it was meant for.
func commandGiven(c *cli.Context) string {
	args, _ := c.App.Metadata[argsKey].([]string)
	for _, a := range args {
		if c.App.Command(a) != nil {
			return a
		}
	}
	return ""
}

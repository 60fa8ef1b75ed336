package command

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// takeArgs reads apply's arguments into o: none (the current directory), a
// directory, or a plan file and then, optionally, a directory. A mistake
// that looks like something else (two directories, a configuration file
// for a plan, a planning flag with a plan file) is refused saying what to
// run instead.
func (o *applyOptions) takeArgs(args []string) error {
	switch len(args) {
	case 0:
		return nil
	case 1, 2:
	default:
		return fmt.Errorf("too many arguments: apply takes a directory, or a plan file and then a directory (got %s)", strings.Join(args, " "))
	}
	info, err := os.Stat(args[0])
	switch {
	case err != nil:
		return fmt.Errorf("%s is neither a configuration directory nor a plan file: %w", args[0], errors.Unwrap(err))
	case info.IsDir() && len(args) == 2:
		hint := ""
		if fi, err := os.Stat(args[1]); err == nil && !fi.IsDir() {
			in := o.planInputs
			in.Dir = args[0]
			hint = fmt.Sprintf("; to apply the saved plan %s, pass it first: `%s`", args[1], configArgsOf(in).applySaved(args[1]))
		}
		return fmt.Errorf("apply takes one directory (got %s and %s)%s", args[0], args[1], hint)
	case info.IsDir():
		o.Dir = args[0]
		return nil
	case strings.HasSuffix(args[0], ".hcl"):
		// Not a plan: read as one, it would be refused with advice to make a
		// plan at this path, which would overwrite the configuration.
		in := o.planInputs
		in.Dir = filepath.Dir(args[0])
		var flags []string
		if o.AutoApprove {
			flags = append(flags, "-auto-approve")
		}
		return fmt.Errorf("%s is a configuration file, not a plan: apply reads every *.hcl file of a directory as one configuration. To apply it: `%s`",
			args[0], configArgsOf(in).command("apply", flags...))
	}
	o.PlanFile = args[0]
	if o.RefreshBranches {
		return fmt.Errorf("-refresh-branches is for planning: %s was planned already, and apply carries it out as it is. Plan again with -refresh-branches and apply that plan", args[0])
	}
	if s := o.Scope; len(s.Targets) > 0 || len(s.Replace) > 0 || s.Destroy {
		return fmt.Errorf("-target, -replace and -destroy are for planning: %s was planned already (with whatever it was planned with, which it records), and apply carries it out as it is", args[0])
	}
	if len(args) == 2 {
		o.Dir = args[1]
	}
	return nil
}

package command

import (
	"fmt"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/internal/suggest"
)

func destroyCommand() *cli.Command {
	return &cli.Command{
		Name:      "destroy",
		Usage:     "delete every compute the state manages, and empty the state",
		UsageText: "neonform destroy [DIR] [-auto-approve] [-input=false] [-json] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-parallelism N] [-var NAME=VALUE]... [-var-file FILE]... [-target ADDR]...",
		Description: `Plans the deletion of every compute the state of the configuration in DIR
(default: the current directory) manages, shows it, asks for "yes", and
carries it out: "neonform apply -destroy", as Terraform's destroy. Endpoints
the state does not manage are left alone. A compute with
lifecycle.prevent_destroy = true stops the plan, and nothing is deleted. Each
entry leaves the state as its endpoint is deleted.

To review first: "neonform plan -destroy -out FILE", then "neonform apply FILE".

Examples:
   neonform destroy
   neonform destroy -auto-approve infra/

Exit status: 0 every compute deleted (or none to delete), 1 otherwise.`,
		Flags: destroyFlags(),
		Action: func(c *cli.Context) error {
			o, err := destroyOptionsFrom(c)
			if err != nil {
				return err
			}
			return runApply(c.Context, o)
		},
	}
}

// destroyOptionsFrom reads destroy's flags and its one directory into apply's
// options, with the plan's scope set to destroy.
func destroyOptionsFrom(c *cli.Context) (applyOptions, error) {
	if c.NArg() > 1 {
		return applyOptions{}, fmt.Errorf("too many arguments: destroy takes one directory (got %v)", c.Args().Slice())
	}
	if dir := c.Args().First(); dir != "" {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			apply := suggest.Plain("apply", dir) // a saved plan holds its values: no -var
			return applyOptions{}, suggest.Wrap(fmt.Errorf("%s is not a configuration directory: destroy takes one. To apply a saved destroy plan: %s", dir, apply.Quoted()), apply)
		}
	}
	o, err := applyOptionsFrom(c)
	if err != nil {
		return o, err
	}
	o.Scope.Destroy = true
	return o, nil
}

// destroyFlags are apply's flags but those that choose what to plan: a
// destroy plans the deletion of everything, or of its -target computes.
func destroyFlags() []cli.Flag {
	return slices.DeleteFunc(applyCommand().Flags, func(f cli.Flag) bool {
		return slices.ContainsFunc(f.Names(), func(n string) bool {
			return n == "replace" || n == "destroy" || n == "refresh-branches"
		})
	})
}

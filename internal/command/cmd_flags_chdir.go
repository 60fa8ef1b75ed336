package command

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

// -chdir=DIR before the command runs it in DIR, as Terraform's -chdir does:
// the directory, plan files, variable files and the state's path are all
// read from there. The working directory is the process's, so this is too.

// chdirFlag is the root's -chdir.
func chdirFlag() cli.Flag {
	return &cli.StringFlag{Name: "chdir", Usage: "run the command in `DIR`, as Terraform's -chdir (before the command: neonform -chdir=infra plan)"}
}

// enterChdir is the app's Before: it moves into -chdir's directory.
func enterChdir(c *cli.Context) error {
	dir := c.String("chdir")
	if dir == "" {
		return nil
	}
	if err := os.Chdir(dir); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-chdir=%s: %v. Give the directory to run in, relative to this one: neonform -chdir=DIR COMMAND", dir, err)
	}
	return nil
}

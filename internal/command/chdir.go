package command

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/internal/shellquote"
)

// -chdir=DIR before the command runs it in DIR, as Terraform's -chdir does:
// the directory, plan files, variable files and the state's path are all
// read from there. The working directory is the process's, so this is too.

// chdirFlag is the root's -chdir.
func chdirFlag() cli.Flag {
	return &cli.StringFlag{Name: "chdir", Usage: "run the command in `DIR`, as Terraform's -chdir (before the command: neonform -chdir=infra plan)"}
}

// ranIn is the -chdir this run was given, "" for none: every command it
// suggests carries it, so the suggestion works when pasted where it was run.
var ranIn string

// enterChdir is the app's Before: it moves into -chdir's directory.
func enterChdir(c *cli.Context) error {
	ranIn = c.String("chdir")
	if ranIn == "" {
		return nil
	}
	if err := os.Chdir(ranIn); err != nil {
		dir := ranIn
		ranIn = ""
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("-chdir=%s: %v. Give the directory to run in, relative to this one: neonform -chdir=DIR COMMAND", dir, err)
	}
	return nil
}

// chdirWord is "-chdir=DIR" (quoted for a shell where needed) when this run
// was given one, else "".
func chdirWord() string {
	if ranIn == "" {
		return ""
	}
	return shellquote.Word("-chdir=" + ranIn)
}

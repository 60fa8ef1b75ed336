package command

import (
	"github.com/urfave/cli/v2"
)

func fmtCommand() *cli.Command {
	return &cli.Command{
		Name:      "fmt",
		Usage:     "rewrite configuration files in the canonical layout",
		UsageText: "neonform fmt [-check] [-diff] [-recursive] [-write=false] [-list=false] [DIR or FILE...]",
		Description: `Rewrites the *.hcl and *.vars files of a directory (default: the current one)
in the canonical layout: two-space indents, aligned "=" signs and comments,
at most one blank line in a row. Comments are kept. It prints the name of each
file it changed. A file that does not parse is not touched: its errors are
printed and the exit code is 1 (no file is changed then).

-check changes nothing: it names the files that are not formatted and exits 3,
for a CI step. -diff prints what changes as a unified diff (git diff style).
-write=false changes no file (as -check does, but exits 0); -list=false does
not name the files that change (as in Terraform).
A FILE named on the command line is formatted whatever its name; "-" formats
standard input to standard output, for editors.

Flags may come before or after the paths. After --, every word is a path,
even one that starts with "-".

Exit codes: 0 done (or, with -check, nothing to change); 1 a file does not
parse or cannot be read or written; 3 with -check, some file is not formatted.

Examples:
   neonform fmt                           format the current directory
   neonform fmt -recursive examples       a directory and everything below it
   neonform fmt -check -diff              in CI: show what is unformatted, exit 3 if anything is
   neonform fmt -write=false              name the files that would change, change none
   neonform fmt prod.vars                 one file
   neonform fmt - < main.hcl              standard input to standard output
   neonform fmt -- -draft.hcl             a file whose name starts with "-"`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "change nothing; list the files that are not formatted and exit 3 if there are any"},
			&cli.BoolFlag{Name: "diff", Usage: "print the changes as a unified diff"},
			&cli.BoolFlag{Name: "recursive", Usage: "also format the directories below each DIR (hidden ones are skipped)"},
			&cli.BoolFlag{Name: "write", Value: true, Usage: "rewrite the files; -write=false changes none"},
			&cli.BoolFlag{Name: "list", Value: true, Usage: "name each file that changes; -list=false names none"},
		},
		Action: func(c *cli.Context) error {
			return runFmt(fmtOptions{
				Paths:     c.Args().Slice(),
				Check:     c.Bool("check"),
				Diff:      c.Bool("diff"),
				Recursive: c.Bool("recursive"),
				NoWrite:   !c.Bool("write"),
				NoList:    !c.Bool("list"),
				Stdin:     c.App.Reader,
				Env:       environmentOf(c),
				Stdout:    c.App.Writer,
				Stderr:    c.App.ErrWriter,
			})
		},
	}
}

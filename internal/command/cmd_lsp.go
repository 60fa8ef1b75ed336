package command

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/internal/lsp"
)

func lspCommand() *cli.Command {
	return &cli.Command{
		Name:      "lsp",
		Usage:     "run the language server for editors (Language Server Protocol on standard input and output)",
		UsageText: "neonform lsp",
		Description: `Runs a Language Server Protocol server on standard input and output, for
your editor to start: you do not run it yourself. It reads each open file's
directory as validate does, with the editor's unsaved text, and gives:

   diagnostics as you type   validate's messages, at their places
   hover                     on a size, min_cu, max_cu or suspend_timeout: what
                             the compute gets (RAM, connections, LFC, temp
                             disk, scale to zero) and costs a month on the
                             account's plan; on an argument: what it does and
                             whether changing it restarts, suspends or
                             recreates a running compute; on var.x, local.y:
                             the declaration and value (never a sensitive one)
   completion                blocks and arguments, type and account_tier
                             values, sizes the plan allows, addresses in
                             moved and removed blocks, var. and local. names
   definition, references    of variables, locals, projects and computes
   code actions              the moved block a rename needs, the nearest
                             allowed size, lifecycle { prevent_destroy = true }
   formatting                as neonform fmt
   document symbols          projects, branches and computes

It never calls the service and never reads NEON_API_KEY. Variables get
their values as in validate without flags: NEONFORM_VAR_<name> from the
editor's environment, then the default.

Set it up in your editor as a server for *.hcl files in your configuration's
directory (docs/editors.md has Neovim, VS Code, Helix and Emacs), for example
in Neovim:
   vim.lsp.start({ name = "neonform", cmd = { "neonform", "lsp" },
                   root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(0)) })

Exit code 0 after the editor's shutdown and exit, 1 if the stream ends
without them.`,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("lsp takes no arguments (got %s): the editor starts it as neonform lsp and talks to it on standard input and output", c.Args().First())
			}
			stdio := &stdio{in: c.App.Reader, out: c.App.Writer}
			return lsp.Serve(c.Context, stdio, lsp.Options{Environ: environmentOf(c).list, Log: c.App.ErrWriter})
		},
	}
}

// stdio is standard input and output as the one stream the protocol
// reads and writes.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s *stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s *stdio) Write(p []byte) (int, error) { return s.out.Write(p) }

// Close ends nothing: the process's standard streams close when it exits.
func (s *stdio) Close() error { return nil }

package command

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// Shell completion: `neonform completion bash|zsh|fish` prints a script for
// the shell, and the script asks neonform itself what may come next, with
// the hidden command `neonform __complete WORD...` (the words typed so far,
// the last one being completed). So the completions are always those of the
// neonform on the PATH, and the three shells share one list: commands,
// subcommands and flags (with their one-line usage where the shell shows
// it); where none applies, the shell completes file names.

// completionShells are the shells completion writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		UsageText: "neonform completion bash|zsh|fish",
		Description: `Prints a script that makes the shell complete neonform's commands,
subcommands and flags (TAB after "neonform ", "neonform state " or "-"), and
file names elsewhere. The script asks the neonform on your PATH what comes
next, so it stays right as neonform changes.

Install:
   bash:  neonform completion bash > ~/.local/share/bash-completion/completions/neonform
          (or add  source <(neonform completion bash)  to ~/.bashrc)
   zsh:   neonform completion zsh > "${fpath[1]}/_neonform"
          (or add  source <(neonform completion zsh)  to ~/.zshrc, after compinit)
   fish:  neonform completion fish > ~/.config/fish/completions/neonform.fish

Then open a new shell.`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || !slices.Contains(completionShells, c.Args().First()) {
				return fmt.Errorf("completion takes the shell to write a script for: bash, zsh or fish (got %q)", strings.Join(c.Args().Slice(), " "))
			}
			_, err := io.WriteString(c.App.Writer, completionScripts[c.Args().First()])
			return err
		},
	}
}

// completeCommand is what the scripts run: it prints the candidates for the
// last word, one a line, each followed by a tab and its usage when it has
// one. Hidden: it is for the scripts, not for people.
func completeCommand() *cli.Command {
	return &cli.Command{
		Name:            "__complete",
		Hidden:          true,
		SkipFlagParsing: true, // the words are the line being typed, not flags for this command
		Action: func(c *cli.Context) error {
			for _, cand := range completions(c.App, c.Args().Slice()) {
				fmt.Fprintln(c.App.Writer, cand)
			}
			return nil
		},
	}
}

// completions are the candidates for the last of words, the words typed
// after "neonform": the commands, a command's subcommands, its flags when
// the word starts with "-", the shells after "completion". None where a
// value or an argument goes (a directory, a plan file): the shell then
// completes file names.
func completions(app *cli.App, words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	var cmd *cli.Command
	cmds, flags := app.Commands, app.Flags
	valueNext := false
	for _, w := range words[:len(words)-1] {
		switch {
		case valueNext:
			valueNext = false
		case w == "--":
			return nil // arguments only from here on
		case strings.HasPrefix(w, "-"):
			f := findFlag(flags, strings.TrimLeft(w, "-"))
			_, isBool := f.(*cli.BoolFlag)
			valueNext = f != nil && !isBool && !strings.Contains(w, "=")
		case cmd == nil || len(cmd.Subcommands) > 0:
			next := findCommand(cmds, w)
			if next == nil {
				return nil // not a command neonform has
			}
			cmd, cmds, flags = next, next.Subcommands, next.Flags
		}
	}
	if valueNext {
		return nil
	}
	var out []string
	add := func(name, usage string) {
		if !strings.HasPrefix(name, cur) {
			return
		}
		if usage != "" {
			name += "\t" + usage
		}
		out = append(out, name)
	}
	switch {
	case strings.HasPrefix(cur, "-"):
		for _, f := range flags {
			if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
				continue
			}
			usage := ""
			if df, ok := f.(cli.DocGenerationFlag); ok {
				usage = strings.ReplaceAll(df.GetUsage(), "`", "") // urfave/cli's placeholder marks
			}
			add("-"+f.Names()[0], usage)
		}
	case cmd == nil || len(cmd.Subcommands) > 0:
		for _, c := range cmds {
			if !c.Hidden {
				add(c.Name, c.Usage)
			}
		}
	case cmd.Name == "completion":
		for _, sh := range completionShells {
			add(sh, "")
		}
	}
	return out
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if !c.Hidden && slices.Contains(c.Names(), name) {
			return c
		}
	}
	return nil
}

func findFlag(flags []cli.Flag, name string) cli.Flag {
	name, _, _ = strings.Cut(name, "=")
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// completionScripts ask `neonform __complete` for the candidates, and fall
// back to file names when there are none.
var completionScripts = map[string]string{
	"bash": `# bash completion for neonform: neonform completion bash
_neonform() {
    local cur="${COMP_WORDS[COMP_CWORD]}" out
    out=$(neonform __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null | cut -f1)
    COMPREPLY=()
    if [[ -n "$out" ]]; then
        local IFS=$'\n'
        COMPREPLY=($(compgen -W "$out" -- "$cur"))
    fi
}
complete -o default -F _neonform neonform
`,
	"zsh": `#compdef neonform
# zsh completion for neonform: neonform completion zsh
_neonform() {
    local -a candidates
    candidates=("${(@f)$(neonform __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    candidates=("${(@)candidates//$'\t'/:}")
    if [[ -n "${candidates[1]}" ]]; then
        _describe 'neonform' candidates
    else
        _files
    fi
}
if [[ "$funcstack[1]" == "_neonform" ]]; then
    _neonform "$@"
else
    compdef _neonform neonform
fi
`,
	"fish": `# fish completion for neonform: neonform completion fish
function __neonform_complete
    set -l words (commandline -opc)
    # quoted, so that an empty word being completed is still passed
    set -l cur (commandline -ct)
    set -l out (neonform __complete $words[2..-1] "$cur" 2>/dev/null)
    if test (count $out) -gt 0
        printf '%s\n' $out
    else
        __fish_complete_path "$cur"
    end
end
complete -c neonform -f -a '(__neonform_complete)'
`,
}

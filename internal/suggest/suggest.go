// Package suggest is a neonform command that a message advises, as a value:
// its own arguments, and whether it reads a configuration. The packages that
// find a problem (config, diff, state, apply) say which command fixes it and
// know nothing of the run; the views render it with the run's context (its
// -chdir, and for a command that reads a configuration its directory, -var-file
// and -var), so that what people paste reads the same configuration.
//
// A message names each command it suggests in its bare form, in backticks
// (Command.Quoted: `neonform state rm shop.main.x`), and lists it beside the
// text (a diag.Diagnostic's Suggestions, an error's Suggestions method, a
// plan's Suggestions for its warnings). A view replaces exactly the commands
// listed (Context.Complete), never what merely looks like one.
package suggest

import (
	"slices"
	"strings"

	"github.com/neonform/neonform/internal/shellquote"
)

// Command is one suggested command.
type Command struct {
	// Args follow "neonform": {"state", "rm", "shop.main.x"}.
	Args []string `json:"command"`
	// Config: the command reads a configuration, so the run's directory,
	// -var-file and -var follow Args when a view renders it.
	Config bool `json:"config,omitempty"`
}

// Run is a command that reads the configuration: plan, apply, state, import,
// force-unlock.
func Run(args ...string) Command { return Command{Args: args, Config: true} }

// Plain is a command that reads no configuration: show, version.
func Plain(args ...string) Command { return Command{Args: args} }

// Equal reports whether c and o are the same command.
func (c Command) Equal(o Command) bool { return c.Config == o.Config && slices.Equal(c.Args, o.Args) }

// String is the command as a message writes it: bare, every word quoted for
// a POSIX shell where it needs it.
func (c Command) String() string { return Context{}.Text(c) }

// Quoted is String in backticks, as messages write a command.
func (c Command) Quoted() string { return "`" + c.String() + "`" }

// Context is what a run adds to the commands it suggests.
type Context struct {
	// Chdir is the run's -chdir, "" for none: every command carries it.
	Chdir string
	// Config are the words that follow a command that reads a configuration:
	// the directory, then -var-file FILE and -var NAME=VALUE (the value of
	// a sensitive variable already hidden by whoever built the Context).
	Config []string
}

// Argv is the command's words in this context, "neonform" first.
func (x Context) Argv(c Command) []string {
	argv := []string{"neonform"}
	if x.Chdir != "" {
		argv = append(argv, "-chdir="+x.Chdir)
	}
	argv = append(argv, c.Args...)
	if c.Config {
		argv = append(argv, x.Config...)
	}
	return argv
}

// Text is Argv as a line to paste into a POSIX shell.
func (x Context) Text(c Command) string {
	argv := x.Argv(c)
	for i, w := range argv[1:] {
		argv[i+1] = shellquote.Word(w)
	}
	return strings.Join(argv, " ")
}

// Empty reports whether the context adds nothing to any command.
func (x Context) Empty() bool { return x.Chdir == "" && len(x.Config) == 0 }

// Complete is text with each of cmds, where it is written bare in backticks,
// written in this context instead.
func (x Context) Complete(text string, cmds []Command) string {
	if x.Empty() {
		return text
	}
	for _, c := range cmds {
		text = strings.ReplaceAll(text, c.Quoted(), "`"+x.Text(c)+"`")
	}
	return text
}

// JSON is a suggestion as the JSON views write it: the command's words in
// the run's context, and the line to paste.
type JSON struct {
	Command []string `json:"command"`
	Text    string   `json:"text"`
}

// JSON is each of cmds in this context, nil for none.
func (x Context) JSON(cmds []Command) []JSON {
	var out []JSON
	for _, c := range cmds {
		out = append(out, JSON{Command: x.Argv(c), Text: x.Text(c)})
	}
	return out
}

// Suggester is an error that suggests commands.
type Suggester interface {
	Suggestions() []Command
}

// Of is every command err or an error it wraps suggests, each once.
func Of(err error) []Command {
	var out []Command
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if s, ok := err.(Suggester); ok {
			for _, c := range s.Suggestions() {
				if !slices.ContainsFunc(out, c.Equal) {
					out = append(out, c)
				}
			}
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

// Error is err with the commands its message suggests.
type Error struct {
	Err      error
	Commands []Command
}

// Wrap is err, whose message suggests cmds.
func Wrap(err error, cmds ...Command) error { return &Error{Err: err, Commands: cmds} }

func (e *Error) Error() string          { return e.Err.Error() }
func (e *Error) Unwrap() error          { return e.Err }
func (e *Error) Suggestions() []Command { return e.Commands }

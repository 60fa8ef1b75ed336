package command

import (
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/nearest"
	"github.com/neonform/neonform/internal/suggest"
)

// Every command neonform suggests must work when pasted: it must point at the
// configuration this run used (its directory, its variable files and -var
// values), or it would read another directory, or plan with other values.
//
// The CLI builds its own suggestions with configArgs.command. The packages
// below it (config, diff, apply, state) do not know the directory or the
// variables; they suggest a command as a value (internal/suggest), written
// bare in their message and listed beside it, and the CLI renders it in
// this run's context (configArgs.context).

// configArgs are the arguments that point a command at the configuration of
// this run.
type configArgs struct {
	dir      string // "" or "." for the current directory
	chdir    string // the run's -chdir, "" for none
	vars     []string
	varFiles []string
	secrets  *sensitiveVars
}

// configArgsOf is the configuration a planInputs reads.
func configArgsOf(in planInputs) configArgs {
	return configArgs{dir: in.Dir, chdir: in.Chdir, vars: in.Vars, varFiles: in.VarFiles, secrets: in.Secrets}
}

// sensitiveVars is which variables are declared sensitive, once the
// configuration was read. A -var value of a sensitive variable is never
// repeated in a suggestion, nor any -var value before the run knows which
// are: a secret passed on the command line must not reach a CI log through
// an error message.
type sensitiveVars struct {
	known bool
	names map[string]bool
}

func (s *sensitiveVars) learn(names map[string]bool) {
	if s != nil {
		s.known, s.names = true, names
	}
}

// shown is a -var argument as a suggestion may repeat it: "NAME=VALUE", or
// "NAME=(sensitive)" when its value must not be printed.
func (s *sensitiveVars) shown(arg string) string {
	name, _, _ := strings.Cut(arg, "=")
	switch {
	case s == nil || !s.known:
		return name + "=(not shown)"
	case s.names[strings.TrimSpace(name)]:
		return name + "=(sensitive)"
	}
	return arg
}

// configArgsKey is where a command leaves its configArgs in the app's
// metadata (remember, main.go), for run to complete the suggestions of the
// error it returns.
const configArgsKey = "configArgs"

// context is what this run adds to the commands it suggests: its -chdir,
// and after a command that reads a configuration, its directory and
// variables (a sensitive one's value hidden).
func (a configArgs) context() suggest.Context {
	var words []string
	if a.dir != "" && a.dir != "." {
		words = append(words, displayPath(a.dir))
	}
	for _, f := range a.varFiles {
		words = append(words, "-var-file", f)
	}
	if len(a.vars) > 0 && (a.secrets == nil || !a.secrets.known) {
		// The run stopped before it read the configuration (a mistake in
		// its arguments): read the variables' declarations now.
		if a.secrets == nil {
			a.secrets = &sensitiveVars{}
		}
		if cfg, _ := config.Load(a.dir, config.Options{SettingsOnly: true}); cfg != nil {
			a.secrets.learn(cfg.SensitiveVariables)
		}
	}
	for _, v := range a.vars {
		words = append(words, "-var", a.secrets.shown(v))
	}
	return suggest.Context{Chdir: a.chdir, Config: words}
}

// command is "neonform NAME ARGS..." for the configuration of this run, with
// every word quoted for a POSIX shell where it needs it.
func (a configArgs) command(name string, args ...string) string {
	return a.context().Text(suggest.Run(append([]string{name}, args...)...))
}

// completeDiagnostics writes each diagnostic's near-miss and the commands
// its detail suggests for this run.
func (a configArgs) completeDiagnostics(diags diag.Diagnostics) {
	var x *suggest.Context // made once, at the first suggestion
	for i := range diags {
		diags[i].Word() // first: the commands' words move its place
		if len(diags[i].Suggestions) == 0 {
			continue
		}
		if x == nil {
			c := a.context()
			x = &c
		}
		diags[i].Detail = x.Complete(diags[i].Detail, diags[i].Suggestions)
	}
}

// completeError is text (err's message, or a message that quotes it) with
// the commands err suggests written for this run.
func (a configArgs) completeError(text string, err error) string {
	cmds := suggest.Of(err)
	if len(cmds) == 0 {
		return text
	}
	return a.context().Complete(text, cmds)
}

// closest is the name nearest to given, for "did you mean" (nearest.Name).
func closest(given string, names []string) string { return nearest.Name(given, names) }

package command

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/nearest"
	"github.com/neonform/neonform/internal/shellquote"
)

// Every command neonform suggests must work when pasted: it must point at the
// configuration this run used (its directory, its variable files and -var
// values), or it would read another directory, or plan with other values.
//
// The CLI builds its own suggestions with configArgs.command. The packages
// below it (diff, apply, state) do not know the directory or the variables;
// they write their suggestions in backticks, with the command's own
// arguments only (`neonform state rm shop.main.x`), and complete adds the
// rest, in the one place their messages pass through on their way out.

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

// completeDiagnostics completes the suggestions in diagnostics' details.
func (a configArgs) completeDiagnostics(diags diag.Diagnostics) {
	for i := range diags {
		diags[i].Detail = a.complete(diags[i].Detail)
	}
}

// suffix is what follows a command's own arguments: " infra -var-file prod.vars".
func (a configArgs) suffix() string {
	var words []string
	if a.dir != "" && a.dir != "." {
		words = append(words, shellquote.Word(displayPath(a.dir)))
	}
	for _, f := range a.varFiles {
		words = append(words, "-var-file", shellquote.Word(f))
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
		words = append(words, "-var", shellquote.Word(a.secrets.shown(v)))
	}
	if len(words) == 0 {
		return ""
	}
	return " " + strings.Join(words, " ")
}

// command is "neonform NAME ARGS..." for the configuration of this run, with
// every word quoted for a POSIX shell where it needs it.
func (a configArgs) command(name string, args ...string) string {
	words := []string{"neonform"}
	if w := a.chdirWord(); w != "" {
		words = append(words, w)
	}
	words = append(words, name)
	for _, w := range args {
		words = append(words, shellquote.Word(w))
	}
	return strings.Join(words, " ") + a.suffix()
}

// suggested is a command in backticks: `neonform state rm shop.main.x`.
var suggested = regexp.MustCompile("`(neonform [^`\n]*)`")

// configArity is how many arguments of its own each command that reads a
// configuration takes before DIR; a suggestion with fewer is a sentence
// fragment ("`neonform state rm` it"), left as it is.
var configArity = map[string]int{
	"plan": 0, "apply": 0, "validate": 0, "destroy": 0,
	"import": 2, "force-unlock": 1,
	"state list": 0, "state show": 1, "state rm": 1, "state mv": 2, "state pull": 0, "state push": 1,
}

// complete adds this run's configuration to every suggestion in text that
// reads one and lacks it.
//
// With -chdir, every suggestion carries it too (neonform -chdir=infra state
// rm ...): its paths are the directory's.
func (a configArgs) complete(text string) string {
	suffix, chdir := a.suffix(), a.chdirWord()
	if suffix == "" && chdir == "" {
		return text
	}
	return suggested.ReplaceAllStringFunc(text, func(m string) string {
		cmd := m[1 : len(m)-1]
		if chdir != "" && strings.HasPrefix(cmd, "neonform "+chdir+" ") || chdir == "" && strings.HasSuffix(cmd, suffix) {
			return m // built complete, by the CLI
		}
		words := strings.Fields(strings.TrimPrefix(cmd, "neonform "))
		if len(words) == 0 {
			return m
		}
		if chdir != "" {
			cmd = "neonform " + chdir + strings.TrimPrefix(cmd, "neonform")
		}
		name, rest := words[0], words[1:]
		if name == "state" && len(rest) > 0 {
			name, rest = "state "+rest[0], rest[1:]
		}
		arity, ok := configArity[name]
		if !ok || positional(rest) < arity || strings.HasSuffix(cmd, suffix) {
			return "`" + cmd + "`"
		}
		return "`" + cmd + suffix + "`"
	})
}

// completing is w with the suggestions of every line completed, for a
// plan's output, whose warnings may advise a command. Lines are written as
// they end, so a large plan is not held twice.
func (a configArgs) completing(w io.Writer) *completingWriter {
	return &completingWriter{w: w, args: a, pass: a.suffix() == "" && a.chdirWord() == ""}
}

type completingWriter struct {
	w    io.Writer
	args configArgs
	pass bool // nothing to complete: write through
	line []byte
}

func (c *completingWriter) Write(p []byte) (int, error) {
	if c.pass {
		return c.w.Write(p)
	}
	c.line = append(c.line, p...)
	if i := bytes.LastIndexByte(c.line, '\n'); i >= 0 {
		if _, err := io.WriteString(c.w, c.args.complete(string(c.line[:i+1]))); err != nil {
			return 0, err
		}
		c.line = append(c.line[:0], c.line[i+1:]...)
	}
	return len(p), nil
}

// Flush writes what is left after the last newline.
func (c *completingWriter) Flush() error {
	if len(c.line) == 0 {
		return nil
	}
	_, err := io.WriteString(c.w, c.args.complete(string(c.line)))
	c.line = c.line[:0]
	return err
}

// positional counts the words that are not flags or their values (the flags
// of suggestions take a value: -out FILE).
func positional(words []string) int {
	n := 0
	for i := 0; i < len(words); i++ {
		if strings.HasPrefix(words[i], "-") {
			i++
			continue
		}
		n++
	}
	return n
}

// closest is the name nearest to given, for "did you mean" (nearest.Name).
func closest(given string, names []string) string { return nearest.Name(given, names) }

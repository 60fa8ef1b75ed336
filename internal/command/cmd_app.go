package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/internal/shellquote"
	"github.com/neonform/neonform/internal/textsafe"
)

// Run runs the neonform command line args (args[0] is the program's name)
// and returns the exit code: main without os.Exit.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(args, stdin, stdout, stderr)
}

// run is Run; the tests and testscript call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	// A write to a closed standard output returns an error instead of killing
	// the process: an apply piped into head must finish its step and release
	// the lock, not die between two API calls.
	signal.Ignore(syscall.SIGPIPE)

	app := newApp(stdin, stdout, stderr)
	app.Metadata[argsKey] = args
	err := app.RunContext(ctx, interspersed(appShape(app), args))
	if err == nil {
		if app.Metadata["failed"] == true {
			return 1
		}
		return 0
	}
	// The command's suggestions point at the configuration it was given.
	cfgArgs, _ := app.Metadata[configArgsKey].(configArgs)
	// An error may quote a name, an id, a file's text or the service's
	// message: shown escaped, on its lines (internal/textsafe).
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, textsafe.TerminalText(cfgArgs.completeError(ee.msg, err)))
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "Error: %s\n", textsafe.TerminalText(cfgArgs.completeError(err.Error(), err)))
	return 1
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "neonform",
		Usage:     "manage hosted-Postgres compute endpoints as code",
		UsageText: "neonform COMMAND [ARGUMENTS] [FLAGS]",
		Description: `neonform reads HCL files that say which computes each branch should have,
compares them with the live endpoints, and shows exactly what would change,
marking every change that restarts, suspends, recreates or deletes a compute.

Try it offline, against the built-in emulator:
   neonform apply -auto-approve examples/quickstart

Flags go before or after a command's arguments; after --, every word is an
argument, even one that starts with "-". Every command takes -no-color.
-chdir=DIR before the command runs it in DIR: neonform -chdir=infra plan

Environment:
   NEON_API_KEY         the API key (never printed, logged or saved)
   NEON_API_URL         overrides api_url ("embedded" = the built-in sandbox)
   NEON_ORG_ID          overrides org_id (the organization of generate -all)
   NEONFORM_VAR_<name>  a value for variable <name>
   NEONFORM_LOG=debug   one line per API call on standard error (as -debug);
                        Terraform's levels: trace, debug, info, warn, error, off
   NO_COLOR             no colour in any output, as -no-color`,
		Version:              version,
		Metadata:             map[string]any{},
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		HideHelpCommand:      true,
		EnableBashCompletion: false,
		// A -var value is one value: urfave/cli would split "-var 'zones=[\"a\", \"b\"]'"
		// and "-var label=a,b" on their commas. Repeat the flag for several.
		DisableSliceFlagSeparator: true,
		// Errors are printed once, by run, with the right exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		Commands:       commands(),
		Flags:          []cli.Flag{chdirFlag(), noColorFlag(), debugFlag(), versionFlag()},
		Before:         enterChdir,
		OnUsageError:   usageError,
		// urfave/cli's own -version prints another format than the version
		// command: ours prints the same line.
		HideVersion: true,
	}
	// Without a command: -version, or the help and exit 1, since a script
	// whose command word came out empty did nothing.
	app.Action = func(c *cli.Context) error {
		switch {
		case c.Bool("version"):
			return printVersion(c.App.Writer)
		case c.NArg() > 0:
			app.CommandNotFound(c, c.Args().First())
			return nil
		}
		if err := cli.ShowAppHelp(c); err != nil {
			return err
		}
		return &exitError{code: 1, msg: "Error: no command given: name one of the commands above, such as neonform plan."}
	}
	// An unknown command (or state subcommand): a suggestion and a short usage
	// line, not the whole help. The root's metadata makes the exit code 1,
	// for a subcommand's too (urfave/cli runs those as apps of their own).
	app.CommandNotFound = func(c *cli.Context, name string) {
		if !isCommand(c) {
			if done, ok := answerTerraformCommand(name, c.App.Writer, c.App.ErrWriter); ok {
				app.Metadata["failed"] = !done
				return
			}
		}
		fmt.Fprintln(c.App.ErrWriter, unknownCommand(c, name))
		app.Metadata["failed"] = true
	}
	return app
}

// commands lists the subcommands in the order -help shows them. Every one
// takes -no-color and answers a mistyped flag with usageError; every one
// that may wait for the state lock (-lock-timeout) may also go without it
// (-lock=false).
func commands() []*cli.Command {
	cmds := []*cli.Command{
		validateCommand(),
		fmtCommand(),
		planCommand(),
		showCommand(),
		applyCommand(), destroyCommand(), importCommand(), stateCommand(), forceUnlockCommand(),
		outputCommand(),
		generateCommand(),
		emulatorCommand(),
		versionCommand(),
		lspCommand(),
		completionCommand(), completeCommand(),
	}
	var each func([]*cli.Command)
	each = func(cs []*cli.Command) {
		for _, c := range cs {
			c.OnUsageError = usageError
			if len(c.Subcommands) > 0 {
				each(c.Subcommands)
				continue
			}
			if takesFlag(c, "lock-timeout") && !takesFlag(c, "lock") {
				c.Flags = append(c.Flags, lockFlag())
			}
			c.Flags = append(c.Flags, noColorFlag())
		}
	}
	each(cmds)
	return cmds
}

// appShape is what interspersed needs to know of the app: its own flags
// (which go before a command) and its commands.
func appShape(app *cli.App) commandShape {
	return commandShape{valued: valuedFlags(app.Flags), subs: shapesOf(app.Commands)}
}

// takesFlag reports whether c has a flag of that name.
func takesFlag(c *cli.Command, name string) bool {
	return slices.ContainsFunc(c.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}

// shapesOf is what interspersed needs to know of the commands.
func shapesOf(cmds []*cli.Command) []commandShape {
	out := make([]commandShape, 0, len(cmds))
	for _, c := range cmds {
		if c.SkipFlagParsing {
			continue // its words go to it as they are (__complete: the line being typed)
		}
		out = append(out, commandShape{names: c.Names(), valued: valuedFlags(c.Flags), subs: shapesOf(c.Subcommands)})
	}
	return out
}

// valuedFlags is which of flags take a value, by each of their names.
func valuedFlags(flags []cli.Flag) map[string]bool {
	valued := map[string]bool{}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			valued[n] = !isBool
		}
	}
	return valued
}

func versionFlag() cli.Flag {
	return &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version, as neonform version does"}
}

func noColorFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-color", Usage: "no colour in the output (as NO_COLOR=1)"}
}

// remember records the configuration of the command being run, for run to
// complete the suggestions of the error it returns (suggest.go).
func remember(c *cli.Context, in planInputs) {
	c.App.Metadata[configArgsKey] = configArgsOf(in)
}

// usageError answers a mistyped flag or a bad flag value: what is wrong, the
// nearest flag when there is one, and the command's usage line, instead of
// urfave/cli's answer (the whole help text on standard output).
func usageError(c *cli.Context, err error, _ bool) error {
	name := "neonform"
	var flags []cli.Flag = c.App.Flags
	if isCommand(c) {
		name, flags = commandPath(c), c.Command.Flags
	}
	var names []string
	for _, f := range flags {
		if n := f.Names()[0]; n != "help" {
			names = append(names, n)
		}
	}
	help := usageHelp(c)
	if m := badValue.FindStringSubmatch(err.Error()); m != nil {
		// urfave/cli says only "parse error": say what the flag takes.
		return fmt.Errorf("-%s %q: give %s.%s", m[2], m[1], flagTakes(flags, m[2]), help)
	}
	flag, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: ")
	if !ok {
		return errors.New(err.Error() + "." + help)
	}
	return errors.New(unknownFlag(c, name, flag, names) + help)
}

// argsKey is the app's metadata holding the run's words as given, for
// advice that repeats a value the parser dropped with its flag.
const argsKey = "args"

// valueGiven is the value given to flag -name (or --name) among the run's
// words: "-name=value" or "-name value"; false when there is none.
func valueGiven(c *cli.Context, name string) (string, bool) {
	args, _ := c.App.Metadata[argsKey].([]string)
	for i, a := range args {
		if a == "--" {
			break
		}
		bare := strings.TrimLeft(a, "-")
		if bare == a {
			continue
		}
		if value, ok := strings.CutPrefix(bare, name+"="); ok {
			return value, true
		}
		if bare == name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

// unknownFlag says that command has no flag, and what was probably meant:
// the root's flag, which goes before the command's name; the nearest flag
// of the command; or, when a file of that name is there, how to pass it as
// an argument. Never the advice to put a flag after "--", which would pass
// it as a directory.
func unknownFlag(c *cli.Context, command, flag string, names []string) string {
	bare := strings.TrimLeft(flag, "-")
	msg := fmt.Sprintf("%s has no flag %s.", command, flag)
	if i := slices.IndexFunc(c.App.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), bare) }); i >= 0 && isCommand(c) {
		given := "-" + bare
		if df, ok := c.App.Flags[i].(cli.DocGenerationFlag); ok && df.TakesValue() {
			value, ok := valueGiven(c, bare)
			if !ok {
				value, _ = placeholderOf(df.GetUsage())
			}
			given = shellquote.Word(given + "=" + value)
		}
		return msg + fmt.Sprintf(" %s goes before the command's name: neonform %s %s", given, given, strings.TrimPrefix(command, "neonform "))
	}
	if why, ok := terraformOnly[bare]; ok {
		msg += " " + why
	} else if owner := otherCommandsFlag(c, bare); owner != "" {
		msg += " " + owner
	} else if near := closest(bare, names); near != "" {
		msg += fmt.Sprintf(" Did you mean -%s?", near)
	}
	if _, err := os.Lstat(flag); err == nil {
		msg += fmt.Sprintf(" To pass the file %s as an argument, put it after --: %s -- %s", flag, command, flag)
	}
	return msg
}

// terraformOnly are Terraform's flags that neonform has no use for, and
// why: the nearest of neonform's names would mislead (-refresh is not
// -refresh-branches).
var terraformOnly = map[string]string{
	"refresh":          "A plan always reads the live endpoints (Terraform's refresh): there is nothing to turn off.",
	"refresh-only":     "A plan shows changes made outside neonform under drift, with its other changes.",
	"state":            "The configuration's neonform block says where the state is (docs/state.md).",
	"state-out":        "The configuration's neonform block says where the state is (docs/state.md).",
	"backup":           "A local state's backup is always kept next to it (docs/state.md).",
	"compact-warnings": "neonform prints each warning once, in full, with its file and line: there is nothing to compact.",
	"generate-config-out": "To write the configuration of endpoints that already exist, and record them in the state, " +
		"use neonform generate -project PROJECT_ID (docs/generate.md).",
}

// usageHelp is what follows a mistake in a command's flags or arguments:
// its usage line, and where to read more.
func usageHelp(c *cli.Context) string {
	name, usage := "neonform", c.App.UsageText
	if isCommand(c) {
		name, usage = commandPath(c), c.Command.UsageText
	}
	usage, _, _ = strings.Cut(usage, "\n")
	return fmt.Sprintf("\nUsage: %s\nRun '%s -help' for its flags and examples.", usage, name)
}

// badValue is how urfave/cli reports a flag value it cannot parse.
var badValue = regexp.MustCompile(`^invalid value "(.*)" for flag -([\w-]+): parse error$`)

// flagTakes says what kind of value the named flag takes.
func flagTakes(flags []cli.Flag, name string) string {
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag:
			return "a whole number"
		case *cli.DurationFlag:
			return "a duration, such as 30s or 2m"
		case *cli.Float64Flag:
			return "a number"
		case *cli.BoolFlag:
			return "true or false"
		}
	}
	return "a value of the flag's kind"
}

// isCommand reports whether c is a command's context, not the app's (whose
// Command urfave/cli names after the app).
func isCommand(c *cli.Context) bool {
	return c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name
}

// commandPath is "neonform state list": the commands from the root to c's.
func commandPath(c *cli.Context) string {
	var names []string
	seen := map[*cli.Command]bool{}
	for _, l := range c.Lineage() {
		if isCommand(l) && !seen[l.Command] {
			seen[l.Command] = true
			names = append([]string{l.Command.Name}, names...)
		}
	}
	return strings.Join(append([]string{"neonform"}, names...), " ")
}

// unknownCommand is the answer to a command neonform does not have: the
// nearest one, and the commands there are.
func unknownCommand(c *cli.Context, name string) string {
	prefix, cmds := "neonform", c.App.Commands
	if isCommand(c) {
		prefix, cmds = commandPath(c), c.Command.Subcommands
	}
	var names []string
	for _, cmd := range cmds {
		if !cmd.Hidden && cmd.Name != "help" {
			names = append(names, cmd.Name)
		}
	}
	msg := fmt.Sprintf("%s: unknown command %q.", prefix, name)
	if near := closest(name, names); near != "" {
		msg += fmt.Sprintf(" Did you mean %q?", near)
	}
	return msg + fmt.Sprintf("\nUsage: %s %s [ARGUMENTS] [FLAGS]\nRun '%s -help' for more.",
		prefix, strings.Join(names, "|"), prefix)
}

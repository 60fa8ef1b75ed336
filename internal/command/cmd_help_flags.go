package command

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// Help lists each flag with one dash (-var NAME=VALUE), as the docs, the
// errors and the examples write it and as Terraform's help does; urfave/cli
// writes --var. Both forms parse. Set once, for every command's help.
func init() { cli.FlagStringer = flagHelp }

// flagHelp is one flag's line of help: "-var NAME=VALUE\tset a variable
// ...". The placeholder is the usage's `WORD`, else VALUE; the default is
// shown only when it says something (not false, 0, 0s or empty).
func flagHelp(f cli.Flag) string {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	placeholder, usage := placeholderOf(df.GetUsage())
	if df.TakesValue() && placeholder == "" {
		placeholder = "VALUE"
	}
	names := make([]string, 0, len(df.Names()))
	for i, n := range df.Names() {
		if i == 0 && placeholder != "" {
			n += " " + placeholder
		}
		names = append(names, "-"+n)
	}
	switch d := df.GetDefaultText(); d {
	case "", "false", "0", "0s", `""`:
	default:
		usage += fmt.Sprintf(" (default: %s)", d)
	}
	return strings.Join(names, ", ") + "\t" + strings.TrimSpace(usage)
}

// placeholderOf is urfave/cli's rule: the first `WORD` of a usage names the
// flag's value, and is written without its backquotes.
func placeholderOf(usage string) (placeholder, text string) {
	before, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return "", usage
	}
	word, after, ok := strings.Cut(rest, "`")
	if !ok {
		return "", usage
	}
	return word, before + word + after
}

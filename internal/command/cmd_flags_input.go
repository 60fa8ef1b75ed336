package command

import (
	"github.com/urfave/cli/v2"
)

// inputFlag is -input of apply and destroy, as Terraform's: -input=false
// never asks, even on a terminal, so a run that would ask (no
// -auto-approve, no plan file) stops instead, changing nothing.
func inputFlag() cli.Flag {
	return &cli.BoolFlag{Name: "input", Value: true, Usage: "ask for confirmation when standard input is a terminal; -input=false never asks (then apply needs -auto-approve or a plan file)"}
}

// quietInputFlag is -input of the commands that never ask (plan, import):
// accepted so that Terraform's command lines work.
func quietInputFlag() cli.Flag {
	return &cli.BoolFlag{Name: "input", Value: true, Usage: "accepted as Terraform's: this command never asks for input, so -input=false changes nothing"}
}

// canAsk reports whether the command c runs may ask on standard input: it
// is a terminal, and -input=false was not given. why is what stops it.
func canAsk(c *cli.Context) (ok bool, why string) {
	if !c.Bool("input") {
		return false, "-input=false was given"
	}
	if !isTerminal(c.App.Reader) {
		return false, "standard input is not a terminal"
	}
	return true, ""
}

package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

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

// askToApply asks on out whether to apply and reads the answer from in:
// true only for "yes". An interrupt (Ctrl-C, a closed terminal) cancels ctx
// and the question at once, rather than taking the next line typed as the
// answer; the reader is left waiting for a line nobody needs, which ends
// with the process.
func askToApply(ctx context.Context, in io.Reader, out io.Writer) bool {
	return ask(ctx, in, out, "Apply this plan?")
}

// askToDestroy asks as askToApply does, saying what a yes does.
func askToDestroy(ctx context.Context, in io.Reader, out io.Writer) bool {
	return ask(ctx, in, out, "Delete every compute listed above? There is no undo.")
}

func ask(ctx context.Context, in io.Reader, out io.Writer, question string) bool {
	fmt.Fprintf(out, "\n%s Only 'yes' is accepted: ", question)
	answer := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(in).ReadString('\n')
		answer <- line
	}()
	select {
	case line := <-answer:
		return ctx.Err() == nil && strings.TrimSpace(line) == "yes"
	case <-ctx.Done():
		fmt.Fprintln(out) // off the question's line, where the terminal echoed ^C
		return false
	}
}

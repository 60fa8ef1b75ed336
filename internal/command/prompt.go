package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
)

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

package suggest

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// A command that reads the configuration gets the directory and variables
// after its own arguments; every command gets the -chdir; a word with
// anything a shell reads specially is quoted.
func TestContextWritesEachKind(t *testing.T) {
	x := Context{Chdir: "my repo", Config: []string{"infra", "-var", "label=a b"}}
	for _, tc := range []struct {
		c          Command
		argv, text string
	}{
		{Run("state", "rm", `a.b.c["k"]`), `[neonform -chdir=my repo state rm a.b.c["k"] infra -var label=a b]`,
			`neonform '-chdir=my repo' state rm 'a.b.c["k"]' infra -var 'label=a b'`},
		{Plain("apply", "p.json"), `[neonform -chdir=my repo apply p.json]`, `neonform '-chdir=my repo' apply p.json`},
	} {
		if got := fmt.Sprint(x.Argv(tc.c)); got != tc.argv {
			t.Errorf("Argv = %s, want %s", got, tc.argv)
		}
		if got := x.Text(tc.c); got != tc.text {
			t.Errorf("Text = %s, want %s", got, tc.text)
		}
	}
	if got := Run("state", "rm", "a b").Quoted(); got != "`neonform state rm 'a b'`" {
		t.Errorf("Quoted = %s", got)
	}
}

// Complete replaces the listed commands, each where it is written bare, and
// nothing else.
func TestCompleteReplacesOnlyTheListed(t *testing.T) {
	x := Context{Config: []string{"infra"}}
	plan, list := Run("plan"), Run("state", "list")
	text := "run " + plan.Quoted() + ", not `neonform state list` nor `neonform plan -out p`"
	want := "run `neonform plan infra`, not `neonform state list` nor `neonform plan -out p`"
	if got := x.Complete(text, []Command{plan}); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := (Context{}).Complete(text, []Command{plan, list}); got != text {
		t.Errorf("an empty context changed %q to %q", text, got)
	}
}

// Of finds the commands of every error in a chain, each once.
func TestOfFindsEveryWrappedSuggestion(t *testing.T) {
	plan, rm := Run("plan"), Run("state", "rm", "x")
	err := fmt.Errorf("outer: %w", errors.Join(Wrap(errors.New("a"), plan), Wrap(Wrap(errors.New("b"), rm), plan)))
	if got := Of(err); !slices.EqualFunc(got, []Command{plan, rm}, Command.Equal) {
		t.Errorf("Of = %v", got)
	}
	if Of(errors.New("plain")) != nil {
		t.Error("a plain error suggests nothing")
	}
}

package command

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestInterspersedMovesFlagsBeforeArguments(t *testing.T) {
	app := &cli.App{Commands: []*cli.Command{
		{Name: "plan", Flags: []cli.Flag{
			&cli.StringFlag{Name: "out"},
			&cli.BoolFlag{Name: "detailed-exitcode"},
			&cli.StringSliceFlag{Name: "var"},
		}},
		{Name: "state", Subcommands: []*cli.Command{{Name: "mv", Flags: []cli.Flag{&cli.StringFlag{Name: "state"}}}}},
	}}
	cases := []struct{ in, want string }{
		{"neonform plan dir -out p.json", "neonform plan -out p.json -- dir"},
		{"neonform plan dir -detailed-exitcode -var a=1", "neonform plan -detailed-exitcode -var a=1 -- dir"},
		{"neonform plan -out=p.json dir", "neonform plan -out=p.json -- dir"},
		{"neonform plan -out p.json", "neonform plan -out p.json"},
		// A valued flag takes the next word even when it looks like a flag.
		{"neonform plan -var -x=1 dir", "neonform plan -var -x=1 -- dir"},
		// After "--" nothing is a flag, wherever the "--" is.
		{"neonform plan dir -- -notaflag", "neonform plan -- dir -notaflag"},
		{"neonform plan -- -dir -out p.json", "neonform plan -- -dir -out p.json"},
		{"neonform plan -out p.json -- -dir", "neonform plan -out p.json -- -dir"},
		// "-" alone is an argument (standard input).
		{"neonform plan - -out p.json", "neonform plan -out p.json -- -"},
		{"neonform state mv a b -state s.json", "neonform state mv -state s.json -- a b"},
		{"neonform unknown x -y", "neonform unknown x -y"},
		{"neonform --help", "neonform --help"},
		// The root's flags stay before the command, a valued one with its value.
		{"neonform -chdir=infra plan dir -out p.json", "neonform -chdir=infra plan -out p.json -- dir"},
		{"neonform -chdir infra -debug plan dir -out p.json", "neonform -chdir infra -debug plan -out p.json -- dir"},
		{"neonform -debug state mv a b -state s.json", "neonform -debug state mv -state s.json -- a b"},
	}
	for _, c := range cases {
		got := strings.Join(interspersed(commandShape{valued: map[string]bool{"chdir": true, "debug": false}, subs: shapesOf(app.Commands)}, strings.Fields(c.in)), " ")
		if got != c.want {
			t.Errorf("interspersed(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

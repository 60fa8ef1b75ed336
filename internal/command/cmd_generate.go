package command

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/neonform/neonform/generate"
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:        "generate",
		Usage:       "write the configuration of computes that already exist, and record them in the state",
		UsageText:   "neonform generate (-project ID [-project ID]... | -all) [-match GLOB [-match GLOB]... [-exclude GLOB]... [-rule NAME]] [DIR] [-lock-timeout DURATION] [-lock=false] [-wait-timeout DURATION] [-var NAME=VALUE]... [-var-file FILE]...",
		Description: generateDescription,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "project", Usage: "generate the project with this `ID` (repeatable)"},
			&cli.BoolFlag{Name: "all", Usage: "generate every project the API key can see (of the organization org_id names)"},
			&cli.StringSliceFlag{Name: "match", Usage: "gather the branches whose name matches `GLOB` into one branches block (repeatable)"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "leave the branches whose name matches `GLOB` out of the branches block (repeatable)"},
			&cli.StringFlag{Name: "rule", Usage: "label the branches block `NAME` (default: from the first -match glob, as previews for preview/*)"},
			&cli.StringSliceFlag{Name: "var", Usage: "set a variable of the configuration in DIR: `NAME=VALUE` (repeatable)"},
			&cli.StringSliceFlag{Name: "var-file", Usage: "read variables from `FILE` (repeatable)"},
			lockTimeoutFlag(), waitTimeoutFlag(), debugFlag(),
		},
		Action: func(c *cli.Context) error {
			o, err := generateOptionsFrom(c)
			if err != nil {
				return err
			}
			return runGenerate(c.Context, o)
		},
	}
}

// generateOptionsFrom reads generate's flags and its directory.
func generateOptionsFrom(c *cli.Context) (generateOptions, error) {
	args := c.Args().Slice()
	if len(args) > 1 {
		return generateOptions{}, fmt.Errorf("generate takes one directory, not %d arguments: neonform generate -project ID [DIR]", len(args))
	}
	o := generateOptions{
		planInputs: planInputs{Dir: ".", Chdir: c.String("chdir"), Vars: c.StringSlice("var"), VarFiles: c.StringSlice("var-file"), Secrets: &sensitiveVars{}},
		ProjectIDs: c.StringSlice("project"), All: c.Bool("all"), Rule: ruleOf(c),
		Env: environmentOf(c), Stdout: c.App.Writer, Stderr: c.App.ErrWriter}
	if len(args) == 1 {
		o.Dir = args[0]
	}
	remember(c, o.planInputs)
	var err error
	if o.WaitTimeout, err = waitTimeoutOf(c); err != nil {
		return o, err
	}
	if o.LockTimeout, err = lockTimeoutOf(c); err != nil {
		return o, err
	}
	return o, nil
}

// ruleOf is the rule -match, -exclude and -rule ask for; nil when none is
// given.
func ruleOf(c *cli.Context) *generate.Rule {
	r := &generate.Rule{Match: c.StringSlice("match"), Exclude: c.StringSlice("exclude"), Label: c.String("rule")}
	if len(r.Match) == 0 && len(r.Exclude) == 0 && !c.IsSet("rule") {
		return nil
	}
	return r
}

const generateDescription = `Onboards an account that already has projects, branches and computes: reads
each project's branches and endpoints and writes one file per project into
DIR (default the current directory; created if missing), in the layout fmt
writes, with a compute block for each endpoint that describes it as it is,
and records every one of them in the state. The next plan then has nothing
to do.

A file is named after the project (shop.hcl); branch and compute labels come
from their names in the service, made valid and unique. A read_write endpoint
without a name is labelled primary (a replica, replica), and its block writes
no name, which leaves the endpoint unnamed. Attributes at their default are
left out, as in a compute block written by hand.

generate never overwrites: a file of the same name, a project the
configuration in DIR already declares, or an endpoint the state already
records under another address, is an error that names it, and nothing is
written. It prints each file it wrote, and warns of each endpoint it left
out and why (a disabled compute, an endpoint whose branch is being deleted,
one named as another on its branch, one whose block the configuration would
refuse). Before writing, it plans what it wrote against what it read:
anything but nothing to do is a bug, and nothing is written.

A fleet of branches (a preview branch per pull request) is one branches
block with -match GLOB (repeatable; * is any characters but /, as in
match = "preview/*"), less -exclude GLOB: the branches it matches that have
the same computes (the most of them alike) are its instances, each compute
recorded at its rule address, shop.previews["preview/pr-1"].primary.
-rule NAME labels the block; without it, the label is the first glob's text
before its first wildcard, made a label, in the plural ("preview/*" gives
previews, "test-*" tests, "*" branches). A branch that matches but whose
computes differ keeps a branch block of its own, and one without computes
is added to the block's exclude, so the first plan creates nothing; each is
said. The default branch always keeps its own block.

The files are ready to commit: mode 0644; the first starts with a neonform
block when DIR has none (with api_url when the service is not the default,
and org_id when NEON_ORG_ID is set);
the default branch's read_write compute has lifecycle { prevent_destroy =
true }, so that no plan deletes it by accident (delete the lifecycle block
and apply once to drop it).

It reaches the service as plan does: NEON_API_KEY, and NEON_API_URL or the
api_url of the configuration already in DIR. -all lists the projects of the
organization that NEON_ORG_ID or org_id names, and an account that belongs
to organizations only must name one; a project-scoped key lists none: name
its project with -project.

Examples:
   neonform generate -project dark-sun-46453911 infra/
   neonform generate -all infra/ && neonform plan infra/
   neonform generate -project dark-sun-46453911 -match 'preview/*' infra/`

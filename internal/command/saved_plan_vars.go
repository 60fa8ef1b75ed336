package command

import (
	"fmt"
	"slices"
	"strings"

	"github.com/neonform/neonform/config"
)

// forSavedPlan is the configuration's arguments as applying a saved plan
// needs them: the -var of the variables it reads (the neonform block's, the
// lifecycle blocks' and for_each's: config.Settings.Variables), and the
// -var-file only when it reads any. The plan holds every
// other value it was made with.
func (a configArgs) forSavedPlan(settingsVars []string) configArgs {
	var vars []string
	for _, v := range a.vars {
		if slices.Contains(settingsVars, varName(v)) {
			vars = append(vars, v)
		}
	}
	a.vars = vars
	if len(settingsVars) == 0 {
		a.varFiles = nil
	}
	return a
}

// applySaved is the command that applies the saved plan planFile made
// from this configuration, for advice given before the configuration was
// read: it reads the neonform block to learn which variables it needs.
func (a configArgs) applySaved(planFile string, flags ...string) string {
	var settingsVars []string
	if cfg, _ := config.Load(a.dir, config.Options{SettingsOnly: true, Projects: true}); cfg != nil {
		settingsVars = cfg.Settings.Variables
	}
	return a.forSavedPlan(settingsVars).command("apply", append(flags, planFile)...)
}

// refuseVarsForSavedPlan refuses a -var that applying a saved plan would
// ignore: the plan holds the values it was made with, and only the
// variables of the neonform block (the service, the state), the lifecycle
// blocks and for_each (which the plan is held to) are read again.
// Silently applying the plan's 4 when -var said 8 is the mistake
// Terraform refuses too.
func refuseVarsForSavedPlan(planFile string, vars, settingsVars []string, args configArgs) error {
	var ignored []string
	for _, v := range vars {
		if name := varName(v); !slices.Contains(settingsVars, name) && !slices.Contains(ignored, name) {
			ignored = append(ignored, name)
		}
	}
	if len(ignored) == 0 {
		return nil
	}
	return &exitError{code: 1, msg: fmt.Sprintf("Error: -var %s: %s holds every value it was made with, and apply carries it out as it is; "+
		"a variable given now would change nothing. Nothing was changed.\n"+
		"To apply with this value, make a new plan with it, review it, and apply that:\n  %s\n  %s",
		strings.Join(ignored, ", -var "), planFile, args.command("plan", "-out", planFile), args.forSavedPlan(settingsVars).command("apply", planFile))}
}

// varName is the NAME of a -var NAME=VALUE argument.
func varName(arg string) string {
	name, _, _ := strings.Cut(arg, "=")
	return strings.TrimSpace(name)
}

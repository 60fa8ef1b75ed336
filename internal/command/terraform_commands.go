package command

import (
	"fmt"
	"io"
)

// terraformCommand is one of Terraform's commands that neonform does not
// have on purpose, and what to do instead. A team's scripts carry them over
// from Terraform; "unknown command" and a did-you-mean would send them to
// a command that does something else (get is not fmt).
type terraformCommand struct {
	// done: nothing is needed, so the script may go on (exit 0, the advice
	// on standard output); otherwise the advice is an error (exit 1).
	done   bool
	advice string
}

// terraformCommands are Terraform's commands neonform answers with advice,
// by name. The README's "Coming from Terraform" table says the same.
var terraformCommands = map[string]terraformCommand{
	"init": {done: true, advice: "neonform needs no init: it has no providers, modules or backend to install, " +
		"and the first apply creates the state. Nothing was done. Next: neonform validate, then neonform plan"},
	"get": {done: true, advice: "neonform has no modules to get: nothing was done. Next: neonform plan"},
	"refresh": {advice: "neonform has no refresh: every plan reads the live endpoints and lists what changed outside neonform " +
		"under drift, with its other changes. Run: neonform plan"},
	"taint": {advice: "neonform has no taint: to recreate a compute, plan it with -replace: " +
		"neonform plan -replace ADDRESS -out plan.json, then neonform apply plan.json (the addresses: neonform state list)"},
	"untaint": {advice: "neonform has no taint, so nothing to untaint: a compute is recreated only by the plan made with -replace ADDRESS"},
	"workspace": {advice: "neonform has no workspaces: keep one directory per environment, or one state per environment, " +
		"chosen by a variable in the neonform block (state = var.state, then neonform plan -var state=prod.state.json), " +
		"or by NEONFORM_STATE_NAME with a Postgres state (docs/state.md)"},
	"console": {advice: "neonform has no console: neonform validate prints what each compute evaluates to, " +
		"and neonform output [ADDRESS] what the state records"},
	"graph":     {advice: "neonform has no graph: a plan lists its steps in the order apply carries them out. Run: neonform plan"},
	"providers": {advice: "neonform has no providers: it speaks the service's API itself. neonform version names its version"},
	"login": {advice: "neonform has no login: set the environment variable NEON_API_KEY to an API key " +
		"(the service's console, Account settings, API keys); it is never printed, logged or saved"},
	"logout": {advice: "neonform has no login, so no logout: unset NEON_API_KEY"},
	"test": {advice: "neonform has no test command: neonform validate checks a configuration without the network, " +
		"and api_url = \"embedded\" (or NEON_API_URL=embedded) plans and applies it against the built-in sandbox"},
	"metadata": {advice: "neonform has no metadata command: neonform version -json names the version, " +
		"and every command's -help its flags"},
}

// answerTerraformCommand prints the advice for one of Terraform's commands
// that neonform lacks; false when name is not one of them.
func answerTerraformCommand(name string, stdout, stderr io.Writer) (done, ok bool) {
	tc, ok := terraformCommands[name]
	if !ok {
		return false, false
	}
	if tc.done {
		fmt.Fprintln(stdout, tc.advice+".")
		return true, true
	}
	fmt.Fprintf(stderr, "Error: %s.\n", tc.advice)
	return false, true
}

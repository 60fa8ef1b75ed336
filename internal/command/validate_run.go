package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/command/views"
	"github.com/neonform/neonform/internal/diag"
	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/suggest"
)

// validateOptions are the inputs of neonform validate.
type validateOptions struct {
	Dir            string
	Chdir          string // the run's -chdir, which the commands it suggests carry
	JSON           bool
	Vars, VarFiles []string
	// Env is the process environment (NEONFORM_VAR_<name>, env(), NO_COLOR)
	// and -no-color.
	Env            environment
	Stdout, Stderr io.Writer
}

func runValidate(ctx context.Context, o validateOptions) error {
	cfg, diags := config.Load(o.Dir, config.Options{Vars: o.Vars, VarFiles: o.VarFiles, Environ: o.Env.list, Context: ctx})
	interrupted := interruptedReading(ctx, diags.HasErrors())
	args := configArgs{dir: o.Dir, chdir: o.Chdir, vars: o.Vars, varFiles: o.VarFiles, secrets: &sensitiveVars{}}
	if cfg != nil {
		args.secrets.learn(cfg.SensitiveVariables)
	}
	if o.JSON {
		if err := writeValidateJSON(o.Stdout, diags, args); err != nil {
			return err
		}
		if interrupted != nil {
			return interrupted
		}
		if diags.HasErrors() {
			return &exitError{code: 1}
		}
		return nil
	}

	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	args.completeDiagnostics(diags)
	printDiagnostics(o.Stderr, diags, files, o.Env)
	if interrupted != nil {
		return interrupted
	}
	if diags.HasErrors() || cfg == nil {
		return &exitError{code: 1, msg: fmt.Sprintf("The configuration is not valid: %s.", countDiags(diags))}
	}
	return writeValidSummary(o.Stdout, cfg)
}

// writeValidSummary prints the success line and each compute's size
// (views.WriteValid) from what the configuration holds.
func writeValidSummary(w io.Writer, cfg *config.Config) error {
	v := &views.Valid{Projects: len(cfg.Projects)}
	for _, p := range cfg.Projects {
		v.Branches += len(p.Branches)
		v.Rules += len(p.Rules)
		for _, b := range p.Branches {
			v.Computes += len(b.Computes)
		}
	}
	v.Computes += len(cfg.AllRuleComputes()) // each stands for every branch its rule matches, known at plan time
	// Each compute's cost a month, when there is a price (or the CU-hours
	// the plan includes) to read it by: docs/cost.md.
	price := cfg.Settings.Price()
	v.Priced = price.Known() || price.IncludedCUHoursPerProject > 0
	for _, p := range cfg.Projects {
		blocks := slices.Clone(p.Branches)
		for _, r := range p.Rules { // a rule's computes, as <project>.<rule>[*].<compute>
			blocks = append(blocks, &config.Branch{Computes: r.Computes})
		}
		for i, b := range blocks {
			for _, c := range b.Computes {
				row := views.ValidCompute{Address: c.Address, Type: string(c.Type), Size: c.Size(),
					SizeHidden: diff.SizeSensitive(c), Disabled: c.Disabled, ActiveHours: c.ActiveHours,
					EachBranch: i >= len(p.Branches)}
				var ok bool
				row.Cost, ok = diff.ConfiguredCost(c, price)
				row.CostHidden = !ok
				v.Rows = append(v.Rows, row)
			}
		}
	}
	return views.WriteValid(w, v)
}

// countDiags says "2 errors, 1 warning".
func countDiags(diags diag.Diagnostics) string {
	errs, warns := 0, 0
	for _, d := range diags {
		if d.Severity == diag.SeverityError {
			errs++
		} else {
			warns++
		}
	}
	s := english.Plural(errs, "error", "errors")
	if warns > 0 {
		s += ", " + english.Plural(warns, "warning", "warnings")
	}
	return s
}

// The -json shape follows terraform validate -json, so editors and CI tools
// that read one can read the other.
type validateJSON struct {
	FormatVersion string      `json:"format_version"`
	Valid         bool        `json:"valid"`
	ErrorCount    int         `json:"error_count"`
	WarningCount  int         `json:"warning_count"`
	Diagnostics   []diag.JSON `json:"diagnostics"`
	// DiagnosticsOmitted counts those left out past the first maxDiagnostics.
	DiagnosticsOmitted int `json:"diagnostics_omitted,omitempty"`
}

// writeValidateJSON writes diags, their suggestions for the run of args.
func writeValidateJSON(w io.Writer, diags diag.Diagnostics, args configArgs) error {
	out := validateJSON{FormatVersion: "1.0", Diagnostics: []diag.JSON{}}
	for _, d := range diags {
		if d.Severity == diag.SeverityWarning {
			out.WarningCount++
		} else {
			out.ErrorCount++
		}
	}
	shown, moreErrors, moreWarnings := firstDiagnostics(diags)
	out.DiagnosticsOmitted = moreErrors + moreWarnings
	var x suggest.Context
	if slices.ContainsFunc(shown, func(d diag.Diagnostic) bool { return len(d.Suggestions) > 0 }) {
		x = args.context()
	}
	for _, d := range shown {
		out.Diagnostics = append(out.Diagnostics, d.ToJSONIn(x))
	}
	out.Valid = out.ErrorCount == 0
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

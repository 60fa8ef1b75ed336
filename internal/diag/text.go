package diag

import "fmt"

// String is d on one line as hcl writes a diagnostic, "file:line,col-col:
// summary; detail" (or "address: ..."), for a test's failure message or an
// error that reports a bug. People read diagnostics as internal/command
// prints them.
func (d Diagnostic) String() string {
	d.Word()
	s := d.Summary + "; " + d.Detail
	switch {
	case d.Range != nil:
		return d.Range.String() + ": " + s
	case d.Address != "" && d.PlanFile != "":
		return d.Address + " in " + d.PlanFile + ": " + s
	case d.Address != "":
		return d.Address + ": " + s
	}
	return s
}

// String is the first of ds and how many others there are, as hcl says
// its diagnostics.
func (ds Diagnostics) String() string {
	switch len(ds) {
	case 0:
		return "no diagnostics"
	case 1:
		return ds[0].String()
	}
	return fmt.Sprintf("%s, and %d other diagnostic(s)", ds[0].String(), len(ds)-1)
}

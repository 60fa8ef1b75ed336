package diag

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/internal/suggest"
)

// A near-miss travels from hcl's Extra to Near, and every view writes the
// same sentence at its place: once, whatever a view adds to the detail
// after (a command in the run's context), and -json lists the names.
func TestNearIsWordedAtItsPlace(t *testing.T) {
	missing := `Project shop has no branch named "devel".`
	hd := hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Branch not found",
		Detail: missing + " Run `neonform plan` after.",
		Extra:  Near{Names: []string{"dev1", "dev2"}, Strings: true, At: len(missing)}}}
	d := FromHCL(hd)[0]
	if d.Extra != nil || len(d.Near.Names) != 2 {
		t.Fatalf("FromHCL left the near-miss in Extra: %#v", d)
	}
	worded := `Project shop has no branch named "devel". Did you mean "dev1" or "dev2"? Run ` + "`neonform plan`" + ` after.`
	if got := d.String(); !strings.HasSuffix(got, "; "+worded) {
		t.Errorf("String: %s\nwant it to end %s", got, worded)
	}
	if got := (&Error{Diagnostics: Diagnostics{d}}).Error(); got != "Branch not found: "+worded {
		t.Errorf("Error: %s", got)
	}
	if strings.Contains(d.Detail, "Did you mean") {
		t.Fatalf("String or Error wrote into the diagnostic they were given: %s", d.Detail)
	}

	d.Suggestions = []suggest.Command{suggest.Run("plan")}
	x := suggest.Context{Chdir: "infra/prod"} // moves the text after the sentence's place
	j := d.ToJSONIn(x)
	wantJSON := `Project shop has no branch named "devel". Did you mean "dev1" or "dev2"? Run ` + "`neonform -chdir=infra/prod plan`" + ` after.`
	if j.Detail != wantJSON {
		t.Errorf("-json detail:\n%s\nwant\n%s", j.Detail, wantJSON)
	}
	out, err := json.Marshal(j)
	if err != nil || !strings.Contains(string(out), `"did_you_mean":["dev1","dev2"]`) {
		t.Errorf("-json does not list the names: %s (%v)", out, err)
	}

	d.Word()
	d.Word() // a second view's call writes nothing more
	d.Detail = x.Complete(d.Detail, d.Suggestions)
	if d.Detail != wantJSON || !(Diagnostics{d}).Worded()[0].Near.Written {
		t.Errorf("worded twice or in the wrong place: %s", d.Detail)
	}
}

// Addresses are written as they are, listed "a, b or c"; without names
// there is nothing to say.
func TestNearSentence(t *testing.T) {
	for _, tt := range []struct {
		near Near
		want string
	}{
		{Near{Names: []string{"shop.main"}}, "Did you mean shop.main?"},
		{Near{Names: []string{"a.b", "a.c", "a.d"}}, "Did you mean a.b, a.c or a.d?"},
		{Near{Names: []string{"x"}, Strings: true}, `Did you mean "x"?`},
		// Quoted or not, a list is joined one way (internal/english).
		{Near{Names: []string{"dev1", "dev2", "dev3"}, Strings: true}, `Did you mean "dev1", "dev2" or "dev3"?`},
	} {
		if got := tt.near.Sentence(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.near, got, tt.want)
		}
	}
	d := Diagnostic{Detail: "Nothing near."}
	if d.Word(); d.Detail != "Nothing near." || d.ToJSON().DidYouMean != nil {
		t.Errorf("no names, yet: %+v", d)
	}
}

// A near-miss of a diagnostic whose line must not be quoted (api_url) is
// wrapped in its Unquoted: both reach the Diagnostic. Near.In words it into
// an error's text, as Word does into a detail.
func TestNearInsideUnquoted(t *testing.T) {
	detail := "api_url is not a URL."
	near := Near{Names: []string{"embedded"}, Strings: true, At: len(detail)}
	d := FromHCL(hcl.Diagnostics{{Summary: "Invalid API URL", Detail: detail, Extra: Unquoted{Extra: near}}})[0]
	if d.Quotable() || len(d.Near.Names) != 1 {
		t.Fatalf("FromHCL lost the Unquoted or the Near it wraps: %#v", d)
	}
	want := `api_url is not a URL. Did you mean "embedded"?`
	if got := near.In(detail); got != want {
		t.Errorf("In: %q, want %q", got, want)
	}
	if d.Word(); d.Detail != want {
		t.Errorf("Word: %q, want %q", d.Detail, want)
	}
	if got := (Near{}).In(detail); got != detail {
		t.Errorf("In without names: %q", got)
	}
}

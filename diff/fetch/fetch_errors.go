package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/config"
	"github.com/neonform/neonform/internal/english"
)

// readFailure is a project whose endpoints or branches could not be read.
type readFailure struct {
	p    *config.Project
	what string // "endpoints" or "branches"
	err  error
}

// readErrors turns failed reads into diagnostics. A failure that is about
// the service rather than one project (the key refused, an API URL that
// misses the API, a service that does not answer) is said once, with the
// projects it stopped, not once per project: with fifty projects, fifty
// copies of "API key refused" hide the one thing to fix. A failure of one
// project points at its block.
func readErrors(failed []*readFailure) hcl.Diagnostics {
	var keyRefused, wrongURL, noAnswer []*readFailure
	var out hcl.Diagnostics
	for _, f := range failed {
		switch {
		case api.StatusOf(f.err) == http.StatusUnauthorized:
			keyRefused = append(keyRefused, f)
		case api.URLHintOf(f.err) != "":
			wrongURL = append(wrongURL, f)
		case api.IsNoAnswer(f.err):
			noAnswer = append(noAnswer, f)
		default:
			out = append(out, readError(f.p, f.what, f.err))
		}
	}
	if len(keyRefused) > 0 {
		out = append(out, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "API key refused",
			Detail: fmt.Sprintf("The service refused the API key, so %s could not be read: set NEON_API_KEY to a valid key that has not been revoked. It answered %s.",
				projectList(keyRefused), serviceAnswer(keyRefused[0].err))})
	}
	if len(wrongURL) > 0 {
		out = append(out, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Wrong API URL",
			Detail: fmt.Sprintf("Reading %s was answered 404 Not Found, and %s Set api_url in the neonform block, or NEON_API_URL, to the API's URL. The first answer: %s.",
				projectList(wrongURL), capitalize(api.URLHintOf(wrongURL[0].err)), serviceAnswer(wrongURL[0].err))})
	}
	if len(noAnswer) > 0 {
		out = append(out, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "No answer from the service",
			Detail: fmt.Sprintf("Reading %s got no answer: %v. Check the API URL (api_url in the neonform block, or NEON_API_URL) and the network. Nothing was changed.",
				projectList(noAnswer), noAnswer[0].err)})
	}
	return out
}

// readError is the error of one project that could not be read, at its block.
func readError(p *config.Project, what string, err error) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError}
	if rng := p.DeclRange; rng.Filename != "" { // a destroy reads projects no block names
		d.Subject = &rng
	}
	switch status := api.StatusOf(err); status {
	case http.StatusNotFound, http.StatusForbidden:
		d.Summary = "Project not found"
		d.Detail = fmt.Sprintf("Project %q (id %q) does not exist, or the API key cannot see it. "+
			"Check the id in the project block, and that NEON_API_KEY belongs to an account that can see the project "+
			"(a project-scoped key sees only its own project). The service answered %s.", p.Label, p.ID, serviceAnswer(err))
	default:
		d.Summary = "Cannot read project " + p.Label
		d.Detail = fmt.Sprintf("Listing the %s of project %q (id %q) failed: %v. Nothing was changed; run the plan again.", what, p.Label, p.ID, err)
	}
	return d
}

// serviceAnswer is the call and what the service said, without the hint the
// API error adds (the diagnostic gives its own): "GET /projects/p/endpoints:
// 404 Not Found: project not found (request id r1)".
func serviceAnswer(err error) string {
	var ae *api.Error
	if !errors.As(err, &ae) {
		return err.Error()
	}
	text := fmt.Sprintf("%s %s: %d %s", ae.Method, ae.Path, ae.StatusCode, http.StatusText(ae.StatusCode))
	if ae.Message != "" {
		text += ": " + ae.Message
	}
	if ae.RequestID != "" {
		text += " (request id " + ae.RequestID + ")"
	}
	return text
}

// projectList names the projects: `project "shop" (dark-sun-46453911)`, or
// "3 projects (shop, web, books)".
func projectList(fs []*readFailure) string {
	if len(fs) == 1 {
		return fmt.Sprintf("project %q (id %q)", fs[0].p.Label, fs[0].p.ID)
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.p.Label
	}
	slices.Sort(names)
	return fmt.Sprintf("%d projects (%s)", len(fs), english.FirstFew(names, 10))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

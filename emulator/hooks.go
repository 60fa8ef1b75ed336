package emulator

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
)

// hooksPrefix is where the test hooks live, outside the API: they need no key and are
// neither counted nor faulted.
const hooksPrefix = "/_emulator"

// hookRoutes serves:
//
//	GET    /_emulator/stats                 request counters (Stats)
//	DELETE /_emulator/stats                 reset them
//	POST   /_emulator/activity/{endpoint}   a client query: wakes an idle compute, counts as activity
//	GET    /_emulator/clock                 the emulator's time
//	POST   /_emulator/clock/advance?by=5m   move a fake clock (only with a FakeClock)
//	GET    /_emulator/faults                the injected faults, as a spec
//	PUT    /_emulator/faults?spec=...       change them ("" for none)
//	DELETE /_emulator/organizations/{org}/members/{user}  the user leaves the organization
//	DELETE /_emulator/projects/{project}/organization     the project leaves its organization
func (e *Emulator) hookRoutes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /_emulator/stats", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, e.Stats())
	})
	mux.HandleFunc("DELETE /_emulator/stats", func(w http.ResponseWriter, r *http.Request) {
		e.ResetStats()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /_emulator/activity/{endpoint_id}", e.hookActivity)
	mux.HandleFunc("GET /_emulator/clock", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, clockAnswer{Now: e.clock.Now(), Fake: e.fake != nil})
	})
	mux.HandleFunc("POST /_emulator/clock/advance", e.hookAdvance)
	mux.HandleFunc("GET /_emulator/faults", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"faults": e.dice.Load().faults.String()})
	})
	mux.HandleFunc("PUT /_emulator/faults", e.hookFaults)
	mux.HandleFunc("DELETE /_emulator/organizations/{org_id}/members/{user_id}", e.hookLeave)
	mux.HandleFunc("DELETE /_emulator/projects/{project_id}/organization", e.hookTransferOut)
	mux.HandleFunc("/_emulator/", func(w http.ResponseWriter, r *http.Request) {
		hookError(w, http.StatusNotFound, "no such test hook %s %s; see the emulator package documentation", r.Method, r.URL.Path)
	})
	return mux
}

type clockAnswer struct {
	Now  time.Time `json:"now"`
	Fake bool      `json:"fake"`
}

func hookError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, api.GeneralError{Code: "TEST_HOOK", Message: fmt.Sprintf(format, args...)})
}

func (e *Emulator) hookActivity(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("endpoint_id")
	p := e.w.project(e.w.projectOfEndpoint(id))
	if p == nil {
		hookError(w, http.StatusNotFound, "endpoint %s not found", id)
		return
	}
	now := e.clock.Now()
	if err := e.catchUp(p, now); err != nil {
		hookError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	p.mu.Lock()
	ep := p.endpoints[id]
	if ep == nil || p.deleted {
		p.mu.Unlock()
		hookError(w, http.StatusNotFound, "endpoint %s not found", id)
		return
	}
	if err := e.activity(p, ep, now); err != nil {
		p.mu.Unlock()
		hookError(w, http.StatusConflict, "%s", err.(*apiError).message)
		return
	}
	out := api.EndpointResponse{Endpoint: ep.wire(now, false, true)}
	p.mu.Unlock()
	if err := e.save(); err != nil {
		hookError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (e *Emulator) hookAdvance(w http.ResponseWriter, r *http.Request) {
	if e.fake == nil {
		hookError(w, http.StatusConflict, "the emulator runs on real time; start it with a fake clock (-fake-clock) to move time")
		return
	}
	d, err := time.ParseDuration(r.URL.Query().Get("by"))
	if err != nil || d <= 0 {
		hookError(w, http.StatusBadRequest, "by=%q must be a positive duration such as 5m or 90s", r.URL.Query().Get("by"))
		return
	}
	e.fake.Advance(d)
	writeJSON(w, http.StatusOK, clockAnswer{Now: e.fake.Now(), Fake: true})
}

func (e *Emulator) hookFaults(w http.ResponseWriter, r *http.Request) {
	spec := r.URL.Query().Get("spec")
	if spec == "" && r.Body != nil {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
		spec = strings.TrimSpace(string(b))
		var asJSON struct {
			Faults string `json:"faults"`
		}
		if json.Unmarshal(b, &asJSON) == nil {
			spec = asJSON.Faults
		}
	}
	f, err := ParseFaults(spec)
	if err != nil {
		hookError(w, http.StatusBadRequest, "%v", err)
		return
	}
	e.SetFaults(f)
	writeJSON(w, http.StatusOK, map[string]string{"faults": f.String()})
}

// hookLeave removes a user from an organization: their personal keys lose access to its
// projects at once (docs/service.md, Authentication and API keys).
func (e *Emulator) hookLeave(w http.ResponseWriter, r *http.Request) {
	orgID, userID := r.PathValue("org_id"), r.PathValue("user_id")
	e.w.mu.Lock()
	o := e.w.orgs[orgID]
	if o == nil || o.Members[userID] == "" {
		e.w.mu.Unlock()
		hookError(w, http.StatusNotFound, "user %s is not a member of organization %s", userID, orgID)
		return
	}
	delete(o.Members, userID)
	e.w.mu.Unlock()
	if err := e.save(); err != nil {
		hookError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// hookTransferOut moves a project out of its organization into its owner's personal
// account: the organization's keys, and project-scoped keys for it, stop working on it
// at once (docs/service.md, Authentication and API keys).
func (e *Emulator) hookTransferOut(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("project_id")
	e.w.mu.Lock()
	p := e.w.projects[id]
	if p == nil || p.OrgID == "" {
		e.w.mu.Unlock()
		hookError(w, http.StatusNotFound, "project %s not found in an organization", id)
		return
	}
	p.mu.Lock()
	p.OrgID = ""
	p.mu.Unlock()
	e.w.mu.Unlock()
	if err := e.save(); err != nil {
		hookError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

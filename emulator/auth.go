package emulator

import (
	"net"
	"net/http"
	"strings"
	"time"
)

// Who may do what (docs/service.md, Authentication and API keys):
//   - A personal key acts as its user: the user's personal projects and the projects of
//     every organization the user is a member of now (leaving ends the access).
//   - An organization key acts on all projects of its organization, admin-level.
//   - A project-scoped key acts on one project of its organization; it cannot delete that
//     project, create projects or act on the organization, and stops working if the
//     project leaves the organization.
//
// Projects a key may not see answer 404, as if they did not exist; actions a key may
// not take on what it sees answer 403.

func unauthorized(msg string) *apiError {
	return errorf(http.StatusUnauthorized, codeUnauthorized, "%s", msg)
}

// authenticate finds the key of a request. Missing, unknown and revoked keys are 401.
func (e *Emulator) authenticate(r *http.Request, now time.Time) (*apiKey, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, unauthorized("missing Authorization header: send Authorization: Bearer <API key>")
	}
	scheme, secret, ok := strings.Cut(h, " ")
	secret = strings.TrimSpace(secret)
	if !ok || !strings.EqualFold(scheme, "Bearer") || secret == "" {
		return nil, unauthorized("the Authorization header must be Bearer <API key>")
	}
	sum := hashSecret(secret)

	w := e.w
	w.mu.RLock()
	k := w.keys[sum]
	valid := k != nil && !k.Revoked && w.keyUsable(k)
	w.mu.RUnlock()
	switch {
	case k == nil:
		return nil, unauthorized("invalid API key: create one in the console or with POST /api_keys")
	case k.Revoked:
		return nil, unauthorized("this API key has been revoked; revocation is permanent, use another key")
	case !valid:
		return nil, unauthorized("this API key no longer works: its account, organization or project is gone")
	}
	k.lastUsedAt.Store(now.UnixNano())
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		if p := k.lastUsedFrom.Load(); p == nil || *p != host {
			k.lastUsedFrom.Store(&host)
		}
	}
	return k, nil
}

// account is who a key's requests count against in the rate limit: the user of a
// personal key, the organization of an organization or project-scoped key.
func (k *apiKey) account() string {
	if k.Kind == keyPersonal {
		return "user:" + k.UserID
	}
	return "org:" + k.OrgID
}

// keyUsable reports whether what a key belongs to still exists. Caller holds w.mu.
func (w *world) keyUsable(k *apiKey) bool {
	switch k.Kind {
	case keyPersonal:
		return w.users[k.UserID] != nil
	case keyOrganization:
		return w.orgs[k.OrgID] != nil
	case keyProject:
		p := w.projects[k.ProjectID]
		return w.orgs[k.OrgID] != nil && p != nil && p.OrgID == k.OrgID
	}
	return false
}

// canSee reports whether a key may act on a project at all. Caller holds w.mu.
func (w *world) canSee(k *apiKey, p *project) bool {
	switch k.Kind {
	case keyPersonal:
		if p.OrgID == "" {
			return p.OwnerID == k.UserID
		}
		o := w.orgs[p.OrgID]
		return o != nil && o.Members[k.UserID] != ""
	case keyOrganization:
		return p.OrgID == k.OrgID
	case keyProject:
		return p.ID == k.ProjectID && p.OrgID == k.OrgID
	}
	return false
}

// project finds the project of the request's {project_id} that the key may see, with
// what the control plane did meanwhile recorded (catchUp).
func (e *Emulator) project(c *call) (*project, error) {
	id := c.param("project_id")
	w := e.w
	w.mu.RLock()
	p := w.projects[id]
	visible := p != nil && w.canSee(c.key, p)
	w.mu.RUnlock()
	if !visible {
		return nil, projectNotFound(id)
	}
	if err := e.catchUp(p, c.now); err != nil {
		return nil, err
	}
	if err := e.checkAvailability(c, p); err != nil {
		return nil, err
	}
	return p, nil
}

// personal returns the user of a personal key, or a 403 saying which key to use.
func personalUser(k *apiKey, action string) (string, error) {
	switch k.Kind {
	case keyPersonal:
		return k.UserID, nil
	case keyProject:
		return "", forbidden("a project-scoped API key cannot %s; use a personal API key", action)
	}
	return "", forbidden("an organization API key cannot %s; use a personal API key", action)
}

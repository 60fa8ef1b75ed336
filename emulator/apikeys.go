package emulator

import (
	"net/http"
	"strconv"

	"github.com/neonform/neonform/api"
)

// API keys (docs/service.md, Authentication and API keys). Kinds are chosen by path:
//   - POST /api_keys makes a personal key of the calling user (personal keys only).
//   - POST /organizations/{org_id}/api_keys makes an organization key (only an admin of
//     the organization, with a personal key), or with "project_id" a project-scoped key
//     for a project of the organization (any member, with a personal key).
// The secret is in the create answer only; the world keeps its SHA-256. Personal keys are
// revoked by their owner (DELETE /api_keys/{id}); organization and project-scoped keys by
// the organization's admins (DELETE /organizations/{org_id}/api_keys/{id}). Revocation is
// immediate and permanent. Key management needs a personal key: a key is always made
// and revoked by a person.

type keyCreateBody struct {
	KeyName   *string `json:"key_name"`
	ProjectID *string `json:"project_id"`
}

func (b *keyCreateBody) name() (string, error) {
	if b.KeyName == nil || *b.KeyName == "" {
		return "", badRequest(`key_name is required: {"key_name": "ci"}`)
	}
	if len(*b.KeyName) > 64 {
		return "", badRequest("key_name must be at most 64 characters long")
	}
	return *b.KeyName, nil
}

func (e *Emulator) createKey(c *call) (int, any, error) {
	userID, err := personalUser(c.key, "create API keys")
	if err != nil {
		return 0, nil, err
	}
	var body keyCreateBody
	if err := decodeBody(c, &body, true); err != nil {
		return 0, nil, err
	}
	name, err := body.name()
	if err != nil {
		return 0, nil, err
	}
	if body.ProjectID != nil {
		return 0, nil, badRequest("project_id makes a project-scoped key: use POST /organizations/{org_id}/api_keys of the project's organization")
	}
	out := e.issueKey(&apiKey{Name: name, Kind: keyPersonal, UserID: userID, CreatedBy: userID, CreatedAt: c.now})
	return http.StatusOK, out.ApiKeyCreateResponse, e.save()
}

// issueKey makes a secret, stores the key with the secret's hash, and returns the
// answer that shows the secret this once.
func (e *Emulator) issueKey(k *apiKey) api.OrgApiKeyCreateResponse {
	secret := newSecret()
	k.Hash = hashSecret(secret)
	e.w.mu.Lock()
	e.w.addKey(k)
	e.w.mu.Unlock()
	return api.OrgApiKeyCreateResponse{
		ApiKeyCreateResponse: api.ApiKeyCreateResponse{ID: k.ID, Key: secret, Name: k.Name, CreatedAt: k.CreatedAt, CreatedBy: k.CreatedBy},
		ProjectID:            k.ProjectID,
	}
}

func (e *Emulator) listKeys(c *call) (int, any, error) {
	userID, err := personalUser(c.key, "list API keys")
	if err != nil {
		return 0, nil, err
	}
	w := e.w
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := []api.ApiKeysListResponseItem{}
	for _, id := range sortedKeys(w.keysByID) {
		if k := w.keysByID[id]; k.Kind == keyPersonal && k.UserID == userID && !k.Revoked {
			out = append(out, w.listItem(k))
		}
	}
	return http.StatusOK, out, nil
}

// listItem renders a key for a list. Caller holds w.mu.
func (w *world) listItem(k *apiKey) api.ApiKeysListResponseItem {
	at, from := k.lastUsed()
	creator := api.ApiKeyCreator{ID: k.CreatedBy}
	if u := w.users[k.CreatedBy]; u != nil {
		creator.Name = u.Name
	}
	return api.ApiKeysListResponseItem{ID: k.ID, Name: k.Name, CreatedAt: k.CreatedAt, CreatedBy: creator,
		LastUsedAt: at, LastUsedFromAddr: from}
}

func (e *Emulator) revokeKey(c *call) (int, any, error) {
	userID, err := personalUser(c.key, "revoke API keys")
	if err != nil {
		return 0, nil, err
	}
	return e.revoke(c, func(k *apiKey) bool { return k.Kind == keyPersonal && k.UserID == userID })
}

// revoke revokes the key of {key_id} if mine says the caller may; revoking twice
// answers the same. Keys the caller may not revoke are 404.
func (e *Emulator) revoke(c *call, mine func(*apiKey) bool) (int, any, error) {
	s := c.param("key_id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, nil, badRequest("key_id %q is not a key id (a whole number)", s)
	}
	w := e.w
	w.mu.Lock()
	k := w.keysByID[id]
	if k == nil || !mine(k) {
		w.mu.Unlock()
		return 0, nil, errorf(http.StatusNotFound, codeKeyNotFound, "API key %d not found among the keys you may revoke", id)
	}
	if !k.Revoked {
		k.Revoked = true
		at := c.now
		k.RevokedAt = &at
	}
	at, from := k.lastUsed()
	out := api.OrgApiKeyRevokeResponse{
		ApiKeyRevokeResponse: api.ApiKeyRevokeResponse{ID: k.ID, Name: k.Name, CreatedAt: k.CreatedAt, CreatedBy: k.CreatedBy,
			LastUsedAt: at, LastUsedFromAddr: from, Revoked: true},
		ProjectID: k.ProjectID,
	}
	w.mu.Unlock()
	if k.Kind == keyPersonal {
		return http.StatusOK, out.ApiKeyRevokeResponse, e.save()
	}
	return http.StatusOK, out, e.save()
}

// orgMember checks that the caller is a person in organization {org_id} and returns
// the user id and whether the user is an admin there.
func (e *Emulator) orgMember(c *call, action string) (string, bool, error) {
	userID, err := personalUser(c.key, action)
	if c.key.Kind == keyProject {
		err = forbidden("a project-scoped API key cannot act on its organization; use a personal API key of a member")
	}
	if err != nil {
		return "", false, err
	}
	orgID := c.param("org_id")
	e.w.mu.RLock()
	defer e.w.mu.RUnlock()
	o := e.w.orgs[orgID]
	if o == nil || o.Members[userID] == "" {
		return "", false, errorf(http.StatusNotFound, codeNotFound, "organization %s not found among the organizations of this key's user", orgID)
	}
	return userID, o.Members[userID] == roleAdmin, nil
}

func (e *Emulator) createOrgKey(c *call) (int, any, error) {
	userID, admin, err := e.orgMember(c, "create API keys")
	if err != nil {
		return 0, nil, err
	}
	var body keyCreateBody
	if err := decodeBody(c, &body, true); err != nil {
		return 0, nil, err
	}
	name, err := body.name()
	if err != nil {
		return 0, nil, err
	}
	orgID := c.param("org_id")
	k := &apiKey{Name: name, Kind: keyOrganization, OrgID: orgID, CreatedBy: userID, CreatedAt: c.now}
	if body.ProjectID == nil {
		if !admin {
			return 0, nil, forbidden("only administrators of organization %s can create organization API keys; a member can create a project-scoped key with \"project_id\"", orgID)
		}
	} else {
		e.w.mu.RLock()
		p := e.w.projects[*body.ProjectID]
		inOrg := p != nil && p.OrgID == orgID
		e.w.mu.RUnlock()
		if !inOrg {
			return 0, nil, errorf(http.StatusNotFound, codeProjectNotFound, "project %s not found in organization %s", *body.ProjectID, orgID)
		}
		k.Kind, k.ProjectID = keyProject, p.ID
	}
	return http.StatusOK, e.issueKey(k), e.save()
}

func (e *Emulator) listOrgKeys(c *call) (int, any, error) {
	_, admin, err := e.orgMember(c, "list API keys")
	if err != nil {
		return 0, nil, err
	}
	orgID := c.param("org_id")
	if !admin {
		return 0, nil, forbidden("only administrators of organization %s can list its API keys", orgID)
	}
	w := e.w
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := []api.OrgApiKeysListResponseItem{}
	for _, id := range sortedKeys(w.keysByID) {
		if k := w.keysByID[id]; k.Kind != keyPersonal && k.OrgID == orgID && !k.Revoked {
			out = append(out, api.OrgApiKeysListResponseItem{ApiKeysListResponseItem: w.listItem(k), ProjectID: k.ProjectID})
		}
	}
	return http.StatusOK, out, nil
}

func (e *Emulator) revokeOrgKey(c *call) (int, any, error) {
	_, admin, err := e.orgMember(c, "revoke API keys")
	if err != nil {
		return 0, nil, err
	}
	orgID := c.param("org_id")
	if !admin {
		return 0, nil, forbidden("only administrators of organization %s can revoke its API keys", orgID)
	}
	return e.revoke(c, func(k *apiKey) bool { return k.Kind != keyPersonal && k.OrgID == orgID })
}

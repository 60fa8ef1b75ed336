package api

import "time"

// Wire types of API keys (docs/service.md, Authentication and API keys), named as the OpenAPI description
// names them. A secret appears only in the answer that creates a key.

// ApiKeyCreateRequest is the body of POST /api_keys.
type ApiKeyCreateRequest struct {
	KeyName string `json:"key_name"`
}

// ApiKeyCreateResponse carries the secret, shown this once.
type ApiKeyCreateResponse struct {
	ID        int64     `json:"id"`
	Key       string    `json:"key"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"created_at"`
	CreatedBy string    `json:"created_by"`
}

// ApiKeyCreator is ApiKeyCreatorData.
type ApiKeyCreator struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Image string `json:"image"`
}

// ApiKeysListResponseItem is one key in the list (the list is a bare JSON array).
type ApiKeysListResponseItem struct {
	ID               int64         `json:"id"`
	Name             string        `json:"name"`
	CreatedAt        time.Time     `json:"created_at"`
	CreatedBy        ApiKeyCreator `json:"created_by"`
	LastUsedAt       *time.Time    `json:"last_used_at"`
	LastUsedFromAddr string        `json:"last_used_from_addr"`
}

// ApiKeyRevokeResponse is the answer to DELETE /api_keys/{key_id}.
type ApiKeyRevokeResponse struct {
	ID               int64      `json:"id"`
	Name             string     `json:"name"`
	CreatedAt        time.Time  `json:"created_at"`
	CreatedBy        string     `json:"created_by"`
	LastUsedAt       *time.Time `json:"last_used_at"`
	LastUsedFromAddr string     `json:"last_used_from_addr"`
	Revoked          bool       `json:"revoked"`
}

// OrgApiKeyCreateRequest is the body of POST /organizations/{org_id}/api_keys: an
// organization key, or with ProjectID a project-scoped key.
type OrgApiKeyCreateRequest struct {
	KeyName   string `json:"key_name"`
	ProjectID string `json:"project_id,omitempty"`
}

// OrgApiKeyCreateResponse carries the secret of an organization or project-scoped key, shown this once.
type OrgApiKeyCreateResponse struct {
	ApiKeyCreateResponse
	ProjectID string `json:"project_id,omitempty"`
}

// OrgApiKeysListResponseItem is one key in GET /organizations/{org_id}/api_keys (a bare JSON array).
type OrgApiKeysListResponseItem struct {
	ApiKeysListResponseItem
	ProjectID string `json:"project_id,omitempty"`
}

// OrgApiKeyRevokeResponse is the answer to DELETE /organizations/{org_id}/api_keys/{key_id}.
type OrgApiKeyRevokeResponse struct {
	ApiKeyRevokeResponse
	ProjectID string `json:"project_id,omitempty"`
}

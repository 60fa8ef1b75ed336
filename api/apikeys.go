package api

import (
	"context"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// CreateAPIKey creates a key named name. The answer carries the new secret,
// shown this once: the caller must not print or log it.
func (c *Client) CreateAPIKey(ctx context.Context, name string) (*ApiKeyCreateResponse, error) {
	if name == "" || utf8.RuneCountInString(name) > 64 {
		return nil, fmt.Errorf("api: an API key name must be 1 to 64 characters, got %d", utf8.RuneCountInString(name))
	}
	var out ApiKeyCreateResponse
	if err := c.Do(ctx, http.MethodPost, "/api_keys", ApiKeyCreateRequest{KeyName: name}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ListAPIKeys lists the account's keys (names and ids, never secrets).
func (c *Client) ListAPIKeys(ctx context.Context) ([]ApiKeysListResponseItem, error) {
	var out []ApiKeysListResponseItem
	if err := c.Do(ctx, http.MethodGet, "/api_keys", nil, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// RevokeAPIKey revokes a key at once and for good.
func (c *Client) RevokeAPIKey(ctx context.Context, keyID int64) (*ApiKeyRevokeResponse, error) {
	var out ApiKeyRevokeResponse
	if err := c.Do(ctx, http.MethodDelete, fmt.Sprintf("/api_keys/%d", keyID), nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

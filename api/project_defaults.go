package api

import (
	"context"
	"net/http"
)

// ProjectDefaultsUpdate is the body of PATCH /projects/{project_id} that
// changes a project's default_endpoint_settings alone (ProjectUpdateRequest).
type ProjectDefaultsUpdate struct {
	Project ProjectDefaultsPatch `json:"project"`
}

// ProjectDefaultsPatch is the project of a ProjectDefaultsUpdate.
type ProjectDefaultsPatch struct {
	DefaultEndpointSettings DefaultsSent `json:"default_endpoint_settings"`
}

// DefaultsSent is a DefaultEndpointSettings with every value neonform
// manages, none left out: the service keeps a default the update leaves out,
// so an empty pg_settings is sent as {} to clear the settings.
type DefaultsSent struct {
	PgSettings            map[string]string `json:"pg_settings"`
	AutoscalingLimitMinCU float64           `json:"autoscaling_limit_min_cu"`
	AutoscalingLimitMaxCU float64           `json:"autoscaling_limit_max_cu"`
	SuspendTimeoutSeconds int64             `json:"suspend_timeout_seconds"`
}

// Settings are the project's defaults once the update that sends s is done.
func (s DefaultsSent) Settings() *DefaultEndpointSettings {
	return &DefaultEndpointSettings{PgSettings: s.PgSettings, AutoscalingLimitMinCU: &s.AutoscalingLimitMinCU,
		AutoscalingLimitMaxCU: &s.AutoscalingLimitMaxCU, SuspendTimeoutSeconds: &s.SuspendTimeoutSeconds}
}

// projectDefaultsAnswer is what a project answer says of its defaults.
type projectDefaultsAnswer struct {
	Project struct {
		DefaultEndpointSettings *DefaultEndpointSettings `json:"default_endpoint_settings"`
	} `json:"project"`
	Operations []Operation `json:"operations"`
}

// ProjectDefaults returns a project's default_endpoint_settings: what the
// service gives the computes it creates without values of their own. Never
// nil: a project without any has an empty one.
func (c *Client) ProjectDefaults(ctx context.Context, projectID string) (*DefaultEndpointSettings, error) {
	path, err := projectPath(projectID)
	if err != nil {
		return nil, err
	}
	var out projectDefaultsAnswer
	if err := c.Do(ctx, http.MethodGet, path, nil, &out); err != nil {
		return nil, err
	}
	if out.Project.DefaultEndpointSettings == nil {
		return &DefaultEndpointSettings{}, nil
	}
	return out.Project.DefaultEndpointSettings, nil
}

// UpdateProjectDefaults sends a project's new default_endpoint_settings and
// returns the project's defaults as the service now has them, and the
// operations it started (often none: computes that exist keep theirs).
func (c *Client) UpdateProjectDefaults(ctx context.Context, projectID string, body ProjectDefaultsUpdate) (*DefaultEndpointSettings, []Operation, error) {
	path, err := projectPath(projectID)
	if err != nil {
		return nil, nil, err
	}
	var out projectDefaultsAnswer
	if err := c.Do(ctx, http.MethodPatch, path, body, &out); err != nil {
		return nil, nil, err
	}
	return out.Project.DefaultEndpointSettings, out.Operations, nil
}

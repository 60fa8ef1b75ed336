package api

// PreloadLibraries is the schema of the same name: the shared libraries a compute
// preloads (EndpointSettingsData.preload_libraries). UseDefaults is a pointer because
// false and absent differ: false turns the service's default libraries off.
type PreloadLibraries struct {
	UseDefaults      *bool    `json:"use_defaults,omitempty"`
	EnabledLibraries []string `json:"enabled_libraries,omitempty"`
}

// DefaultEndpointSettings is the schema of the same name: what a project gives the
// computes created in it without values of their own. Pointers tell a value left out
// from a zero.
type DefaultEndpointSettings struct {
	PgSettings            map[string]string `json:"pg_settings,omitempty"`
	PgbouncerSettings     map[string]string `json:"pgbouncer_settings,omitempty"`
	AutoscalingLimitMinCU *float64          `json:"autoscaling_limit_min_cu,omitempty"`
	AutoscalingLimitMaxCU *float64          `json:"autoscaling_limit_max_cu,omitempty"`
	SuspendTimeoutSeconds *int64            `json:"suspend_timeout_seconds,omitempty"`
}

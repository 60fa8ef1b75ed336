package api

// PreloadLibraries is the schema of the same name: the shared libraries a compute
// preloads (EndpointSettingsData.preload_libraries). UseDefaults is a pointer because
// false and absent differ: false turns the service's default libraries off.
type PreloadLibraries struct {
	UseDefaults      *bool    `json:"use_defaults,omitempty"`
	EnabledLibraries []string `json:"enabled_libraries,omitempty"`
}

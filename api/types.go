package api

import "time"

// Wire types of the service API v2, named as the OpenAPI description names them
// (api/testdata/neon-openapi-v2-computes.json). Optional fields are pointers or
// omitempty so that what we send and what we decode match the schema exactly.

// EndpointType is read_write (the branch's primary) or read_only (a read replica).
type EndpointType string

const (
	EndpointTypeReadWrite EndpointType = "read_write"
	EndpointTypeReadOnly  EndpointType = "read_only"
)

// EndpointState is the observed state of a compute.
type EndpointState string

const (
	EndpointStateInit   EndpointState = "init"
	EndpointStateActive EndpointState = "active"
	EndpointStateIdle   EndpointState = "idle"
)

// OperationStatus values; see Terminal and Failed.
type OperationStatus string

const (
	OperationScheduling OperationStatus = "scheduling"
	OperationRunning    OperationStatus = "running"
	OperationFinished   OperationStatus = "finished"
	OperationFailed     OperationStatus = "failed"
	OperationError      OperationStatus = "error"
	OperationCancelling OperationStatus = "cancelling"
	OperationCancelled  OperationStatus = "cancelled"
	OperationSkipped    OperationStatus = "skipped"
)

// Terminal reports whether an operation with this status will not change again.
func (s OperationStatus) Terminal() bool {
	switch s {
	case OperationFinished, OperationSkipped, OperationFailed, OperationError, OperationCancelled:
		return true
	}
	return false
}

// Failed reports whether the status is a terminal failure.
func (s OperationStatus) Failed() bool {
	return s == OperationFailed || s == OperationError || s == OperationCancelled
}

// OperationAction values the service uses for computes.
type OperationAction string

const (
	ActionStartCompute   OperationAction = "start_compute"
	ActionSuspendCompute OperationAction = "suspend_compute"
	ActionApplyConfig    OperationAction = "apply_config"
	ActionCreateTimeline OperationAction = "create_timeline"
	// ActionCheckAvailability is the control plane waking an idle compute to check
	// that it starts: it holds the project like any other operation.
	ActionCheckAvailability OperationAction = "check_availability"
	ActionCreateBranch      OperationAction = "create_branch"
	ActionDeleteTimeline    OperationAction = "delete_timeline"
)

// EndpointSettings is EndpointSettingsData as the service returns it: an
// endpoint without Postgres settings comes back as "settings": {}.
type EndpointSettings struct {
	PgSettings        map[string]string `json:"pg_settings,omitempty"`
	PgbouncerSettings map[string]string `json:"pgbouncer_settings,omitempty"`
	PreloadLibraries  *PreloadLibraries `json:"preload_libraries,omitempty"`
}

// SettingsRequest is the settings object of a create or an update. Its
// PgSettings replace the compute's Postgres settings whole, so they are always
// sent: an empty map clears them, as "pg_settings": {}. (The service answers
// 400 "settings must not be nil" to a create whose settings lack pg_settings,
// which is why this is not EndpointSettings.) The client sends what it is
// given: whoever builds one says "none" as an empty map, never nil, which
// would go out as null (the attribute table, internal/managed, with its Settings).
type SettingsRequest struct {
	PgSettings map[string]string `json:"pg_settings"`
}

// Endpoint is the compute endpoint record (components.schemas.Endpoint).
type Endpoint struct {
	Host                  string           `json:"host"`
	ID                    string           `json:"id"`
	Name                  string           `json:"name,omitempty"`
	ProjectID             string           `json:"project_id"`
	BranchID              string           `json:"branch_id"`
	AutoscalingLimitMinCU float64          `json:"autoscaling_limit_min_cu"`
	AutoscalingLimitMaxCU float64          `json:"autoscaling_limit_max_cu"`
	RegionID              string           `json:"region_id"`
	Type                  EndpointType     `json:"type"`
	CurrentState          EndpointState    `json:"current_state"`
	PendingState          EndpointState    `json:"pending_state,omitempty"`
	Settings              EndpointSettings `json:"settings"`
	PoolerEnabled         bool             `json:"pooler_enabled"`
	PoolerMode            string           `json:"pooler_mode"`
	Disabled              bool             `json:"disabled"`
	PasswordlessAccess    bool             `json:"passwordless_access"`
	LastActive            *time.Time       `json:"last_active,omitempty"`
	CreationSource        string           `json:"creation_source"`
	CreatedAt             time.Time        `json:"created_at"`
	UpdatedAt             time.Time        `json:"updated_at"`
	StartedAt             *time.Time       `json:"started_at,omitempty"`
	SuspendedAt           *time.Time       `json:"suspended_at,omitempty"`
	ProxyHost             string           `json:"proxy_host"`
	// SuspendTimeoutSeconds: 0 = service default (300 s), -1 = never suspend.
	SuspendTimeoutSeconds int64  `json:"suspend_timeout_seconds"`
	Provisioner           string `json:"provisioner"`
}

// EndpointCreate is the inner object of EndpointCreateRequest.
type EndpointCreate struct {
	BranchID              string           `json:"branch_id"`
	Type                  EndpointType     `json:"type"`
	RegionID              string           `json:"region_id,omitempty"`
	Name                  string           `json:"name,omitempty"`
	Settings              *SettingsRequest `json:"settings,omitempty"`
	AutoscalingLimitMinCU *float64         `json:"autoscaling_limit_min_cu,omitempty"`
	AutoscalingLimitMaxCU *float64         `json:"autoscaling_limit_max_cu,omitempty"`
	Disabled              *bool            `json:"disabled,omitempty"`
	SuspendTimeoutSeconds *int64           `json:"suspend_timeout_seconds,omitempty"`
}

// EndpointCreateRequest is the body of POST /projects/{project_id}/endpoints.
type EndpointCreateRequest struct {
	Endpoint EndpointCreate `json:"endpoint"`
}

// EndpointUpdate is the inner object of EndpointUpdateRequest; nil fields are
// not sent, and the others are set to what they hold (Settings included:
// &SettingsRequest{} clears the Postgres settings).
type EndpointUpdate struct {
	BranchID              *string          `json:"branch_id,omitempty"`
	Name                  *string          `json:"name,omitempty"`
	Settings              *SettingsRequest `json:"settings,omitempty"`
	AutoscalingLimitMinCU *float64         `json:"autoscaling_limit_min_cu,omitempty"`
	AutoscalingLimitMaxCU *float64         `json:"autoscaling_limit_max_cu,omitempty"`
	Disabled              *bool            `json:"disabled,omitempty"`
	SuspendTimeoutSeconds *int64           `json:"suspend_timeout_seconds,omitempty"`
}

// EndpointUpdateRequest is the body of PATCH /projects/{project_id}/endpoints/{endpoint_id}.
type EndpointUpdateRequest struct {
	Endpoint EndpointUpdate `json:"endpoint"`
}

// EndpointResponse wraps one endpoint.
type EndpointResponse struct {
	Endpoint Endpoint `json:"endpoint"`
}

// EndpointsResponse wraps a list of endpoints.
type EndpointsResponse struct {
	Endpoints []Endpoint `json:"endpoints"`
}

// EndpointSummary is what a plan reads of an endpoint (its id, state and the
// attributes neonform manages), decoded from the same answer as an Endpoint
// without the rest: hosts, times and pooler settings cost encoding/json 40%
// of the time of a list, and a plan of 10,000 projects reads 100,000.
type EndpointSummary struct {
	ID                    string        `json:"id"`
	Name                  string        `json:"name,omitempty"`
	BranchID              string        `json:"branch_id"`
	AutoscalingLimitMinCU float64       `json:"autoscaling_limit_min_cu"`
	AutoscalingLimitMaxCU float64       `json:"autoscaling_limit_max_cu"`
	Type                  EndpointType  `json:"type"`
	CurrentState          EndpointState `json:"current_state"`
	Settings              struct {
		PgSettings map[string]string `json:"pg_settings,omitempty"`
	} `json:"settings"`
	Disabled              bool  `json:"disabled"`
	SuspendTimeoutSeconds int64 `json:"suspend_timeout_seconds"`
}

// Endpoint is the summary as an Endpoint, with only the summary's fields set.
func (s *EndpointSummary) Endpoint() Endpoint {
	return Endpoint{ID: s.ID, Name: s.Name, BranchID: s.BranchID, AutoscalingLimitMinCU: s.AutoscalingLimitMinCU,
		AutoscalingLimitMaxCU: s.AutoscalingLimitMaxCU, Type: s.Type, CurrentState: s.CurrentState,
		Settings: EndpointSettings{PgSettings: s.Settings.PgSettings}, Disabled: s.Disabled, SuspendTimeoutSeconds: s.SuspendTimeoutSeconds}
}

// SummaryEndpoints are summaries as Endpoints (each its Endpoint).
func SummaryEndpoints(sums []EndpointSummary) []Endpoint {
	out := make([]Endpoint, len(sums))
	for i := range sums {
		out[i] = sums[i].Endpoint()
	}
	return out
}

// EndpointOperations is the answer of every call that changes an endpoint.
type EndpointOperations struct {
	Endpoint   Endpoint    `json:"endpoint"`
	Operations []Operation `json:"operations"`
}

// Operation is one step of the service's per-project operation chain.
type Operation struct {
	ID              string          `json:"id"`
	ProjectID       string          `json:"project_id"`
	BranchID        string          `json:"branch_id,omitempty"`
	EndpointID      string          `json:"endpoint_id,omitempty"`
	Action          OperationAction `json:"action"`
	Status          OperationStatus `json:"status"`
	Error           string          `json:"error,omitempty"`
	FailuresCount   int32           `json:"failures_count"`
	RetryAt         *time.Time      `json:"retry_at,omitempty"`
	CreatedAt       time.Time       `json:"created_at"`
	UpdatedAt       time.Time       `json:"updated_at"`
	TotalDurationMs int32           `json:"total_duration_ms"`
}

// OperationResponse wraps one operation.
type OperationResponse struct {
	Operation Operation `json:"operation"`
}

// OperationsResponse is a page of operations (Pagination style: cursor).
type OperationsResponse struct {
	Operations []Operation `json:"operations"`
	Pagination *Pagination `json:"pagination,omitempty"`
}

// Pagination is the older cursor style (projects, operations): pass cursor back as is.
type Pagination struct {
	Cursor string `json:"cursor"`
}

// CursorPagination is the newer style (branches): send next back as cursor.
type CursorPagination struct {
	Next      string `json:"next,omitempty"`
	SortBy    string `json:"sort_by,omitempty"`
	SortOrder string `json:"sort_order,omitempty"`
}

// ProjectOwner is ProjectOwnerData.
type ProjectOwner struct {
	Email            string `json:"email"`
	Name             string `json:"name"`
	BranchesLimit    int    `json:"branches_limit"`
	SubscriptionType string `json:"subscription_type"`
}

// Project is the full project record (components.schemas.Project).
type Project struct {
	ID                          string        `json:"id"`
	PlatformID                  string        `json:"platform_id"`
	RegionID                    string        `json:"region_id"`
	Name                        string        `json:"name"`
	Provisioner                 string        `json:"provisioner"`
	PgVersion                   int           `json:"pg_version"`
	ProxyHost                   string        `json:"proxy_host"`
	BranchLogicalSizeLimit      int64         `json:"branch_logical_size_limit"`
	BranchLogicalSizeLimitBytes int64         `json:"branch_logical_size_limit_bytes"`
	StorePasswords              bool          `json:"store_passwords"`
	CPUUsedSec                  int64         `json:"cpu_used_sec"`
	ActiveTimeSeconds           int64         `json:"active_time_seconds"`
	ComputeTimeSeconds          int64         `json:"compute_time_seconds"`
	WrittenDataBytes            int64         `json:"written_data_bytes"`
	DataTransferBytes           int64         `json:"data_transfer_bytes"`
	DataStorageBytesHour        int64         `json:"data_storage_bytes_hour"`
	CreationSource              string        `json:"creation_source"`
	HistoryRetentionSeconds     int32         `json:"history_retention_seconds"`
	CreatedAt                   time.Time     `json:"created_at"`
	UpdatedAt                   time.Time     `json:"updated_at"`
	ConsumptionPeriodStart      time.Time     `json:"consumption_period_start"`
	ConsumptionPeriodEnd        time.Time     `json:"consumption_period_end"`
	OwnerID                     string        `json:"owner_id"`
	Owner                       *ProjectOwner `json:"owner,omitempty"`
	OrgID                       string        `json:"org_id,omitempty"`
	ComputeLastActiveAt         *time.Time    `json:"compute_last_active_at,omitempty"`
}

// ProjectListItem is a project as the list of projects returns it.
type ProjectListItem struct {
	ID                          string     `json:"id"`
	PlatformID                  string     `json:"platform_id"`
	RegionID                    string     `json:"region_id"`
	Name                        string     `json:"name"`
	Provisioner                 string     `json:"provisioner"`
	PgVersion                   int        `json:"pg_version"`
	ProxyHost                   string     `json:"proxy_host"`
	BranchLogicalSizeLimit      int64      `json:"branch_logical_size_limit"`
	BranchLogicalSizeLimitBytes int64      `json:"branch_logical_size_limit_bytes"`
	StorePasswords              bool       `json:"store_passwords"`
	ActiveTime                  int64      `json:"active_time"`
	CPUUsedSec                  int64      `json:"cpu_used_sec"`
	CreationSource              string     `json:"creation_source"`
	CreatedAt                   time.Time  `json:"created_at"`
	UpdatedAt                   time.Time  `json:"updated_at"`
	OwnerID                     string     `json:"owner_id"`
	OrgID                       string     `json:"org_id,omitempty"`
	ComputeLastActiveAt         *time.Time `json:"compute_last_active_at,omitempty"`
}

// ProjectsResponse is a page of the list of projects.
type ProjectsResponse struct {
	Projects              []ProjectListItem `json:"projects"`
	UnavailableProjectIDs []string          `json:"unavailable_project_ids,omitempty"`
	Pagination            *Pagination       `json:"pagination,omitempty"`
	// Applications and Integrations are required by the schema (maps by project id), so never omitted.
	Applications map[string]any `json:"applications"`
	Integrations map[string]any `json:"integrations"`
}

// ProjectResponse wraps one project.
type ProjectResponse struct {
	Project Project `json:"project"`
}

// ProjectOperations is the answer to updating a project.
type ProjectOperations struct {
	Project    Project     `json:"project"`
	Operations []Operation `json:"operations"`
}

// ProjectCreate is the inner object of ProjectCreateRequest (the fields we use).
type ProjectCreate struct {
	Name      string `json:"name,omitempty"`
	RegionID  string `json:"region_id,omitempty"`
	PgVersion int    `json:"pg_version,omitempty"`
	OrgID     string `json:"org_id,omitempty"`
}

// ProjectCreateRequest is the body of POST /projects.
type ProjectCreateRequest struct {
	Project ProjectCreate `json:"project"`
}

// ProjectCreated is the answer to POST /projects (201): the project, its
// default branch, its primary compute and the operations that start them.
type ProjectCreated struct {
	Project    Project     `json:"project"`
	Branch     Branch      `json:"branch"`
	Endpoints  []Endpoint  `json:"endpoints"`
	Operations []Operation `json:"operations"`
	// The schema also carries connection_uris, roles and databases; we leave them empty.
	ConnectionURIs []any `json:"connection_uris"`
	Roles          []any `json:"roles"`
	Databases      []any `json:"databases"`
}

// Branch is components.schemas.Branch.
type Branch struct {
	ID                 string    `json:"id"`
	ProjectID          string    `json:"project_id"`
	ParentID           string    `json:"parent_id,omitempty"`
	Name               string    `json:"name"`
	CurrentState       string    `json:"current_state"`
	PendingState       string    `json:"pending_state,omitempty"`
	StateChangedAt     time.Time `json:"state_changed_at"`
	CreationSource     string    `json:"creation_source"`
	Default            bool      `json:"default"`
	Protected          bool      `json:"protected"`
	CPUUsedSec         int64     `json:"cpu_used_sec"`
	ComputeTimeSeconds int64     `json:"compute_time_seconds"`
	ActiveTimeSeconds  int64     `json:"active_time_seconds"`
	WrittenDataBytes   int64     `json:"written_data_bytes"`
	DataTransferBytes  int64     `json:"data_transfer_bytes"`
	CreatedAt          time.Time `json:"created_at"`
	UpdatedAt          time.Time `json:"updated_at"`
}

// BranchesResponse is a page of branches (CursorPagination style).
type BranchesResponse struct {
	Branches    []Branch          `json:"branches"`
	Annotations map[string]any    `json:"annotations"` // required by the schema, even when empty
	Pagination  *CursorPagination `json:"pagination,omitempty"`
}

// BranchResponse wraps one branch. GET of one branch also carries its
// annotation (the schema requires it there); other answers leave it out.
type BranchResponse struct {
	Branch     Branch      `json:"branch"`
	Annotation *Annotation `json:"annotation,omitempty"`
}

// Annotation is AnnotationData: labels that tools attach to a branch.
type Annotation struct {
	Object AnnotationObject  `json:"object"`
	Value  map[string]string `json:"value"`
}

// AnnotationObject is AnnotationObjectData: what the annotation is about.
type AnnotationObject struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// BranchOperations is the answer to updating or deleting a branch.
type BranchOperations struct {
	Branch     Branch      `json:"branch"`
	Operations []Operation `json:"operations"`
}

// BranchCreate is the inner branch object of BranchCreateRequest.
type BranchCreate struct {
	ParentID string `json:"parent_id,omitempty"`
	Name     string `json:"name,omitempty"`
}

// BranchCreateEndpoint is BranchCreateRequestEndpointOptions.
type BranchCreateEndpoint struct {
	Type EndpointType `json:"type"`
}

// BranchCreateRequest is the body of POST /projects/{project_id}/branches.
type BranchCreateRequest struct {
	Branch    *BranchCreate          `json:"branch,omitempty"`
	Endpoints []BranchCreateEndpoint `json:"endpoints,omitempty"`
}

// BranchCreated is the answer to creating a branch (201).
type BranchCreated struct {
	Branch     Branch      `json:"branch"`
	Endpoints  []Endpoint  `json:"endpoints"`
	Operations []Operation `json:"operations"`
	// Required by the schema (CreatedBranch); the emulator sends them empty.
	Roles     []any `json:"roles"`
	Databases []any `json:"databases"`
}

// GeneralError is the service's error body.
type GeneralError struct {
	RequestID string `json:"request_id,omitempty"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

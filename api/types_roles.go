package api

import "time"

// Wire types of a branch's Postgres roles and databases and of the connection URIs
// built from them (schemas Role, Database, ConnectionDetails and their responses).
// neonform does not manage these; the emulator serves them so that the service's
// own CLI works beside it.

// Role is a Postgres role of a branch. Password is set only where the service shows
// it: when the role is created (with its project or branch).
type Role struct {
	BranchID  string    `json:"branch_id"`
	Name      string    `json:"name"`
	Password  string    `json:"password,omitempty"`
	Protected bool      `json:"protected"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// RolesResponse is the list of a branch's roles.
type RolesResponse struct {
	Roles []Role `json:"roles"`
}

// RoleResponse wraps one role.
type RoleResponse struct {
	Role Role `json:"role"`
}

// RolePasswordResponse is the answer of reveal_password.
type RolePasswordResponse struct {
	Password string `json:"password"`
}

// Database is a Postgres database of a branch.
type Database struct {
	ID        int64     `json:"id"`
	BranchID  string    `json:"branch_id"`
	Name      string    `json:"name"`
	OwnerName string    `json:"owner_name"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// DatabasesResponse is the list of a branch's databases.
type DatabasesResponse struct {
	Databases []Database `json:"databases"`
}

// DatabaseResponse wraps one database.
type DatabaseResponse struct {
	Database Database `json:"database"`
}

// ConnectionURIResponse is the answer of GET /projects/{project_id}/connection_uri.
type ConnectionURIResponse struct {
	URI string `json:"uri"`
}

// ConnectionDetails is one connection URI in the answer that creates a project or a
// branch, with its parts.
type ConnectionDetails struct {
	ConnectionURI        string               `json:"connection_uri"`
	ConnectionParameters ConnectionParameters `json:"connection_parameters"`
}

// ConnectionParameters are the parts of a connection URI.
type ConnectionParameters struct {
	Database   string `json:"database"`
	Password   string `json:"password"`
	Role       string `json:"role"`
	Host       string `json:"host"`
	PoolerHost string `json:"pooler_host"`
}

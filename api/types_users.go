package api

import "time"

// Wire types of the account behind a personal API key (schemas
// CurrentUserInfoResponse and Organization). neonform does not read them; the emulator
// serves them because the service's CLI asks for them before most commands.

// CurrentUserInfo is the answer of GET /users/me.
type CurrentUserInfo struct {
	ActiveSecondsLimit  int64             `json:"active_seconds_limit"`
	AuthAccounts        []UserAuthAccount `json:"auth_accounts"`
	Email               string            `json:"email"`
	ID                  string            `json:"id"`
	Image               string            `json:"image"`
	Login               string            `json:"login"`
	Name                string            `json:"name"`
	LastName            string            `json:"last_name"`
	ProjectsLimit       int64             `json:"projects_limit"`
	BranchesLimit       int64             `json:"branches_limit"`
	MaxAutoscalingLimit float64           `json:"max_autoscaling_limit"`
	Plan                string            `json:"plan"`
}

// UserAuthAccount is CurrentUserAuthAccount: an identity the user signs in with.
type UserAuthAccount struct {
	Email    string `json:"email"`
	Image    string `json:"image"`
	Login    string `json:"login"`
	Name     string `json:"name"`
	Provider string `json:"provider"`
}

// Organization is an organization the user is a member of.
type Organization struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Handle    string    `json:"handle"`
	Plan      string    `json:"plan"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	ManagedBy string    `json:"managed_by"`
}

// OrganizationsResponse is the answer of GET /users/me/organizations.
type OrganizationsResponse struct {
	Organizations []Organization `json:"organizations"`
}

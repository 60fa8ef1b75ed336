package api

import "time"

// Wire types of the account behind a personal API key (schemas
// CurrentUserInfoResponse and Organization). neonform reads the organizations to say
// which org_id to set (organizations.go); the emulator serves them because the
// service's CLI asks for them before most commands.

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
	// BillingAccount is the user's personal account; nil for a user who belongs to
	// organizations only, whose project calls must name one (org_id).
	BillingAccount *BillingAccount `json:"billing_account,omitempty"`
}

// BillingAccount is the schema BillingAccount, its required fields.
type BillingAccount struct {
	State             string        `json:"state"`
	PaymentSource     PaymentSource `json:"payment_source"`
	SubscriptionType  string        `json:"subscription_type"`
	PaymentMethod     string        `json:"payment_method"`
	QuotaResetAtLast  time.Time     `json:"quota_reset_at_last"`
	Name              string        `json:"name"`
	Email             string        `json:"email"`
	AddressCity       string        `json:"address_city"`
	AddressCountry    string        `json:"address_country"`
	AddressLine1      string        `json:"address_line1"`
	AddressLine2      string        `json:"address_line2"`
	AddressPostalCode string        `json:"address_postal_code"`
	AddressState      string        `json:"address_state"`
}

// PaymentSource is how a billing account pays ("card", or "" for none).
type PaymentSource struct {
	Type string `json:"type"`
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

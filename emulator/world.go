package emulator

import (
	"crypto/sha256"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// The world is everything the emulator knows. Locking, chosen so that reads of one
// project never wait for another project and nothing is held while JSON is encoded:
//   - world.mu guards the maps of users, organizations, keys and projects (not what a
//     project holds). Held only for lookups and inserts.
//   - project.mu guards everything inside one project: branches, endpoints, operations.
//     List handlers copy what they need under RLock and encode after unlocking.
//   - index.mu guards the endpoint-id -> project index; it is a leaf lock, taken while
//     holding a project lock but never the other way round.
//
// Lock order: world.mu before project.mu before index.mu.
type world struct {
	mu sync.RWMutex

	users     map[string]*user
	firstUser string // the user of the console key (Options.APIKey)
	orgs      map[string]*org

	keys      map[[32]byte]*apiKey // by SHA-256 of the secret
	keysByID  map[int64]*apiKey
	nextKeyID int64

	projects   map[string]*project
	projectIDs []string // sorted, for keyset pagination of the project list

	index struct {
		mu        sync.Mutex
		endpoints map[string]string // endpoint id -> project id
		branches  map[string]string // branch id -> project id
	}
}

func newWorld() *world {
	w := &world{
		users:     map[string]*user{},
		orgs:      map[string]*org{},
		keys:      map[[32]byte]*apiKey{},
		keysByID:  map[int64]*apiKey{},
		nextKeyID: 774735,
		projects:  map[string]*project{},
	}
	w.index.endpoints = map[string]string{}
	w.index.branches = map[string]string{}
	return w
}

type user struct {
	ID    string
	Name  string
	Email string
	Tier  sizing.Tier
	// OrgOnly: the user has no personal account, only organizations (how accounts
	// are made today): a list or a create of projects must name the organization
	// (organizations.go).
	OrgOnly bool
}

type orgRole string

const (
	roleAdmin  orgRole = "admin"
	roleMember orgRole = "member"
)

type org struct {
	ID        string
	Name      string
	Tier      sizing.Tier
	Members   map[string]orgRole // user id -> role
	CreatedAt time.Time
}

type keyKind string

const (
	keyPersonal     keyKind = "personal"
	keyOrganization keyKind = "organization"
	keyProject      keyKind = "project"
)

// apiKey is a key as stored: the hash of its secret, never the secret.
type apiKey struct {
	ID        int64
	Name      string
	Kind      keyKind
	Hash      [32]byte
	UserID    string // personal: the owner
	OrgID     string // organization and project keys
	ProjectID string // project keys
	CreatedBy string // user id
	CreatedAt time.Time
	Revoked   bool
	RevokedAt *time.Time

	// Updated on every request without taking world.mu for writing.
	lastUsedAt   atomic.Int64 // unix nanoseconds, 0 = never
	lastUsedFrom atomic.Pointer[string]
}

func hashSecret(secret string) [32]byte { return sha256.Sum256([]byte(secret)) }

func (k *apiKey) lastUsed() (*time.Time, string) {
	var at *time.Time
	if n := k.lastUsedAt.Load(); n != 0 {
		t := time.Unix(0, n).UTC()
		at = &t
	}
	from := ""
	if p := k.lastUsedFrom.Load(); p != nil {
		from = *p
	}
	return at, from
}

// project holds one project and everything in it, under its own lock.
type project struct {
	mu sync.RWMutex

	// Fixed at creation, so they may be read without the lock; except OrgID, which a
	// transfer changes holding both world.mu and project.mu, so either lock reads it.
	ID        string
	OwnerID   string // the user who owns it (personal) or created it (organization)
	OrgID     string // "" for a personal project
	RegionID  string
	CreatedAt time.Time

	Name                    string
	Tier                    sizing.Tier
	PgVersion               int
	HistoryRetentionSeconds int32
	CreationSource          string
	UpdatedAt               time.Time
	// Defaults are the project's default_endpoint_settings: what a compute created
	// without values of its own gets. nil when the project has none.
	Defaults *api.DefaultEndpointSettings
	deleted  bool

	branches      map[string]*branch
	endpoints     map[string]*endpoint
	endpointOrder []*endpoint // creation order: the order of the endpoint list
	ops           []*operation
	opIndex       map[string]int // operation id -> position in ops
	busyUntil     time.Time      // when the last operation of the chain finishes
}

func newProject() *project {
	return &project{
		branches:  map[string]*branch{},
		endpoints: map[string]*endpoint{},
		opIndex:   map[string]int{},
	}
}

// busy reports whether an operation of the project has not finished at now: then every
// mutation is refused with 423, as the service serialises operations per project.
func (p *project) busy(now time.Time) bool { return p.busyUntil.After(now) }

func (p *project) defaultBranch() *branch {
	for _, b := range p.branches {
		if b.Default {
			return b
		}
	}
	return nil
}

func (p *project) branchByName(name string) *branch {
	for _, b := range p.branches {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// readWriteOn returns the read_write endpoint of a branch, if any.
func (p *project) readWriteOn(branchID string) *endpoint {
	for _, ep := range p.endpointOrder {
		if ep.BranchID == branchID && ep.Type == api.EndpointTypeReadWrite {
			return ep
		}
	}
	return nil
}

func (p *project) addEndpoint(ep *endpoint) {
	p.endpoints[ep.ID] = ep
	p.endpointOrder = append(p.endpointOrder, ep)
}

func (p *project) removeEndpoint(id string) {
	delete(p.endpoints, id)
	p.endpointOrder = slices.DeleteFunc(p.endpointOrder, func(ep *endpoint) bool { return ep.ID == id })
}

type branch struct {
	ID        string    `json:"id"`
	ProjectID string    `json:"-"`
	ParentID  string    `json:"parent_id,omitempty"`
	Name      string    `json:"name"`
	Default   bool      `json:"default"`
	Protected bool      `json:"protected"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// ReadyAt is when the branch's create_branch (or create_timeline) operation finishes;
	// before that it is in state init and computes cannot be created on it (422).
	ReadyAt        time.Time `json:"ready_at"`
	CreationSource string    `json:"creation_source"`
	// Roles and Databases are the branch's Postgres roles and databases (roles.go).
	Roles     []role     `json:"roles,omitempty"`
	Databases []database `json:"databases,omitempty"`
	// Annotations are the labels tools attach to the branch (annotation_value).
	Annotations map[string]string `json:"annotations,omitempty"`
}

// endpoint is a compute as stored. Its state is not stored: see lifecycle.
type endpoint struct {
	ID                 string                `json:"id"`
	ProjectID          string                `json:"-"`
	BranchID           string                `json:"branch_id"`
	Name               string                `json:"name,omitempty"`
	Type               api.EndpointType      `json:"type"`
	RegionID           string                `json:"region_id"`
	Host               string                `json:"host"`
	ProxyHost          string                `json:"proxy_host"`
	MinCU              float64               `json:"autoscaling_limit_min_cu"`
	MaxCU              float64               `json:"autoscaling_limit_max_cu"`
	PgSettings         map[string]string     `json:"pg_settings,omitempty"`        // replaced, never changed in place
	PgbouncerSettings  map[string]string     `json:"pgbouncer_settings,omitempty"` // likewise
	PreloadLibraries   *api.PreloadLibraries `json:"preload_libraries,omitempty"`  // likewise
	PoolerEnabled      bool                  `json:"pooler_enabled"`
	PoolerMode         string                `json:"pooler_mode"`
	Disabled           bool                  `json:"disabled"`
	PasswordlessAccess bool                  `json:"passwordless_access"`
	Provisioner        string                `json:"provisioner"`
	SuspendTimeout     int64                 `json:"suspend_timeout_seconds"`
	CreationSource     string                `json:"creation_source"`
	CreatedAt          time.Time             `json:"created_at"`
	UpdatedAt          time.Time             `json:"updated_at"`
	Life               lifecycle             `json:"lifecycle"`
	// conns counts the client sessions open on it (sessions.go); not saved.
	conns int
	// run is the compute's run (sessions.go): it changes when the compute stops; not saved.
	run uint64
}

// operation is one step of a project's chain. Its status is derived from the clock:
// scheduling before StartAt, running until FinishAt, finished after.
type operation struct {
	ID         string              `json:"id"`
	ProjectID  string              `json:"-"`
	BranchID   string              `json:"branch_id,omitempty"`
	EndpointID string              `json:"endpoint_id,omitempty"`
	Action     api.OperationAction `json:"action"`
	Step       int                 `json:"step"` // position in the chain started by one call: 0 runs first
	CreatedAt  time.Time           `json:"created_at"`
	StartAt    time.Time           `json:"start_at"`
	FinishAt   time.Time           `json:"finish_at"`
}

// addProject registers a new project; the caller holds no project lock.
func (w *world) addProject(p *project) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.projects[p.ID] = p
	i, _ := slices.BinarySearch(w.projectIDs, p.ID)
	w.projectIDs = slices.Insert(w.projectIDs, i, p.ID)
}

func (w *world) removeProject(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.projects, id)
	if i, ok := slices.BinarySearch(w.projectIDs, id); ok {
		w.projectIDs = slices.Delete(w.projectIDs, i, i+1)
	}
}

func (w *world) project(id string) *project {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.projects[id]
}

// claimEndpointID records a new endpoint id; false if it is taken (then draw another).
func (w *world) claimEndpointID(id, projectID string) bool {
	w.index.mu.Lock()
	defer w.index.mu.Unlock()
	if _, taken := w.index.endpoints[id]; taken {
		return false
	}
	w.index.endpoints[id] = projectID
	return true
}

func (w *world) claimBranchID(id, projectID string) bool {
	w.index.mu.Lock()
	defer w.index.mu.Unlock()
	if _, taken := w.index.branches[id]; taken {
		return false
	}
	w.index.branches[id] = projectID
	return true
}

func (w *world) forgetEndpoint(id string) {
	w.index.mu.Lock()
	delete(w.index.endpoints, id)
	w.index.mu.Unlock()
}

func (w *world) forgetBranch(id string) {
	w.index.mu.Lock()
	delete(w.index.branches, id)
	w.index.mu.Unlock()
}

func (w *world) projectOfEndpoint(id string) string {
	w.index.mu.Lock()
	defer w.index.mu.Unlock()
	return w.index.endpoints[id]
}

package emulator

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/bounded"
	"github.com/neonform/neonform/sizing"
)

// worldFormat is the version of the world file; README.md describes the format.
const worldFormat = 1

type worldDoc struct {
	FormatVersion int          `json:"format_version"`
	Users         []userDoc    `json:"users"`
	Organizations []orgDoc     `json:"organizations"`
	APIKeys       []keyDoc     `json:"api_keys"`
	NextKeyID     int64        `json:"next_key_id,omitempty"`
	Projects      []projectDoc `json:"projects"`
}

type userDoc struct {
	ID    string      `json:"id"`
	Name  string      `json:"name"`
	Email string      `json:"email"`
	Tier  sizing.Tier `json:"tier,omitempty"`
	// OrgOnly: no personal account, organizations only (user.OrgOnly).
	OrgOnly bool `json:"org_only,omitempty"`
}

type memberDoc struct {
	UserID string  `json:"user_id"`
	Role   orgRole `json:"role"`
}

type orgDoc struct {
	ID        string      `json:"id"`
	Name      string      `json:"name"`
	Tier      sizing.Tier `json:"tier,omitempty"`
	Members   []memberDoc `json:"members"`
	CreatedAt time.Time   `json:"created_at,omitzero"`
}

type keyDoc struct {
	ID   int64   `json:"id"`
	Name string  `json:"name"`
	Kind keyKind `json:"kind"`
	// Hash is "sha256:" and the hex digest of the secret. A seed file may give Secret
	// instead: it is hashed on load and never written back.
	Hash             string     `json:"hash,omitempty"`
	Secret           string     `json:"secret,omitempty"`
	UserID           string     `json:"user_id,omitempty"`
	OrgID            string     `json:"org_id,omitempty"`
	ProjectID        string     `json:"project_id,omitempty"`
	CreatedBy        string     `json:"created_by"`
	CreatedAt        time.Time  `json:"created_at"`
	Revoked          bool       `json:"revoked,omitempty"`
	RevokedAt        *time.Time `json:"revoked_at,omitempty"`
	LastUsedAt       *time.Time `json:"last_used_at,omitempty"`
	LastUsedFromAddr string     `json:"last_used_from_addr,omitempty"`
}

type projectDoc struct {
	projectHead
	Branches   []branch    `json:"branches"`
	Endpoints  []endpoint  `json:"endpoints"`
	Operations []operation `json:"operations"`
}

// projectHead is a project's own fields, apart from what it holds.
type projectHead struct {
	ID                      string      `json:"id"`
	Name                    string      `json:"name"`
	OwnerID                 string      `json:"owner_id"`
	OrgID                   string      `json:"org_id,omitempty"`
	RegionID                string      `json:"region_id"`
	Tier                    sizing.Tier `json:"tier,omitempty"`
	PgVersion               int         `json:"pg_version,omitempty"`
	HistoryRetentionSeconds int32       `json:"history_retention_seconds,omitempty"`
	CreationSource          string      `json:"creation_source,omitempty"`
	CreatedAt               time.Time   `json:"created_at"`
	UpdatedAt               time.Time   `json:"updated_at"`
	// DefaultEndpointSettings is the project's default_endpoint_settings.
	DefaultEndpointSettings *api.DefaultEndpointSettings `json:"default_endpoint_settings,omitempty"`
}

// snapshot copies the world into its file form. Values are copied under the locks and
// encoded after, so no lock is held while JSON is written.
func (w *world) snapshot() worldDoc {
	w.mu.RLock()
	defer w.mu.RUnlock()
	doc := worldDoc{FormatVersion: worldFormat, NextKeyID: w.nextKeyID,
		Users: []userDoc{}, Organizations: []orgDoc{}, APIKeys: []keyDoc{}, Projects: []projectDoc{}}
	if u := w.users[w.firstUser]; u != nil {
		doc.Users = append(doc.Users, userDoc{u.ID, u.Name, u.Email, u.Tier, u.OrgOnly}) // the console user comes first
	}
	for _, id := range sortedKeys(w.users) {
		if u := w.users[id]; id != w.firstUser {
			doc.Users = append(doc.Users, userDoc{u.ID, u.Name, u.Email, u.Tier, u.OrgOnly})
		}
	}
	for _, id := range sortedKeys(w.orgs) {
		o := w.orgs[id]
		od := orgDoc{ID: o.ID, Name: o.Name, Tier: o.Tier, Members: []memberDoc{}, CreatedAt: o.CreatedAt}
		for _, uid := range sortedKeys(o.Members) {
			od.Members = append(od.Members, memberDoc{uid, o.Members[uid]})
		}
		doc.Organizations = append(doc.Organizations, od)
	}
	for _, id := range sortedKeys(w.keysByID) {
		k := w.keysByID[id]
		at, from := k.lastUsed()
		doc.APIKeys = append(doc.APIKeys, keyDoc{ID: k.ID, Name: k.Name, Kind: k.Kind,
			Hash: "sha256:" + hex.EncodeToString(k.Hash[:]), UserID: k.UserID, OrgID: k.OrgID, ProjectID: k.ProjectID,
			CreatedBy: k.CreatedBy, CreatedAt: k.CreatedAt, Revoked: k.Revoked, RevokedAt: k.RevokedAt,
			LastUsedAt: at, LastUsedFromAddr: from})
	}
	for _, id := range w.projectIDs {
		doc.Projects = append(doc.Projects, w.projects[id].doc())
	}
	return doc
}

func (p *project) doc() projectDoc {
	p.mu.RLock()
	defer p.mu.RUnlock()
	d := projectDoc{projectHead: projectHead{ID: p.ID, Name: p.Name, OwnerID: p.OwnerID, OrgID: p.OrgID, RegionID: p.RegionID,
		Tier: p.Tier, PgVersion: p.PgVersion, HistoryRetentionSeconds: p.HistoryRetentionSeconds, CreationSource: p.CreationSource,
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, DefaultEndpointSettings: p.Defaults},
		Branches: []branch{}, Endpoints: make([]endpoint, 0, len(p.endpointOrder)), Operations: make([]operation, 0, len(p.ops))}
	for _, id := range sortedKeys(p.branches) {
		d.Branches = append(d.Branches, *p.branches[id])
	}
	for _, ep := range p.endpointOrder {
		d.Endpoints = append(d.Endpoints, *ep)
	}
	for _, op := range p.ops {
		d.Operations = append(d.Operations, *op)
	}
	return d
}

func sortedKeys[K string | int64, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// MaxWorldFileSize bounds what is read of a world file, so that a -data
// pointing at /dev/zero or a huge file cannot exhaust memory: a world of
// 10,000 endpoints is a few megabytes.
const MaxWorldFileSize = 256 << 20

// loadWorldFile reads a world file; (nil, nil) when there is none yet.
func loadWorldFile(path string, now time.Time) (*world, error) {
	b, err := bounded.Read(path, MaxWorldFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if bounded.Refused(err) {
		return nil, fmt.Errorf("emulator: reading the world file: %w; a world file is a regular file of at most %s: choose another file for -data", err, bounded.MiB(MaxWorldFileSize))
	}
	if err != nil {
		return nil, fmt.Errorf("emulator: reading the world file: %w", err)
	}
	w, err := parseWorld(b, now)
	if err != nil {
		return nil, fmt.Errorf("emulator: world file %s: %w", path, err)
	}
	return w, nil
}

// parseWorld builds a world from its file form, filling defaults so that a hand-written
// seed can be short, and checking every reference.
func parseWorld(b []byte, now time.Time) (*world, error) {
	var doc worldDoc
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not a world document: %v", err)
	}
	if doc.FormatVersion != worldFormat {
		return nil, fmt.Errorf("format_version is %d; this emulator reads version %d", doc.FormatVersion, worldFormat)
	}
	w := newWorld()
	if err := loadAccounts(w, &doc, now); err != nil {
		return nil, err
	}
	for i := range doc.Projects {
		p, err := loadProject(w, &doc.Projects[i], now)
		if err != nil {
			return nil, fmt.Errorf("project %q: %w", doc.Projects[i].ID, err)
		}
		w.addProject(p)
	}
	if err := loadKeys(w, &doc, now); err != nil {
		return nil, err
	}
	return w, nil
}

func loadAccounts(w *world, doc *worldDoc, now time.Time) error {
	if len(doc.Users) == 0 {
		return errors.New(`"users" is empty; the first user owns the console key`)
	}
	for i, u := range doc.Users {
		if u.ID == "" || w.users[u.ID] != nil {
			return fmt.Errorf("user %d: id %q is empty or used twice", i, u.ID)
		}
		tier, err := parseTier(u.Tier, sizing.Paid)
		if err != nil {
			return fmt.Errorf("user %s: %w", u.ID, err)
		}
		w.users[u.ID] = &user{ID: u.ID, Name: u.Name, Email: defaultString(u.Email, "user@example.com"), Tier: tier, OrgOnly: u.OrgOnly}
	}
	w.firstUser = doc.Users[0].ID
	for _, o := range doc.Organizations {
		if !validID(o.ID) || w.orgs[o.ID] != nil {
			return fmt.Errorf("organization %q: the id must be 1 to 60 lowercase letters, digits or dashes, and unique", o.ID)
		}
		tier, err := parseTier(o.Tier, sizing.Paid)
		if err != nil {
			return fmt.Errorf("organization %s: %w", o.ID, err)
		}
		members := map[string]orgRole{}
		for _, m := range o.Members {
			if w.users[m.UserID] == nil {
				return fmt.Errorf("organization %s: member %q is not a user", o.ID, m.UserID)
			}
			if m.Role != roleAdmin && m.Role != roleMember {
				return fmt.Errorf("organization %s: role %q of %s is neither admin nor member", o.ID, m.Role, m.UserID)
			}
			members[m.UserID] = m.Role
		}
		w.orgs[o.ID] = &org{ID: o.ID, Name: o.Name, Tier: tier, Members: members, CreatedAt: defaultTime(o.CreatedAt, now)}
	}
	return nil
}

func loadKeys(w *world, doc *worldDoc, now time.Time) error {
	if doc.NextKeyID > w.nextKeyID {
		w.nextKeyID = doc.NextKeyID
	}
	for _, kd := range doc.APIKeys {
		k := &apiKey{ID: kd.ID, Name: kd.Name, Kind: kd.Kind, UserID: kd.UserID, OrgID: kd.OrgID, ProjectID: kd.ProjectID,
			CreatedBy: kd.CreatedBy, CreatedAt: kd.CreatedAt, Revoked: kd.Revoked, RevokedAt: kd.RevokedAt}
		switch {
		case kd.Secret != "" && kd.Hash != "":
			return fmt.Errorf("API key %d: give hash or secret, not both", kd.ID)
		case kd.Secret != "":
			k.Hash = hashSecret(kd.Secret)
		default:
			raw, err := hex.DecodeString(strings.TrimPrefix(kd.Hash, "sha256:"))
			if err != nil || len(raw) != 32 || !strings.HasPrefix(kd.Hash, "sha256:") {
				return fmt.Errorf("API key %d: hash must be sha256: and 64 hex digits", kd.ID)
			}
			copy(k.Hash[:], raw)
		}
		if w.keys[k.Hash] != nil || (k.ID != 0 && w.keysByID[k.ID] != nil) {
			return fmt.Errorf("API key %d: its id or secret is used twice", kd.ID)
		}
		if err := checkKeyOwner(w, k); err != nil {
			return fmt.Errorf("API key %d: %w", kd.ID, err)
		}
		if k.CreatedBy == "" {
			k.CreatedBy = w.firstUser
		}
		k.CreatedAt = defaultTime(k.CreatedAt, now)
		if kd.LastUsedAt != nil {
			k.lastUsedAt.Store(kd.LastUsedAt.UnixNano())
		}
		if kd.LastUsedFromAddr != "" {
			from := kd.LastUsedFromAddr
			k.lastUsedFrom.Store(&from)
		}
		w.addKey(k)
	}
	return nil
}

func checkKeyOwner(w *world, k *apiKey) error {
	switch k.Kind {
	case keyPersonal:
		if w.users[k.UserID] == nil {
			return fmt.Errorf("user_id %q is not a user", k.UserID)
		}
	case keyOrganization, keyProject:
		if w.orgs[k.OrgID] == nil {
			return fmt.Errorf("org_id %q is not an organization", k.OrgID)
		}
		if k.Kind == keyProject && w.projects[k.ProjectID] == nil {
			return fmt.Errorf("project_id %q is not a project", k.ProjectID)
		}
	default:
		return fmt.Errorf("kind %q is not personal, organization or project", k.Kind)
	}
	return nil
}

func parseTier(t sizing.Tier, def sizing.Tier) (sizing.Tier, error) {
	if t == "" {
		return def, nil
	}
	if _, ok := sizing.PlanOf(t); ok {
		return t, nil
	}
	return "", fmt.Errorf("tier %q is not %s", t, tierList())
}

func defaultString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

package emulator

import (
	"errors"
	"fmt"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// loadProject checks one project of a world file and fills what a seed may leave out.
func loadProject(w *world, d *projectDoc, now time.Time) (*project, error) {
	if !validID(d.ID) || w.projects[d.ID] != nil {
		return nil, errors.New("the id must be 1 to 60 lowercase letters, digits or dashes, and unique")
	}
	p := newProject()
	p.ID, p.Name, p.OrgID = d.ID, defaultString(d.Name, d.ID), d.OrgID
	p.OwnerID = defaultString(d.OwnerID, w.firstUser)
	owner := w.users[p.OwnerID]
	if owner == nil {
		return nil, fmt.Errorf("owner_id %q is not a user", p.OwnerID)
	}
	defTier := owner.Tier
	if p.OrgID != "" {
		o := w.orgs[p.OrgID]
		if o == nil {
			return nil, fmt.Errorf("org_id %q is not an organization", p.OrgID)
		}
		defTier = o.Tier
	}
	var err error
	if p.Tier, err = parseTier(d.Tier, defTier); err != nil {
		return nil, err
	}
	p.RegionID = defaultString(d.RegionID, defaultRegion)
	if _, ok := regionHost(p.RegionID); !ok {
		return nil, fmt.Errorf("region_id %q is not a region of the service, e.g. %s", p.RegionID, defaultRegion)
	}
	p.PgVersion = d.PgVersion
	if p.PgVersion == 0 {
		p.PgVersion = defaultPgVersion
	}
	p.HistoryRetentionSeconds = d.HistoryRetentionSeconds
	if d.DefaultEndpointSettings != nil {
		if err := checkDefaults(d.DefaultEndpointSettings); err != nil {
			return nil, errors.New(err.(*apiError).message)
		}
		cs := (&endpointFields{}).resolve(d.DefaultEndpointSettings)
		if err := checkSize(cs.minCU, cs.maxCU, p.Tier); err != nil {
			return nil, fmt.Errorf("default_endpoint_settings: %s", err.(*apiError).message)
		}
		if err := checkPlanSuspend(cs.suspendTimeout, p.Tier); err != nil {
			return nil, fmt.Errorf("default_endpoint_settings: %s", err.(*apiError).message)
		}
		p.Defaults = d.DefaultEndpointSettings
	}
	p.CreationSource = defaultString(d.CreationSource, "console")
	p.CreatedAt = defaultTime(d.CreatedAt, now)
	p.UpdatedAt = defaultTime(d.UpdatedAt, p.CreatedAt)

	if err := loadBranches(w, p, d); err != nil {
		return nil, err
	}
	for i := range d.Endpoints {
		ep := d.Endpoints[i]
		if err := loadEndpoint(w, p, &ep); err != nil {
			return nil, fmt.Errorf("endpoint %q: %w", ep.ID, err)
		}
		p.addEndpoint(&ep)
	}

	if err := loadOperations(p, d); err != nil {
		return nil, err
	}
	return p, nil
}

// loadBranches checks the project's branches: unique ids, a parent of the
// project when they have one, and exactly one default.
func loadBranches(w *world, p *project, d *projectDoc) error {
	for i := range d.Branches {
		b := d.Branches[i]
		if !validID(b.ID) || p.branches[b.ID] != nil || !w.claimBranchID(b.ID, p.ID) {
			return fmt.Errorf("branch %q: the id must be valid and unique", b.ID)
		}
		b.ProjectID = p.ID
		// Names may repeat here, though the API refuses to make a second
		// branch of one name: a client must cope with a project that has
		// them, and only a world file can show it one.
		b.Name = defaultString(b.Name, b.ID)
		b.CreatedAt = defaultTime(b.CreatedAt, p.CreatedAt)
		b.UpdatedAt = defaultTime(b.UpdatedAt, b.CreatedAt)
		b.CreationSource = defaultString(b.CreationSource, "console")
		if err := loadRolesAndDatabases(&b); err != nil {
			return fmt.Errorf("branch %s: %w", b.ID, err)
		}
		p.branches[b.ID] = &b
	}
	defaults := 0
	for _, b := range p.branches {
		if b.Default {
			defaults++
		}
		if b.ParentID != "" && p.branches[b.ParentID] == nil {
			return fmt.Errorf("branch %s: parent_id %q is not a branch of the project", b.ID, b.ParentID)
		}
	}
	if defaults != 1 {
		return fmt.Errorf("has %d default branches; exactly one branch must have \"default\": true", defaults)
	}
	return nil
}

// loadOperations checks the project's operations and fills their times: the
// project is busy until the last finishes.
func loadOperations(p *project, d *projectDoc) error {
	for i := range d.Operations {
		op := d.Operations[i]
		if _, dup := p.opIndex[op.ID]; op.ID == "" || dup {
			return fmt.Errorf("operation %q: the id is empty or used twice", op.ID)
		}
		op.ProjectID = p.ID
		op.CreatedAt = defaultTime(op.CreatedAt, p.CreatedAt)
		op.StartAt = defaultTime(op.StartAt, op.CreatedAt)
		op.FinishAt = defaultTime(op.FinishAt, op.StartAt)
		p.opIndex[op.ID] = len(p.ops)
		p.ops = append(p.ops, &op)
		if op.FinishAt.After(p.busyUntil) {
			p.busyUntil = op.FinishAt
		}
	}
	return nil
}

// loadRolesAndDatabases checks a branch's roles and databases and fills what a seed
// may leave out: a role's password (generated, then kept), times, database ids.
func loadRolesAndDatabases(b *branch) error {
	for i := range b.Roles {
		r := &b.Roles[i]
		if r.Name == "" || b.role(r.Name) != r {
			return fmt.Errorf("role %q: the name is empty or used twice", r.Name)
		}
		r.Password = defaultString(r.Password, newRolePassword())
		r.CreatedAt = defaultTime(r.CreatedAt, b.CreatedAt)
		r.UpdatedAt = defaultTime(r.UpdatedAt, r.CreatedAt)
	}
	for i := range b.Databases {
		d := &b.Databases[i]
		if d.Name == "" || b.database(d.Name) != d {
			return fmt.Errorf("database %q: the name is empty or used twice", d.Name)
		}
		if b.role(d.OwnerName) == nil {
			return fmt.Errorf("database %s: owner_name %q is not a role of the branch", d.Name, d.OwnerName)
		}
		if d.ID == 0 {
			d.ID = int64(1_000_001 + i)
		}
		d.CreatedAt = defaultTime(d.CreatedAt, b.CreatedAt)
		d.UpdatedAt = defaultTime(d.UpdatedAt, d.CreatedAt)
	}
	return nil
}

func loadEndpoint(w *world, p *project, ep *endpoint) error {
	if !validID(ep.ID) || !w.claimEndpointID(ep.ID, p.ID) {
		return errors.New("the id must be 1 to 60 lowercase letters, digits or dashes, and unique")
	}
	if p.branches[ep.BranchID] == nil {
		return fmt.Errorf("branch_id %q is not a branch of the project", ep.BranchID)
	}
	switch ep.Type {
	case api.EndpointTypeReadWrite:
		if p.readWriteOn(ep.BranchID) != nil {
			return fmt.Errorf("branch %s already has a read_write endpoint; a branch has at most one", ep.BranchID)
		}
	case api.EndpointTypeReadOnly:
	default:
		return fmt.Errorf("type %q is neither read_write nor read_only", ep.Type)
	}
	ep.ProjectID = p.ID
	if ep.MinCU == 0 {
		ep.MinCU = 1
	}
	if ep.MaxCU == 0 {
		ep.MaxCU = max(1, ep.MinCU)
	}
	if err := checkSize(ep.MinCU, ep.MaxCU, p.Tier); err != nil {
		return err
	}
	if err := checkPlanSuspend(ep.SuspendTimeout, p.Tier); err != nil {
		return err
	}
	if ep.RegionID == "" {
		ep.RegionID = p.RegionID
	}
	if ep.RegionID != p.RegionID {
		return fmt.Errorf("region_id %q differs from the project's %q", ep.RegionID, p.RegionID)
	}
	proxy, _ := regionHost(p.RegionID)
	ep.ProxyHost = defaultString(ep.ProxyHost, proxy)
	ep.Host = defaultString(ep.Host, ep.ID+"."+proxy)
	ep.PoolerMode = defaultString(ep.PoolerMode, "transaction")
	ep.Provisioner = defaultString(ep.Provisioner, defaultProvisioner)
	ep.CreationSource = defaultString(ep.CreationSource, "console")
	if err := checkSuspendTimeout(ep.SuspendTimeout); err != nil {
		return err
	}
	ep.CreatedAt = defaultTime(ep.CreatedAt, p.CreatedAt)
	ep.UpdatedAt = defaultTime(ep.UpdatedAt, ep.CreatedAt)
	if ep.Life.To == "" {
		ep.Life.To = api.EndpointStateIdle
	}
	if ep.Life.From == "" {
		ep.Life.From = ep.Life.To
	}
	ep.Life.At = defaultTime(ep.Life.At, ep.CreatedAt)
	for _, s := range []api.EndpointState{ep.Life.From, ep.Life.To} {
		if s != api.EndpointStateInit && s != api.EndpointStateActive && s != api.EndpointStateIdle {
			return fmt.Errorf("lifecycle state %q is not init, active or idle", s)
		}
	}
	return nil
}

func defaultTime(t, def time.Time) time.Time {
	if t.IsZero() {
		return def
	}
	return t
}

// checkScaleToZero applies the service's rule that computes above 16 CU never scale
// to zero (sizing.CheckSuspend, on every plan): such a compute takes no suspend
// timeout but the default (0) or never (-1).
func checkScaleToZero(minCU, maxCU float64, suspend int64) error {
	if sizing.CheckSuspend(minCU, maxCU, suspend, sizing.Paid) == nil {
		return nil
	}
	return badRequest("suspend_timeout_seconds %d is not allowed for a compute of %s CU: computes larger than %s CU do not scale to zero; use -1 (never suspend) or 0, or a size of at most %s CU",
		suspend, sizing.Format(maxCU), sizing.Format(sizing.MaxScaleToZeroCU), sizing.Format(sizing.MaxScaleToZeroCU))
}

// checkSize applies the service's size rules (package sizing) for the account's tier;
// a broken rule is a 400 whose message says how to fix it.
func checkSize(minCU, maxCU float64, tier sizing.Tier) error {
	err := sizing.CheckRange(minCU, maxCU, tier)
	if err == nil {
		return nil
	}
	if tier == sizing.Free && sizing.CheckRange(minCU, maxCU, sizing.Paid) == nil {
		return badRequest("autoscaling_limit_max_cu %s is above the free plan's limit: the free plan allows computes of up to %s CU (2 vCPU, 8 GB RAM); use at most %s or move the account to a paid plan",
			sizing.Format(maxCU), sizing.Format(sizing.FreeMaxCU), sizing.Format(sizing.FreeMaxCU))
	}
	return badRequest("compute size %s..%s CU (autoscaling_limit_min_cu..autoscaling_limit_max_cu): %v",
		sizing.Format(minCU), sizing.Format(maxCU), err)
}

package emulator

import (
	"regexp"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/sizing"
)

// Defaults of the service for new projects (docs/service.md, Requests and defaults).
const (
	defaultRegion    = "aws-us-east-2"
	defaultPgVersion = 17
	defaultRetention = 86400 // history_retention_seconds: one day
)

// regions the emulator accepts, as region_id -> the host suffix of its endpoints.
var regions = map[string]string{
	"aws-us-east-1":      "us-east-1.aws.neon.tech",
	"aws-us-east-2":      "us-east-2.aws.neon.tech",
	"aws-us-west-2":      "us-west-2.aws.neon.tech",
	"aws-eu-central-1":   "eu-central-1.aws.neon.tech",
	"aws-eu-west-2":      "eu-west-2.aws.neon.tech",
	"aws-ap-southeast-1": "ap-southeast-1.aws.neon.tech",
	"aws-ap-southeast-2": "ap-southeast-2.aws.neon.tech",
	"aws-sa-east-1":      "sa-east-1.aws.neon.tech",
	"azure-eastus2":      "eastus2.azure.neon.tech",
	"azure-westus3":      "westus3.azure.neon.tech",
	"azure-gwc":          "gwc.azure.neon.tech",
}

// regionHost returns the proxy host of a region: aws-us-east-2 -> us-east-2.aws.neon.tech.
func regionHost(region string) (string, bool) {
	h, ok := regions[region]
	return h, ok
}

// platformID is the cloud a region is in: aws-us-east-2 -> aws.
func platformID(region string) string {
	return strings.SplitN(region, "-", 2)[0]
}

// defaultProvisioner is the provisioner of a compute whose request (or
// world file) names none, and the one a project shows: the one that
// autoscales.
const defaultProvisioner = "k8s-neonvm"

func regionList() string {
	return strings.Join(sortedKeys(regions), ", ")
}

var idPattern = regexp.MustCompile(`^[a-z0-9-]{1,60}$`)

// validID checks the pattern of project, branch and endpoint ids in the OpenAPI file.
func validID(id string) bool { return idPattern.MatchString(id) }

// subscription is the billing type the owner data shows for a tier.
func subscription(t sizing.Tier) string {
	switch t {
	case sizing.Free:
		return "free_v3"
	case sizing.Launch:
		return "launch_v3"
	}
	return "scale_v3"
}

// logicalSizeLimitBytes is logicalSizeLimit in bytes, as a project shows it too.
func logicalSizeLimitBytes(t sizing.Tier) int64 {
	return logicalSizeLimit(t) << 20
}

// logicalSizeLimit is the branch size limit of a plan, in MiB.
func logicalSizeLimit(t sizing.Tier) int64 {
	if t == sizing.Free {
		return 512
	}
	return 204800
}

func monthBounds(now time.Time) (time.Time, time.Time) {
	start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	return start, start.AddDate(0, 1, 0)
}

// wire renders the project as GET /projects/{id} returns it. Caller holds p.mu; owner
// may be nil when the user is gone.
func (p *project) wire(now time.Time, owner *user) api.Project {
	proxy, _ := regionHost(p.RegionID)
	start, end := monthBounds(now)
	out := api.Project{
		ID:                          p.ID,
		PlatformID:                  platformID(p.RegionID),
		RegionID:                    p.RegionID,
		Name:                        p.Name,
		Provisioner:                 defaultProvisioner,
		PgVersion:                   p.PgVersion,
		ProxyHost:                   proxy,
		BranchLogicalSizeLimit:      logicalSizeLimit(p.Tier),
		BranchLogicalSizeLimitBytes: logicalSizeLimitBytes(p.Tier),
		StorePasswords:              true,
		CreationSource:              p.CreationSource,
		HistoryRetentionSeconds:     p.HistoryRetentionSeconds,
		CreatedAt:                   p.CreatedAt,
		UpdatedAt:                   p.UpdatedAt,
		ConsumptionPeriodStart:      start,
		ConsumptionPeriodEnd:        end,
		OwnerID:                     p.OwnerID,
		OrgID:                       p.OrgID,
	}
	if owner != nil {
		limit := 5000
		if p.Tier == sizing.Free {
			limit = 10
		}
		out.Owner = &api.ProjectOwner{Email: owner.Email, Name: owner.Name, BranchesLimit: limit, SubscriptionType: subscription(p.Tier)}
	}
	return out
}

// listItem renders the project as the list of projects returns it. Caller holds p.mu.
func (p *project) listItem() api.ProjectListItem {
	proxy, _ := regionHost(p.RegionID)
	return api.ProjectListItem{
		ID:                          p.ID,
		PlatformID:                  platformID(p.RegionID),
		RegionID:                    p.RegionID,
		Name:                        p.Name,
		Provisioner:                 defaultProvisioner,
		PgVersion:                   p.PgVersion,
		ProxyHost:                   proxy,
		BranchLogicalSizeLimit:      logicalSizeLimit(p.Tier),
		BranchLogicalSizeLimitBytes: logicalSizeLimitBytes(p.Tier),
		StorePasswords:              true,
		CreationSource:              p.CreationSource,
		CreatedAt:                   p.CreatedAt,
		UpdatedAt:                   p.UpdatedAt,
		OwnerID:                     p.OwnerID,
		OrgID:                       p.OrgID,
	}
}

// wire renders a branch: init until its creating operation finishes, then ready. fresh
// renders it as the call that created it answers: still init.
func (b *branch) wire(now time.Time, fresh bool) api.Branch {
	out := api.Branch{
		ID:             b.ID,
		ProjectID:      b.ProjectID,
		ParentID:       b.ParentID,
		Name:           b.Name,
		CurrentState:   "ready",
		StateChangedAt: b.ReadyAt,
		CreationSource: b.CreationSource,
		Default:        b.Default,
		Protected:      b.Protected,
		CreatedAt:      b.CreatedAt,
		UpdatedAt:      b.UpdatedAt,
	}
	if b.ReadyAt.IsZero() {
		out.StateChangedAt = b.CreatedAt
	}
	if now.Before(b.ReadyAt) || (fresh && !b.ReadyAt.Before(now)) {
		out.CurrentState, out.PendingState, out.StateChangedAt = "init", "ready", b.CreatedAt
	}
	return out
}

func (b *branch) ready(now time.Time) bool { return !now.Before(b.ReadyAt) }

// wireOps renders operations; fresh as the call that started them answers.
func wireOps(ops []*operation, now time.Time, fresh bool) []api.Operation {
	out := make([]api.Operation, 0, len(ops))
	for _, op := range ops {
		out = append(out, op.wire(now, fresh))
	}
	return out
}

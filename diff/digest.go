package diff

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
)

// digestedEndpoint is what of an endpoint a plan depends on. It leaves out
// current_state, last_active and the timestamps on purpose: a compute going
// idle or waking up must not make a saved plan stale.
type digestedEndpoint struct {
	ID                    string            `json:"id"`
	BranchID              string            `json:"branch_id"`
	Type                  api.EndpointType  `json:"type"`
	MinCU                 float64           `json:"min_cu"`
	MaxCU                 float64           `json:"max_cu"`
	SuspendTimeoutSeconds int64             `json:"suspend_timeout_seconds"`
	PgSettings            map[string]string `json:"pg_settings"`
	Disabled              bool              `json:"disabled"`
	Name                  string            `json:"name"`
}

// LiveDigest is "sha256:<hex>" over the fields of the endpoints that a plan
// depends on, in id order, so the order the service lists them in does not matter.
func LiveDigest(endpoints []api.Endpoint) string {
	d := make([]digestedEndpoint, len(endpoints))
	for i, e := range endpoints {
		settings := e.Settings.PgSettings
		if settings == nil {
			settings = map[string]string{}
		}
		d[i] = digestedEndpoint{
			ID: e.ID, BranchID: e.BranchID, Type: e.Type,
			MinCU: e.AutoscalingLimitMinCU, MaxCU: e.AutoscalingLimitMaxCU,
			SuspendTimeoutSeconds: e.SuspendTimeoutSeconds, PgSettings: settings,
			Disabled: e.Disabled, Name: e.Name,
		}
	}
	slices.SortFunc(d, func(a, b digestedEndpoint) int { return strings.Compare(a.ID, b.ID) })
	b, _ := json.Marshal(d) // plain strings, numbers and maps: cannot fail
	return hashOf(b)
}

// ConfigDigest is "sha256:<hex>" over the configuration files, by name, so
// the same files give the same digest whatever order they were read in.
func ConfigDigest(files map[string][]byte) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, n := range names {
		// Length-prefixed so that moving bytes from one file to the next changes the digest.
		b, _ := json.Marshal([]any{n, len(files[n])})
		h.Write(b)
		h.Write(files[n])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

package diff

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/neonform/neonform/api"
)

// RecordLive is what a plan keeps of a project's live endpoints: each one's
// id, whether it runs, and its managed values, in id order (the order the
// service lists them in does not matter).
func RecordLive(endpoints []api.Endpoint) []LiveEndpoint {
	out := make([]LiveEndpoint, len(endpoints))
	for i := range endpoints {
		ep := &endpoints[i]
		out[i] = LiveEndpoint{ID: ep.ID, CurrentState: ep.CurrentState, Values: LiveValues(ep)}
	}
	slices.SortFunc(out, func(a, b LiveEndpoint) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// LiveDigest is "sha256:<hex>" over the ids and the managed values of the
// endpoints, in id order.
func LiveDigest(endpoints []api.Endpoint) string { return digestOf(RecordLive(endpoints)) }

// digestedEndpoint is what of a recorded endpoint a plan depends on. It leaves
// out current_state on purpose: a compute going idle or waking up must not
// make a saved plan stale.
type digestedEndpoint struct {
	ID string `json:"id"`
	Values
}

// digestOf is the digest of recorded endpoints, which must be in id order.
func digestOf(eps []LiveEndpoint) string {
	d := make([]digestedEndpoint, len(eps))
	for i, e := range eps {
		d[i] = digestedEndpoint{ID: e.ID, Values: e.Values}
		if d[i].PgSettings == nil {
			d[i].PgSettings = map[string]string{}
		}
	}
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

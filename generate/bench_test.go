package generate

import (
	"fmt"
	"testing"

	"github.com/neonform/neonform/api"
)

// BenchmarkMake generates 100 projects of 3 branches and 10 computes each.
func BenchmarkMake(b *testing.B) {
	var projects []*Project
	for i := range 100 {
		p := &Project{ID: fmt.Sprintf("project-%08d", i), Name: fmt.Sprintf("Project %d", i)}
		for j := range 3 {
			p.Branches = append(p.Branches, api.Branch{ID: fmt.Sprintf("br-%d-%d", i, j), Name: fmt.Sprintf("branch/%d", j), Default: j == 0})
		}
		for k := range 10 {
			typ := api.EndpointTypeReadOnly
			if k < 3 {
				typ = api.EndpointTypeReadWrite
			}
			p.Endpoints = append(p.Endpoints, api.Endpoint{ID: fmt.Sprintf("ep-%d-%d", i, k), BranchID: fmt.Sprintf("br-%d-%d", i, k%3),
				Type: typ, Name: fmt.Sprintf("Compute %d", k), AutoscalingLimitMinCU: 0.25, AutoscalingLimitMaxCU: float64(1 + k%4),
				SuspendTimeoutSeconds: int64(60 * k), Settings: api.EndpointSettings{PgSettings: map[string]string{"work_mem": "64MB"}}})
		}
		projects = append(projects, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := Make(projects, Options{Dir: "."})
		if err != nil || len(res.Computes) != 1000 {
			b.Fatal(err, len(res.Computes))
		}
	}
}

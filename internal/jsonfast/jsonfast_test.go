package jsonfast_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
	"github.com/neonform/neonform/internal/jsonfast"
	"github.com/neonform/neonform/state"
)

// ordinaryAnswer is a list of endpoints as the service sends it.
const ordinaryAnswer = `{"endpoints":[{"host":"ep-a.us-east-2.aws.neon.tech","id":"ep-a","name":"primary","branch_id":"br-a","autoscaling_limit_min_cu":0.25,"autoscaling_limit_max_cu":2,"type":"read_write","current_state":"idle","settings":{"pg_settings":{"work_mem":"64MB"}},"disabled":false,"suspend_timeout_seconds":300,"created_at":"2026-11-23T17:59:26.486Z"}]}`

// seeds are what the fast path must read as encoding/json does: the
// state's test files, answers of the service's shape, and the cases where
// the two decoders part ways (which must fall back).
func seeds(tb testing.TB) [][]byte {
	paths, err := filepath.Glob("../../state/testdata/states/*.json")
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no state seeds: %v", err)
	}
	var out [][]byte
	plans, err := filepath.Glob("../../diff/planfile/testdata/planfiles/*.json")
	if err != nil || len(plans) == 0 {
		tb.Fatalf("no plan seeds: %v", err)
	}
	for _, p := range append(paths, plans...) {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, data)
	}
	return append(out,
		[]byte(ordinaryAnswer),
		[]byte(`{"endpoints":[{"ID":"ep-a","Name":"upper case names match in both"}]}`),
		[]byte(`{"endpoints":[{"id":"ep-a","id":"ep-b"}]}`),                   // duplicate names: encoding/json takes the last
		[]byte("{\"endpoints\":[{\"id\":\"ep-\xff\"}]}"),                      // invalid UTF-8: encoding/json replaces it
		[]byte(`{"endpoints":[{"id":"ep-a","suspend_timeout_seconds":1e3}]}`), // not an integer
		[]byte(`{"endpoints":[]} {}`),                                         // trailing data
		[]byte(`{"format_version":2,"lineage":"l","serial":3,"computes":{"a.b.c":null}}`),
		[]byte(`{"format_version":2,"computes":{"a.b.c":{"endpoint_id":"ep-a","unknown":1}}}`),
		[]byte(`{"operations":[{"id":"op","status":"finished","created_at":"2026-11-23T17:59:26Z"}],"pagination":{"cursor":"c"}}`),
		[]byte(`null`),
		[]byte(`{"endpoints":null}`),
	)
}

// targets are the shapes neonform decodes with the fast path.
func targets() []func() any {
	return []func() any{
		func() any { return new(state.State) },
		func() any { return new(diff.Plan) },
		func() any {
			return new(struct {
				Endpoints []api.EndpointSummary `json:"endpoints"`
			})
		},
		func() any { return new(api.EndpointsResponse) },
		func() any { return new(api.OperationsResponse) },
		func() any { return new(api.ProjectsResponse) },
		func() any { return new(api.BranchesResponse) },
		func() any { return new(api.ApiKeyCreateResponse) },
		func() any { return new(any) },
		func() any { return new(json.RawMessage) },
		func() any { return new(map[string]any) },
	}
}

// TestDecodeReadsAsEncodingJSON: on every seed, for every shape, the fast
// path either declines (and leaves the target zero) or gives exactly what
// encoding/json gives; and it does take the service's ordinary answer.
func TestDecodeReadsAsEncodingJSON(t *testing.T) {
	for _, data := range seeds(t) {
		checkSame(t, data)
	}
	var list struct {
		Endpoints []api.EndpointSummary `json:"endpoints"`
	}
	if !jsonfast.Decode([]byte(ordinaryAnswer), &list, false) || len(list.Endpoints) != 1 || list.Endpoints[0].Settings.PgSettings["work_mem"] != "64MB" {
		t.Errorf("the fast path did not read an ordinary answer: %+v", list)
	}
	plan, err := os.ReadFile("../../diff/planfile/testdata/planfiles/update.json")
	if err != nil {
		t.Fatal(err)
	}
	var p diff.Plan
	if !jsonfast.Decode(plan, &p, false) || len(p.Steps) == 0 || len(p.Steps[0].Body) == 0 {
		t.Errorf("the fast path did not read a plan file: %+v", p)
	}
	var dup struct {
		Endpoints []api.EndpointSummary `json:"endpoints"`
	}
	if jsonfast.Decode([]byte(`{"endpoints":[{"id":"ep-a","id":"ep-b"}]}`), &dup, false) {
		t.Errorf("the fast path took a duplicate name, which encoding/json reads differently")
	}
	if jsonfast.Decode([]byte(`{}`), state.State{}, false) || jsonfast.Decode([]byte(`{}`), (*state.State)(nil), false) {
		t.Errorf("the fast path took a target that is not a pointer, which encoding/json refuses")
	}
	var unknown state.State
	if jsonfast.Decode([]byte(`{"format_version":2,"computes":{},"extra":1}`), &unknown, true) || !reflect.ValueOf(unknown).IsZero() {
		t.Errorf("with rejectUnknown, an unknown member was taken (or the target not zeroed): %+v", unknown)
	}
}

// FuzzDecodeReadsAsEncodingJSON is TestDecodeReadsAsEncodingJSON on any
// bytes.
//
//	go test ./internal/jsonfast/ -run '^$' -fuzz FuzzDecodeReadsAsEncodingJSON -fuzztime 1m
func FuzzDecodeReadsAsEncodingJSON(f *testing.F) {
	for _, data := range seeds(f) {
		f.Add(data)
	}
	f.Fuzz(checkSame)
}

func checkSame(t *testing.T, data []byte) {
	for _, target := range targets() {
		for _, strict := range []bool{false, true} {
			fast := target()
			if !jsonfast.Decode(data, fast, strict) {
				if !reflect.ValueOf(fast).Elem().IsZero() {
					t.Errorf("%T: declined but not zeroed: %+v", fast, fast)
				}
				continue
			}
			slow := target()
			dec := json.NewDecoder(bytes.NewReader(data))
			if strict {
				dec.DisallowUnknownFields()
			}
			if err := dec.Decode(slow); err != nil {
				t.Fatalf("%T (strict %v): the fast path took what encoding/json refuses (%v):\n%s", fast, strict, err, data)
			}
			if dec.More() {
				t.Fatalf("%T: the fast path took trailing data:\n%s", fast, data)
			}
			if d := cmp.Diff(slow, fast); d != "" {
				t.Fatalf("%T (strict %v): the fast path read it differently (-encoding/json +fast):\n%s\n%s", fast, strict, d, data)
			}
		}
	}
}

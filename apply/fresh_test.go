package apply

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/neonform/neonform/api"
)

// onlyPrimary manages the primaries of three projects alone, as the world
// made them: applied, it adopts them and changes nothing in the service.
var onlyPrimary = threeProjects(`compute "primary" {}`)

// bigPrimary resizes the primaries onlyPrimary adopted.
var bigPrimary = threeProjects(`compute "primary" { size = 2 }`)

var three = []string{shop, "hidden-river-50598307", "quiet-lake-61203874"}

func threeProjects(computes string) string {
	var b strings.Builder
	for i, id := range three {
		fmt.Fprintf(&b, "project \"p%d\" {\n  id = %q\n  branch \"main\" {\n    %s\n  }\n}\n", i, id, computes)
	}
	return b.String()
}

// sent records the requests of the world's client, in order, as "METHOD path".
func (w *world) sent() func() []string {
	var mu sync.Mutex
	var got []string
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		mu.Lock()
		got = append(got, req.Method+" "+strings.TrimPrefix(req.URL.Path, "/api/v2"))
		mu.Unlock()
		return forward()
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

// planRead is the live endpoints of projects as a plan reads them: the
// summaries, without hosts.
func (w *world) planRead(projects ...string) map[string][]api.Endpoint {
	w.t.Helper()
	out := map[string][]api.Endpoint{}
	for _, id := range projects {
		sums, err := w.c.ListEndpointSummaries(context.Background(), id)
		if err != nil {
			w.t.Fatal(err)
		}
		out[id] = api.SummaryEndpoints(sums)
	}
	return out
}

// readsBefore is, for each project, the requests about it that came before
// its first change.
func readsBefore(sent []string) map[string][]string {
	out := map[string][]string{}
	changed := map[string]bool{}
	for _, r := range sent {
		project := strings.Split(r, "/")[2]
		switch {
		case changed[project]:
		case strings.HasPrefix(r, "GET "):
			out[project] = append(out[project], r)
		default:
			changed[project] = true
		}
	}
	return out
}

// A resize of projects whose endpoints show nothing running costs each its
// mutation first: applied at once after its plan (PlanRead), nothing is read
// before it; a plan applied later (a saved one) reads each project's
// endpoints again, and that alone. The run's one read of operations (to learn
// how long they take, of the first project) goes out with the first change,
// so it may come before or after it, and is left out of the reads compared.
func TestFirstChangeOfAProjectComesFirst(t *testing.T) {
	for _, fresh := range []bool{true, false} {
		w := newWorld(t, worldOptions{projects: three})
		w.mustApply(onlyPrimary)
		p := w.plan(bigPrimary)
		opts := Options{Client: w.c, State: w.state, Parallelism: 1}
		want := map[string][]string{}
		for _, id := range three {
			if !fresh {
				want[id] = append(want[id], "GET /projects/"+id+"/endpoints")
			}
		}
		if fresh {
			opts.PlanRead = w.planRead(three...)
		}
		sent := w.sent()
		if _, err := Apply(context.Background(), p, opts); err != nil {
			t.Fatal(err)
		}
		requests := sent()
		learn := "GET /projects/" + three[0] + "/operations"
		got := readsBefore(slices.DeleteFunc(slices.Clone(requests), func(r string) bool { return r == learn }))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("fresh %v: before each project's first change apply sent %v, want %v", fresh, got, want)
		}
	}
}

// The plan's read is checked as a read made by apply would be: one that
// differs from the plan refuses it, and nothing is sent.
func TestAPlanReadThatDiffersIsStale(t *testing.T) {
	w := newWorld(t, worldOptions{projects: three})
	w.mustApply(onlyPrimary)
	p := w.plan(bigPrimary)
	read := w.planRead(three...)
	read[shop][0].AutoscalingLimitMaxCU = 4
	sent := w.sent()
	_, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, PlanRead: read})
	var stale *StaleError
	if !errors.As(err, &stale) || !hasFact(stale, StaleFact{Kind: StaleAttribute, Attribute: "max_cu", Now: "4"}) {
		t.Fatalf("want the plan refused as stale, naming max_cu, got %v", err)
	}
	if got := sent(); len(got) != 0 {
		t.Errorf("a stale plan sent %v", got)
	}
}

// An adoption records the endpoint's host in the state; the plan's read has
// none, so a project where the plan adopts is read again for it.
func TestAnAdoptionIsReadAgainForItsHost(t *testing.T) {
	w := newWorld(t, worldOptions{projects: three})
	p := w.plan(onlyPrimary)
	if len(p.Steps) != 3 || p.APICalls() != 0 {
		t.Fatalf("want three adoptions, got %+v", p.Steps)
	}
	read := w.planRead(three...)
	sent := w.sent()
	if _, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, PlanRead: read}); err != nil {
		t.Fatal(err)
	}
	got := sent()
	slices.Sort(got)
	if want := []string{"GET /projects/" + three[0] + "/endpoints", "GET /projects/" + three[1] + "/endpoints", "GET /projects/" + three[2] + "/endpoints"}; !slices.Equal(got, want) {
		t.Errorf("apply sent %v, want each project's endpoints read once", got)
	}
	st, err := w.state.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range three {
		if c := st.Computes[fmt.Sprintf("p%d.main.primary", i)]; c == nil || c.Host == "" || c.Host != w.endpoints(id)[0].Host {
			t.Errorf("the adopted primary's state entry = %+v, want the service's host", c)
		}
	}
}

package apply

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/diff"
)

// onlyPrimary manages the project's primary alone, as the world made it:
// applied, it adopts it and changes nothing in the service.
const onlyPrimary = `
project "shop" {
  id = "dark-sun-46453911"
  branch "main" {
    compute "primary" {}
  }
}
`

// bigPrimary resizes the primary onlyPrimary adopted.
var bigPrimary = strings.Replace(onlyPrimary, `compute "primary" {}`, `compute "primary" { size = 2 }`, 1)

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
		for i := range sums {
			out[id] = append(out[id], sums[i].Endpoint())
		}
	}
	return out
}

// beforeFirstChange is what requests came before the first one that
// changes something.
func beforeFirstChange(t *testing.T, sent []string) []string {
	t.Helper()
	for i, r := range sent {
		if !strings.HasPrefix(r, "GET ") {
			return sent[:i]
		}
	}
	t.Fatalf("no change was sent: %v", sent)
	return nil
}

// A resize of a project whose endpoints show nothing running costs its
// mutation first: applied at once after its plan (PlanRead), nothing is read
// before it; a plan applied later (a saved one) reads the project's
// endpoints again, and that alone.
func TestFirstChangeOfAProjectComesFirst(t *testing.T) {
	for _, fresh := range []bool{true, false} {
		w := newWorld(t, worldOptions{projects: []string{shop}})
		w.mustApply(onlyPrimary)
		p := w.plan(bigPrimary)
		opts := Options{Client: w.c, State: w.state}
		want := []string{"GET /projects/" + shop + "/endpoints"}
		if fresh {
			opts.PlanRead, want = w.planRead(shop), nil
		}
		sent := w.sent()
		if _, err := Apply(context.Background(), p, opts); err != nil {
			t.Fatal(err)
		}
		if got := beforeFirstChange(t, sent()); strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("fresh %v: before the first change apply sent %v, want %v", fresh, got, want)
		}
	}
}

// The plan's read is checked as a read made by apply would be: one that
// differs from the plan refuses it, and nothing is sent.
func TestAPlanReadThatDiffersIsStale(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	w.mustApply(onlyPrimary)
	p := w.plan(bigPrimary)
	read := w.planRead(shop)
	read[shop][0].AutoscalingLimitMaxCU = 4
	sent := w.sent()
	_, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, PlanRead: read})
	var stale *StaleError
	if !errors.As(err, &stale) || !strings.Contains(err.Error(), "max_cu is 4 now") {
		t.Fatalf("want the plan refused as stale, naming max_cu, got %v", err)
	}
	if got := sent(); len(got) != 0 {
		t.Errorf("a stale plan sent %v", got)
	}
}

// An adoption records the endpoint's host in the state; the plan's read has
// none, so that project is read again for it (and only that one).
func TestAnAdoptionIsReadAgainForItsHost(t *testing.T) {
	w := newWorld(t, worldOptions{projects: []string{shop}})
	p := w.plan(onlyPrimary)
	if len(p.Steps) != 1 || p.Steps[0].Kind != diff.StepState {
		t.Fatalf("want one adoption, got %+v", p.Steps)
	}
	read := w.planRead(shop)
	sent := w.sent()
	if _, err := Apply(context.Background(), p, Options{Client: w.c, State: w.state, PlanRead: read}); err != nil {
		t.Fatal(err)
	}
	if got := sent(); len(got) != 1 || got[0] != "GET /projects/"+shop+"/endpoints" {
		t.Errorf("apply sent %v, want the project's endpoints read once", got)
	}
	st, err := w.state.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c := st.Computes["shop.main.primary"]; c == nil || c.Host == "" || c.Host != w.endpoints(shop)[0].Host {
		t.Errorf("the adopted primary's state entry = %+v, want the service's host", c)
	}
}

package apply

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// outside makes zero to two changes outside neonform, as people and the
// service make them between two applies: activity that wakes a compute, a
// suspend, the time that makes computes scale to zero, resizes and other
// edits in the console, deletes, and computes added without neonform (named
// or not, replicas or a branch's primary). It says what it did, one line
// each.
func (mw *modelWalk) outside(ctx context.Context) []string {
	var did []string
	for range mw.rng.IntN(3) {
		if what := mw.outsideOne(ctx); what != "" {
			did = append(did, what)
		}
	}
	return did
}

func (mw *modelWalk) outsideOne(ctx context.Context) string {
	c := mw.w.c
	p := mw.cfg.projects[mw.rng.IntN(len(mw.cfg.projects))]
	eps := mw.w.endpoints(p.id)
	var ep *api.Endpoint
	if len(eps) > 0 {
		ep = &eps[mw.rng.IntN(len(eps))]
	}
	branch := modelBranchNames[mw.rng.IntN(len(modelBranchNames))]
	branchID := mw.branchIDs[p.id][branch]
	kind := mw.rng.IntN(15)
	if ep == nil && (kind < 8 || kind == 12 || kind == 13) {
		return ""
	}
	var what string
	var err error
	update := func(u api.EndpointUpdate) { _, err = c.UpdateEndpoint(ctx, p.id, ep.ID, u) }
	switch kind {
	case 0, 1:
		what = "activity wakes " + mw.describe(ep)
		err = mw.hook(ctx, "POST", "/_emulator/activity/"+ep.ID)
	case 2:
		what = "suspend " + mw.describe(ep)
		_, err = c.SuspendEndpoint(ctx, p.id, ep.ID)
	case 3:
		s := modelSizes[1+mw.rng.IntN(len(modelSizes)-1)]
		what = fmt.Sprintf("resize %s to %g-%g CU", mw.describe(ep), s.minCU, s.maxCU)
		update(api.EndpointUpdate{AutoscalingLimitMinCU: &s.minCU, AutoscalingLimitMaxCU: &s.maxCU})
	case 4:
		what = "pg_settings work_mem=16MB on " + mw.describe(ep)
		update(api.EndpointUpdate{Settings: &api.SettingsRequest{PgSettings: map[string]string{"work_mem": "16MB"}}})
	case 5:
		timeout := int64(600)
		what = "suspend_timeout_seconds 600 on " + mw.describe(ep)
		update(api.EndpointUpdate{SuspendTimeoutSeconds: &timeout})
	case 6:
		mw.outsideNames++
		name := fmt.Sprintf("console-%d", mw.outsideNames)
		what = fmt.Sprintf("rename %s to %q", mw.describe(ep), name)
		update(api.EndpointUpdate{Name: &name})
	case 7:
		what = "delete " + mw.describe(ep)
		_, err = c.DeleteEndpoint(ctx, p.id, ep.ID)
	case 8:
		what = fmt.Sprintf("add a replica without a name on %s.%s", p.label, branch)
		err = mw.create(ctx, p.id, api.EndpointCreate{BranchID: branchID, Type: api.EndpointTypeReadOnly})
	case 9:
		mw.outsideNames++
		name := fmt.Sprintf("ext-%d", mw.outsideNames)
		what = fmt.Sprintf("add a replica %q on %s.%s", name, p.label, branch)
		err = mw.create(ctx, p.id, api.EndpointCreate{BranchID: branchID, Type: api.EndpointTypeReadOnly, Name: name})
	case 10:
		// Not where a read_write compute block already is an endpoint, or
		// moves in: that is refused by design (see foreignPrimary). Where a
		// new one is declared, the plan adopts it.
		if b := p.branch(branch); b.primary() != nil && (mw.readState().Computes[address(p, b, b.primary())] != nil || mw.cfg.moved(p, b.primary())) {
			return ""
		}
		for _, e := range eps {
			if e.BranchID == branchID && e.Type == api.EndpointTypeReadWrite {
				return ""
			}
		}
		what = fmt.Sprintf("add a read_write compute without a name on %s.%s", p.label, branch)
		err = mw.create(ctx, p.id, api.EndpointCreate{BranchID: branchID, Type: api.EndpointTypeReadWrite})
	case 11:
		what = "ten minutes pass"
		mw.clock.Advance(10 * time.Minute)
	case 12:
		disabled := !ep.Disabled
		what = fmt.Sprintf("disabled=%v on %s", disabled, mw.describe(ep))
		update(api.EndpointUpdate{Disabled: &disabled})
	case 13:
		what = fmt.Sprintf("move %s to branch %s", mw.describe(ep), branch)
		update(api.EndpointUpdate{BranchID: &branchID})
	case 14: // a replica of the name of a compute block on the branch
		b := p.branch(branch)
		if len(b.computes) == 0 {
			return ""
		}
		c := b.computes[mw.rng.IntN(len(b.computes))]
		name := c.wantName(c.label)
		what = fmt.Sprintf("add a replica %q on %s.%s, named as %s", name, p.label, branch, address(p, b, c))
		err = mw.create(ctx, p.id, api.EndpointCreate{BranchID: branchID, Type: api.EndpointTypeReadOnly, Name: name})
	}
	if err == nil {
		err = c.WaitProjectIdle(ctx, p.id)
	}
	if err != nil {
		what += fmt.Sprintf(" (refused: %v)", err)
	}
	return what
}

func (mw *modelWalk) create(ctx context.Context, projectID string, ep api.EndpointCreate) error {
	_, err := mw.w.c.CreateEndpoint(ctx, projectID, ep)
	return err
}

// hook calls one of the emulator's test hooks (emulator/hooks.go).
func (mw *modelWalk) hook(ctx context.Context, method, path string) error {
	req, err := http.NewRequestWithContext(ctx, method, mw.w.srv.URL+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, body)
	}
	return nil
}

// describe names an endpoint for the report: its id, and the address the
// state gives it, if any.
func (mw *modelWalk) describe(ep *api.Endpoint) string {
	s := fmt.Sprintf("%s (%s", ep.ID, ep.Type)
	if ep.Name != "" {
		s += fmt.Sprintf(" %q", ep.Name)
	}
	if addr := mw.addressOf(ep.ID); addr != "" {
		s += ", " + addr
	}
	return s + ")"
}

// modelFaults are the failures injected into a fault walk's applies: the
// emulator's (answers 503, 429, 423 before doing anything, or doing the work
// and dropping the connection), and answers lost on the way back or requests
// lost on the way there (lostAnswers).
func modelFaults(seed uint64) emulator.Faults {
	return emulator.Faults{ServerError: 0.05, RateLimited: 0.01, Locked: 0.05, Drop: 0.08, Seed: seed}
}

// lostAnswers loses, at random, the answer of a change the service carried
// out, or the request of a change before the service sees it: the cases
// where the client cannot know whether its change was made. And it fails a
// few changes outright.
func (w *world) lostAnswers(rng *rand.Rand) {
	var mu sync.Mutex
	draw := func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return rng.Float64()
	}
	w.setTamper(func(req *http.Request, forward func() (*http.Response, error)) (*http.Response, error) {
		if req.Method == "GET" {
			return forward()
		}
		switch u := draw(); {
		case u < 0.08:
			resp, err := forward()
			if err == nil {
				resp.Body.Close()
				return nil, errConnectionLost
			}
			return resp, err
		case u < 0.12:
			return loseOnTheWay(req)
		case u < 0.15:
			// A definite failure, which stops the project's apply: the
			// next plan must finish what this one left (a replacement
			// half done, say).
			return refusal(req, http.StatusInternalServerError, "internal error (injected by the model test)"), nil
		}
		return forward()
	})
}

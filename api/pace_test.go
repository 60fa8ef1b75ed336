package api_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/emulator"
)

// Any span of T seconds holds at most burst + rate*T requests of a token
// bucket; stretched by the half second a request may take to arrive, the
// minute must fit the account's budget and the second one route's.
func TestPacingFitsTheLimits(t *testing.T) {
	for _, lim := range []struct{ perMinute, burst int }{{700, 40}, {2, 40}, {1, 1}, {120, 5}, {30, 40}, {100000, 40}, {700, 1}} {
		r, b := api.Pacing(lim.perMinute, lim.burst)
		rate := float64(r)
		if b < 1 || rate <= 0 {
			t.Errorf("%v: rate %g, burst %d: want at least one request and a rate", lim, rate, b)
			continue
		}
		minute, second := float64(b)+rate*60.5, float64(b)+rate*1.5
		// One request of the burst and the whole tokens after it: a
		// bucket of one never sends two in a span shorter than 1/rate.
		if b == 1 {
			minute, second = 1+float64(int(rate*60.5)), 1+float64(int(rate*1.5))
		}
		if minute > float64(lim.perMinute) || second > float64(lim.burst) {
			t.Errorf("%v: rate %g, burst %d send up to %.1f in a minute and %.1f in a second", lim, rate, b, minute, second)
		}
	}
	if r, b := api.Pacing(700, 40); fmt.Sprintf("%.1f/%d", float64(r), b) != "11.2/22" {
		t.Errorf("at the documented limits: %.3f a second after %d at once, want 11.2 after 22", float64(r), b)
	}
}

// Against an emulator that enforces the documented limits, a client paced
// for them sends 45 requests to one route without a single 429, where 41
// in a second would get one (the next test shows the emulator does).
func TestPacedClientProvokesNo429(t *testing.T) {
	s := newService(t, emulator.Options{RatePerMinute: 700, Burst: 40}, func(o *api.Options) { o.RatePerMinute, o.Burst = 0, 0 }, nil)
	created, err := s.client.CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	must(t, err)
	if failed := get45(s.client, created.Project.ID); failed != 0 {
		t.Errorf("%d calls failed", failed)
	}
	if n := s.emu.Stats().Statuses["429"]; n != 0 || s.client.Slowdowns() != 0 {
		t.Errorf("%d answers 429 (%d slowdowns), want none", n, s.client.Slowdowns())
	}
	if got := s.responses("GET "+routeEndpoints, 200); got != 45 {
		t.Errorf("%d list-endpoints answered 200, want 45", got)
	}
}

func TestUnpacedClientMeetsTheBurstLimit(t *testing.T) {
	s := newService(t, emulator.Options{RatePerMinute: 700, Burst: 40}, nil, nil)
	created, err := s.client.CreateProject(context.Background(), api.ProjectCreate{Name: "p"})
	must(t, err)
	api.RecordSleeps(s.client) // the retries fail too, and need not wait
	get45(s.client, created.Project.ID)
	if n := s.responses("GET "+routeEndpoints, 429); n == 0 || s.client.Slowdowns() == 0 {
		t.Errorf("%d answers 429 and %d slowdowns: want some, or the test above proves nothing", n, s.client.Slowdowns())
	}
}

// get45 lists the endpoints of a project 45 times, 4 at once, and says how
// many calls failed.
func get45(c *api.Client, project string) int {
	var failed atomic.Int32
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for range 45 {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if _, err := c.ListEndpoints(context.Background(), project); err != nil {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	return int(failed.Load())
}

// A 429 pauses the whole client for its Retry-After, not only the request
// it refused, and the client goes on at half its pace, without bursts.
func TestTooManyRequestsPausesEveryRequestAndSlowsDown(t *testing.T) {
	s := newStub(t,
		answer(429, generalError("RATE_LIMIT_EXCEEDED", "slow down", ""), "Retry-After", "7"),
		answer(200, `{"endpoints":[]}`),
		answer(200, `{"endpoints":[]}`))
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.RatePerMinute, o.Burst = 0, 0 })
	sleeps := api.RecordSleeps(c)
	before, _, _, _ := api.PaceOf(c)
	if _, err := c.ListEndpoints(context.Background(), "p-1"); err != nil {
		t.Fatal(err)
	}
	// Another request of the same client, after the refused one was
	// retried: recorded sleeps take no time, so the pause still holds.
	if _, err := c.ListEndpoints(context.Background(), "p-2"); err != nil {
		t.Fatal(err)
	}
	got := sleeps()
	if len(got) != 2 || got[0] < 7*time.Second || got[1] < 6*time.Second || got[1] > 7*time.Second {
		t.Errorf("waits %v: want the refused request's 7s, then the other request's rest of the pause", got)
	}
	after, burst, until, _ := api.PaceOf(c)
	if after != before/2 || burst != 1 || c.Slowdowns() != 1 || time.Until(until) < 6*time.Second {
		t.Errorf("after a 429: %g a second (was %g), burst %d, %d slowdowns, paused until %s: want half the rate, no burst, 1, about 7s from now",
			after, before, burst, c.Slowdowns(), until.Format(time.RFC3339))
	}
	if s.hits() != 3 {
		t.Errorf("%d requests, want 3", s.hits())
	}
}

// The slowdowns stop at a sixteenth of the paced rate. (A large account, so
// that the token bucket, which takes real time, waits little.)
func TestSlowdownHasAFloor(t *testing.T) {
	s := newStub(t, answer(http.StatusTooManyRequests, generalError("RATE_LIMIT_EXCEEDED", "slow down", ""), "Retry-After", "1"))
	c, _ := newClient(t, s.api(), func(o *api.Options) { o.RatePerMinute, o.Burst, o.MaxRetries = 100000, 4000, 6 })
	api.RecordSleeps(c)
	initial, _, _, _ := api.PaceOf(c)
	if _, err := c.ListEndpoints(context.Background(), "p-1"); api.StatusOf(err) != http.StatusTooManyRequests {
		t.Fatalf("want the last 429, got %v", err)
	}
	if r, _, _, _ := api.PaceOf(c); r != initial/16 || c.Slowdowns() != 6 {
		t.Errorf("after %d slowdowns: %g a second, want %g (a sixteenth of %g)", c.Slowdowns(), r, initial/16, initial)
	}
}

// A service whose minute is shorter (a test's) is paced in proportion, with
// at least a tenth of a second of slack in real time, for a busy machine.
func TestPacingFollowsTheServicesMinute(t *testing.T) {
	for _, c := range []struct {
		minute time.Duration
		want   string
	}{
		{0, "11.20/22"},                // the service's minute, half a second of slack
		{3 * time.Second, "224.00/5"},  // 20 times faster: 2 of its seconds of slack
		{30 * time.Second, "22.40/22"}, // twice as fast: still half a second
	} {
		cl, err := api.New(api.Options{BaseURL: "http://127.0.0.1:1/api/v2", APIKey: "napi_test", RateMinute: c.minute})
		must(t, err)
		r, b, _, _ := api.PaceOf(cl)
		if got := fmt.Sprintf("%.2f/%d", r, b); got != c.want {
			t.Errorf("a minute of %s: paced at %s a second after a burst, want %s", c.minute, got, c.want)
		}
	}
}

package emulator

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/neonform/neonform/api"
)

// Availability checks (docs/emulator.md, Flags): the service's control plane wakes idle
// computes now and then to check that they still start (check_availability operations,
// the `disabled` attribute's "periodically enabled by check_availability operations"),
// and a change to the project while one runs meets 423 like any other operation
// (docs/service.md, States and operations). The emulator starts one on an idle,
// enabled compute with the configured chance at each change to a project that has one;
// it runs OpDelay long, so with OpDelay 0 it is over at once. Off (rate 0) unless
// asked for: tests that want none get none.

// availability draws whether a check runs, from its own seeded source.
type availability struct {
	mu   sync.Mutex
	rate float64
	rng  *rand.Rand
}

func newAvailability(rate float64) *availability {
	return &availability{rate: rate, rng: rand.New(rand.NewPCG(uint64(math.Float64bits(rate)), 0x636865636b))}
}

// CheckAvailabilityRate checks a rate of availability checks: from 0 to 1.
func CheckAvailabilityRate(rate float64) error {
	if !(rate >= 0 && rate <= 1) {
		return fmt.Errorf("the rate of availability checks is %g: give a number from 0 (none) to 1 (at every change)", rate)
	}
	return nil
}

// SetAvailabilityChecks sets the chance that a change to a project with an idle
// compute meets an availability check of it.
func (e *Emulator) SetAvailabilityChecks(rate float64) error {
	if err := CheckAvailabilityRate(rate); err != nil {
		return err
	}
	e.checks.Store(newAvailability(rate))
	return nil
}

func (a *availability) draw() bool {
	if a.rate == 0 {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.rng.Float64() < a.rate
}

// checkAvailability may start a check_availability operation on an idle compute of p
// before a change: the change then finds the project busy (423).
func (e *Emulator) checkAvailability(c *call, p *project) error {
	if c.r.Method == http.MethodGet {
		return nil
	}
	a := e.checks.Load()
	if a == nil || a.rate == 0 {
		return nil
	}
	p.mu.Lock()
	idle := p.idleEndpoint(c.now)
	started := idle != nil && !p.busy(c.now) && a.draw()
	if started {
		e.startChain(p, c.now, opStep{action: api.ActionCheckAvailability, branchID: idle.BranchID, endpointID: idle.ID})
	}
	p.mu.Unlock()
	if !started {
		return nil
	}
	return e.save() // it takes the project's lock to copy it
}

// idleEndpoint is the first idle, enabled compute of p, or nil. Caller holds p.mu.
func (p *project) idleEndpoint(now time.Time) *endpoint {
	for _, ep := range p.endpointOrder {
		if !ep.Disabled && ep.view(now, false).current == api.EndpointStateIdle {
			return ep
		}
	}
	return nil
}

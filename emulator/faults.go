package emulator

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults are failures injected into /api/v2 requests at given rates (0..1), to test that
// a client retries what is safe to retry and nothing else.
type Faults struct {
	ServerError float64 // answer 503 before processing
	RateLimited float64 // answer 429 with Retry-After before processing
	// RetryAfter is the Retry-After a 429 fault sends (0: 1 second), so that
	// a test can ask a client to wait longer than it should.
	RetryAfter time.Duration
	Locked     float64 // answer 423 (running operations) before processing
	// Drop processes the request, then closes the connection without an answer: the
	// case that tempts a client to send a create twice.
	Drop         float64
	Latency      float64       // rate of requests delayed by LatencyDelay
	LatencyDelay time.Duration // how long a delayed request waits
	Seed         uint64        // seed of the draws: the same seed gives the same faults
}

// Kinds of injected faults, as counted in Stats.Faults.
const (
	fault5xx     = "5xx"
	fault429     = "429"
	fault423     = "423"
	faultDrop    = "drop"
	faultLatency = "latency"
)

// ParseFaults reads a fault spec such as
// "5xx=0.05,429=0.05,423=0.05,drop=0.05,latency=0.1:200ms,seed=7". Rates are between 0
// and 1; 429 may name its Retry-After after the rate ("429=1:24h", default 1s); 5xx, 429, 423 and drop exclude each other, so their sum must not pass 1.
// An empty spec means no faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return f, nil
	}
	for _, part := range strings.Split(spec, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return Faults{}, fmt.Errorf("fault %q has no value: write kind=rate, e.g. 5xx=0.05", part)
		}
		var err error
		switch name {
		case "5xx":
			f.ServerError, err = parseRate(name, value)
		case "429":
			rate, after, found := strings.Cut(value, ":")
			if f.RateLimited, err = parseRate(name, rate); err == nil && found {
				f.RetryAfter, err = time.ParseDuration(after)
				if err != nil || f.RetryAfter < time.Second {
					err = fmt.Errorf("429's Retry-After %q is not a duration of a second or more, such as 60s or 24h", after)
				}
			}
		case "423":
			f.Locked, err = parseRate(name, value)
		case "drop":
			f.Drop, err = parseRate(name, value)
		case "latency":
			rate, delay, found := strings.Cut(value, ":")
			if !found {
				return Faults{}, fmt.Errorf("latency needs a rate and a delay, e.g. latency=0.1:200ms")
			}
			if f.Latency, err = parseRate(name, rate); err == nil {
				f.LatencyDelay, err = time.ParseDuration(delay)
				if err != nil || f.LatencyDelay < 0 {
					err = fmt.Errorf("latency delay %q is not a duration such as 200ms", delay)
				}
			}
		case "seed":
			f.Seed, err = strconv.ParseUint(value, 10, 64)
			if err != nil {
				err = fmt.Errorf("seed %q is not a whole number", value)
			}
		default:
			return Faults{}, fmt.Errorf("unknown fault %q: use 5xx, 429, 423, drop, latency or seed", name)
		}
		if err != nil {
			return Faults{}, err
		}
	}
	if sum := f.ServerError + f.RateLimited + f.Locked + f.Drop; sum > 1 {
		return Faults{}, fmt.Errorf("the rates of 5xx, 429, 423 and drop add up to %g; they exclude each other, so keep the sum at most 1", sum)
	}
	return f, nil
}

func parseRate(name, value string) (float64, error) {
	r, err := strconv.ParseFloat(value, 64)
	if err != nil || !(r >= 0 && r <= 1) { // so written, NaN is refused too
		return 0, fmt.Errorf("rate of %s is %q; write a number from 0 to 1, e.g. %s=0.05", name, value, name)
	}
	return r, nil
}

// String writes the faults back as a spec that ParseFaults reads.
func (f Faults) String() string {
	var parts []string
	add := func(name string, rate float64) {
		if rate > 0 {
			parts = append(parts, name+"="+strconv.FormatFloat(rate, 'g', -1, 64))
		}
	}
	add("5xx", f.ServerError)
	add("429", f.RateLimited)
	if f.RateLimited > 0 && f.RetryAfter > 0 {
		parts[len(parts)-1] += ":" + f.RetryAfter.String()
	}
	add("423", f.Locked)
	add("drop", f.Drop)
	if f.Latency > 0 {
		parts = append(parts, "latency="+strconv.FormatFloat(f.Latency, 'g', -1, 64)+":"+f.LatencyDelay.String())
	}
	if f.Seed != 0 {
		parts = append(parts, "seed="+strconv.FormatUint(f.Seed, 10))
	}
	return strings.Join(parts, ",")
}

func (f Faults) any() bool {
	return f.ServerError+f.RateLimited+f.Locked+f.Drop+f.Latency > 0
}

// faultDice draws the faults of each request from one seeded source, so a client that
// sends its requests one at a time sees the same faults on every run.
type faultDice struct {
	mu     sync.Mutex
	faults Faults
	rng    *rand.Rand
}

func newFaultDice(f Faults) *faultDice {
	return &faultDice{faults: f, rng: rand.New(rand.NewPCG(f.Seed, 0x6e656f6e666f726d))}
}

// draw returns the fault of one request ("" for none) and any latency to add.
func (d *faultDice) draw() (kind string, delay time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f := d.faults
	if !f.any() {
		return "", 0
	}
	if f.Latency > 0 && d.rng.Float64() < f.Latency {
		delay = f.LatencyDelay
	}
	u := d.rng.Float64()
	for _, c := range []struct {
		kind string
		rate float64
	}{{fault5xx, f.ServerError}, {fault429, f.RateLimited}, {fault423, f.Locked}, {faultDrop, f.Drop}} {
		if u < c.rate {
			return c.kind, delay
		}
		u -= c.rate
	}
	return "", delay
}

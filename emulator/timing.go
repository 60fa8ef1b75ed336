package emulator

import "time"

// SetTiming changes how long operations started from now on run (Options.OpDelay)
// and the latency added to every request from now on (Options.Latency). A benchmark
// sets up its world at once, then measures at the service's timings.
func (e *Emulator) SetTiming(opDelay, latency time.Duration) {
	e.opDelay.Store(int64(max(0, opDelay)))
	e.latency.Store(int64(max(0, latency)))
}

// SetRateLimit replaces the rate limit (Options.RatePerMinute and Burst, in the
// span of Options.RateMinute) with a new one that has counted no request yet.
func (e *Emulator) SetRateLimit(perMinute, burst int) {
	e.limits.Store(newLimiter(perMinute, burst, e.opts.RateMinute))
}

func (e *Emulator) opDelayNow() time.Duration { return time.Duration(e.opDelay.Load()) }

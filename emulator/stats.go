package emulator

import (
	"strconv"
	"sync"
)

// Stats counts the requests the emulator received under /api/v2 since it started or
// since the last reset: what tests assert ("exactly one POST of the endpoint").
type Stats struct {
	Total int64 `json:"total"`
	// Requests by route, "METHOD /template" as the OpenAPI file writes the path, e.g.
	// "GET /projects/{project_id}/endpoints"; "unmatched" for paths the API does not have.
	Requests map[string]int64 `json:"requests"`
	// Statuses by HTTP status code of the answer, e.g. "200", "423".
	Statuses map[string]int64 `json:"statuses"`
	// Responses by route and status, e.g. "POST /projects/{project_id}/endpoints 201".
	Responses map[string]int64 `json:"responses"`
	// Faults injected, by kind: 5xx, 429, 423, drop, latency. A dropped request was
	// processed and counted under its status too.
	Faults map[string]int64 `json:"faults"`
}

type routeStatus struct {
	route  string
	status int
}

type counters struct {
	mu        sync.Mutex
	total     int64
	requests  map[string]int64
	responses map[routeStatus]int64
	faults    map[string]int64
}

func newCounters() *counters {
	c := &counters{}
	c.reset()
	return c
}

func (c *counters) reset() {
	c.mu.Lock()
	c.total = 0
	c.requests = map[string]int64{}
	c.responses = map[routeStatus]int64{}
	c.faults = map[string]int64{}
	c.mu.Unlock()
}

func (c *counters) record(route string, status int, fault string, delayed bool) {
	c.mu.Lock()
	c.total++
	c.requests[route]++
	c.responses[routeStatus{route, status}]++
	if fault != "" {
		c.faults[fault]++
	}
	if delayed {
		c.faults[faultLatency]++
	}
	c.mu.Unlock()
}

func (c *counters) snapshot() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := Stats{
		Total:     c.total,
		Requests:  make(map[string]int64, len(c.requests)),
		Statuses:  map[string]int64{},
		Responses: make(map[string]int64, len(c.responses)),
		Faults:    make(map[string]int64, len(c.faults)),
	}
	for k, v := range c.requests {
		s.Requests[k] = v
	}
	for k, v := range c.responses {
		code := strconv.Itoa(k.status)
		s.Statuses[code] += v
		s.Responses[k.route+" "+code] += v
	}
	for k, v := range c.faults {
		s.Faults[k] = v
	}
	return s
}

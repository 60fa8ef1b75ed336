package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neonform/neonform/internal/apiurl"
)

// DefaultBaseURL is the service's public API.
const DefaultBaseURL = "https://console.neon.tech/api/v2"

// Defaults. The rate is the service's documented limit (700 requests a minute,
// bursts of 40); the backoff follows the vendor's SDK (full jitter, base 250ms,
// cap 10s).
const (
	DefaultRatePerMinute    = 700
	DefaultBurst            = 40
	DefaultCallTimeout      = 30 * time.Second
	DefaultMaxRetries       = 6
	DefaultPollInterval     = 10 * time.Second
	DefaultOperationTimeout = 10 * time.Minute
	backoffBase             = 250 * time.Millisecond
	backoffCap              = 10 * time.Second
)

// Options configure a Client. The zero value of every field but APIKey is a
// usable default.
type Options struct {
	// BaseURL is the API root, e.g. https://console.neon.tech/api/v2 (the
	// default). Plain http:// is refused unless the host is loopback.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>" and nowhere else.
	APIKey string
	// OrgID is the organization the calls the service scopes by organization act
	// in: the list of projects (org_id in the query) and their creation (org_id in
	// the body). "" sends none: the key's own projects (organizations.go).
	OrgID string
	// UserAgent is sent on every request, e.g. "neonform/v0.1.0".
	UserAgent string
	// HTTPClient is used as is when set; otherwise a client that refuses
	// redirects (so the key never follows one) is built.
	HTTPClient *http.Client
	// RatePerMinute is the service's limit for the account, requests in any
	// minute on all routes: 0 = 700 (the documented limit), <0 = not paced.
	// The client's budget keeps it under this and Burst (budget.go), so it
	// never provokes a 429 from a service that enforces exactly those limits.
	RatePerMinute int
	// Burst is the service's limit for one route, requests in any second: 0 = 40.
	Burst int
	// RateMinute is how long the service's minute lasts: 0 = a minute. Only
	// tests shrink it, with an emulator's (emulator.Options.RateMinute), to
	// send many requests at the service's limits in a fraction of the time.
	RateMinute time.Duration
	// Budget, when set, is the account's rate budget shared with other
	// clients and runs (budget.go); nil: the client keeps its own (a
	// Ledger of these limits).
	Budget Budget
	// CallTimeout is the deadline of one attempt when ctx has none shorter: 0 = 30s.
	CallTimeout time.Duration
	// MaxRetries is how many times a failed request may be repeated: 0 = 6, <0 = never.
	MaxRetries int
	// PollInterval is the longest pause between two polls of operations:
	// 0 = 10s. Polls come when the operations are expected to be over
	// (schedule.go), which is sooner for operations that take seconds. A
	// test against an emulator sets it short (its operations take no time,
	// or run on a fake clock), as the embedded sandbox does.
	PollInterval time.Duration
	// OperationTimeout bounds WaitOperations and WaitProjectIdle when ctx has
	// no earlier deadline: 0 = 10m.
	OperationTimeout time.Duration
	// PageSize is the page size asked of list calls: 0 = the largest each list allows.
	PageSize int
	// WaitTimeout bounds the waits the service imposes on this client, all
	// added up (waiting.go): past it, a wait is not begun and its call fails
	// with a *WaitTimeoutError. 0 = 30m.
	WaitTimeout time.Duration
	// OnWait, when set, is told of each such wait longer than a few seconds
	// as it begins, so that a person or a program knows what the run waits
	// for (see also Client.OnWait).
	OnWait func(Wait)
	// Log, when set, gets one line per attempt of a request (debuglog.go):
	// method, path, status, duration, the service's request id, and whether
	// and when it is retried. Never a header or a body.
	Log io.Writer
}

// Client talks to the service. It is safe for concurrent use; every call of
// one Client shares its budget (the ledger of the minute, and the pause after a 429).
type Client struct {
	base *url.URL
	// key is a closure: fmt prints a func as an address, so not even a raw
	// print of Client's fields (a bad verb, an unexported field) shows the key.
	key       func() string
	userAgent string
	orgID     string
	http      *http.Client
	pace      *pacer
	timeout   time.Duration
	retries   int
	poll      time.Duration
	opTimeout time.Duration
	pageSize  int
	// durations is what the client learned of how long operations take.
	durations *durations
	// sent counts the attempts sent (Requests).
	sent atomic.Int64

	logMu sync.Mutex
	log   io.Writer

	waits    *waitBudget
	onWaitMu sync.Mutex
	onWait   func(Wait)

	// sleep waits d or until ctx ends; a field so tests can record the waits
	// instead of measuring time.
	sleep func(ctx context.Context, d time.Duration) error
}

// New checks opts and builds a Client.
func New(opts Options) (*Client, error) {
	base, err := parseBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	if opts.APIKey == "" {
		return nil, errors.New("api: no API key: set NEON_API_KEY to a key created in the console (Account settings, API keys)")
	}
	if strings.IndexFunc(opts.APIKey, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return nil, errors.New("api: the API key contains a space, newline or control character: copy it again without quotes or line breaks")
	}
	if opts.OrgID != "" {
		if err := checkID("organization", opts.OrgID); err != nil {
			return nil, err
		}
	}
	if opts.WaitTimeout < 0 {
		return nil, fmt.Errorf("api: WaitTimeout is %s: it must be 0 (default %s) or more", opts.WaitTimeout, DefaultWaitTimeout)
	}
	if opts.Burst < 0 {
		return nil, fmt.Errorf("api: Burst is %d: it must be 0 (default 40) or more", opts.Burst)
	}
	c := &Client{
		base:      base,
		key:       func() string { return opts.APIKey },
		userAgent: opts.UserAgent,
		orgID:     opts.OrgID,
		http:      opts.HTTPClient,
		timeout:   orDefault(opts.CallTimeout, DefaultCallTimeout),
		retries:   opts.MaxRetries,
		poll:      orDefault(opts.PollInterval, DefaultPollInterval),
		opTimeout: orDefault(opts.OperationTimeout, DefaultOperationTimeout),
		pageSize:  opts.PageSize,
		log:       opts.Log,
		sleep:     sleepCtx,
		waits:     &waitBudget{limit: orDefault(opts.WaitTimeout, DefaultWaitTimeout)},
		onWait:    opts.OnWait,
	}
	c.durations = newDurations(min(firstGuess, c.poll))
	if c.userAgent == "" {
		c.userAgent = "neonform"
	}
	switch {
	case c.retries == 0:
		c.retries = DefaultMaxRetries
	case c.retries < 0:
		c.retries = 0
	}
	if c.http == nil {
		c.http = &http.Client{
			Transport: http.DefaultTransport,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		}
	}
	c.pace = newPacer(opts)
	return c, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// parseBaseURL accepts https:// anywhere and http:// only to loopback, since
// plain HTTP would send the key in clear text (apiurl.Check).
func parseBaseURL(raw string) (*url.URL, error) {
	if raw == "" {
		raw = DefaultBaseURL
	}
	if p := apiurl.Check("the API URL", raw); p != nil {
		return nil, fmt.Errorf("api: %s %s: %s", p.Summary, ShownURL(raw), p.Detail)
	}
	u, _ := url.Parse(raw) // parsed by Check
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// BaseURL is the API root this client sends requests to.
func (c *Client) BaseURL() string { return c.base.String() }

// String, Format and MarshalJSON keep the key out of anything that prints a
// Client or its Options: logs, panics, %v and %+v.

func (c *Client) String() string {
	return "api.Client{" + ShownURL(c.base.String()) + ", key redacted}"
}

// Format prints the client without its key, whatever the verb.
func (c *Client) Format(f fmt.State, _ rune) { io.WriteString(f, c.String()) }

func (o Options) String() string {
	key := "unset"
	if o.APIKey != "" {
		key = "redacted"
	}
	return fmt.Sprintf("api.Options{BaseURL:%q APIKey:%s UserAgent:%q RatePerMinute:%d Burst:%d CallTimeout:%s MaxRetries:%d PollInterval:%s}",
		ShownURL(o.BaseURL), key, o.UserAgent, o.RatePerMinute, o.Burst, o.CallTimeout, o.MaxRetries, o.PollInterval)
}

// Format prints the options without the key, whatever the verb.
func (o Options) Format(f fmt.State, _ rune) { io.WriteString(f, o.String()) }

// GoString is what %#v would use without Format; kept for callers that ask for it directly.
func (o Options) GoString() string { return o.String() }

// MarshalJSON encodes the options with the key redacted.
func (o Options) MarshalJSON() ([]byte, error) {
	key := ""
	if o.APIKey != "" {
		key = "redacted"
	}
	return json.Marshal(map[string]any{
		"base_url": ShownURL(o.BaseURL), "api_key": key, "user_agent": o.UserAgent,
		"rate_per_minute": o.RatePerMinute, "burst": o.Burst, "call_timeout": o.CallTimeout.String(),
		"max_retries": o.MaxRetries, "poll_interval": o.PollInterval.String(),
	})
}

// logf writes one line to Options.Log; lines of concurrent calls do not interleave.
func (c *Client) logf(format string, args ...any) {
	if c.log == nil {
		return
	}
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintf(c.log, format+"\n", args...)
}

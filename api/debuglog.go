package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/neonform/neonform/internal/textsafe"
)

// The debug log (Options.Log) has one line per attempt of a request, for a
// person finding out why a run is slow or fails:
//
//	GET /projects/p-1/endpoints 200 12.3ms attempt 1 request_id 3f2a...
//	PATCH /projects/p-1/endpoints/ep-x 423 4.1ms attempt 1 request_id 9c1e...: retrying once project p-1 runs no operation
//	GET /projects/p-1/operations?limit=50 429 2.0ms attempt 1 paced 1200.0ms request_id 77d0...: retrying in 2s (Retry-After; every run sharing the rate budget pauses, and its limits halve for a minute)
//
// It holds the method, the path with its query, the status (or why there was
// no answer), how long the attempt took, how long it waited for the client's
// pace first, the service's request id, and what the client does next. Never
// a header or a body: the key is in one, and an answer can carry a secret (a
// created API key, a role's password).

// attemptLog is what a log line says of an attempt besides its answer.
type attemptLog struct {
	method, path string
	attempt      int
	paced        time.Duration // waited for the pace (the rate limit, a 429's pause) before it left
}

// logAttempt writes the attempt's line; next says what the client does now ("" after a success).
func (c *Client) logAttempt(a attemptLog, r reply, next string) {
	if c.log == nil {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s ", a.method, a.path)
	switch {
	case r.status == 0:
		fmt.Fprintf(&b, "no answer (%v)", r.err)
	case r.err != nil:
		fmt.Fprintf(&b, "%d (%v)", r.status, r.err)
	default:
		fmt.Fprintf(&b, "%d", r.status)
	}
	fmt.Fprintf(&b, " %s attempt %d", millis(r.took), a.attempt)
	if a.paced >= time.Millisecond {
		fmt.Fprintf(&b, " paced %s", millis(a.paced))
	}
	if r.requestID != "" {
		fmt.Fprintf(&b, " request_id %s", r.requestID)
	}
	if next != "" {
		b.WriteString(": " + next)
	}
	c.logf("%s", textsafe.Terminal(b.String())) // the path, the error and the request id are the service's
}

// millis is a duration in milliseconds to a tenth, one unit for every
// line so that a log can be sorted and summed: "0.4ms", "1203.5ms".
func millis(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + "ms"
}

// answeredID is the request id the service names the request by in its logs
// and support tickets: its X-Neon-Ret-Request-Id (docs/service.md, Errors), else the
// X-Request-ID it echoed, else the one sent.
func answeredID(h http.Header, sent string) string {
	for _, name := range []string{"X-Neon-Ret-Request-Id", "X-Request-Id"} {
		if v := strings.TrimSpace(h.Get(name)); v != "" && len(v) <= 128 {
			return v
		}
	}
	return sent
}

// retryWords says how the client retries an attempt that failed.
func retryWords(v verdict, status int, wait time.Duration, method, path string) string {
	if v.untilIdle && !isRead(method) {
		if project := projectOf(path); project != "" {
			return fmt.Sprintf("retrying once project %s runs no operation", project)
		}
	}
	wait = wait.Round(time.Millisecond)
	switch {
	case status == http.StatusTooManyRequests:
		return fmt.Sprintf("retrying in %s (Retry-After %s; every run sharing the rate budget pauses, and its limits halve for a minute)", wait, v.after)
	case v.after > 0:
		return fmt.Sprintf("retrying in %s (Retry-After %s)", wait, v.after)
	}
	return fmt.Sprintf("retrying in %s (backoff)", wait)
}

// giveUpWords says why a failed attempt is not retried, or "" for a plain
// error answer (a 404 is an answer, not something to retry).
func giveUpWords(v verdict, attempt, retries int) string {
	var amb *AmbiguousError
	switch {
	case v.retry && attempt >= retries:
		return fmt.Sprintf("not retried: no retries left (%d)", retries)
	case errors.As(v.err, &amb):
		return "not retried: the answer was lost after the request was sent, so it may have been carried out"
	}
	return ""
}

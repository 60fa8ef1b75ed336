package api

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// verdict is what to do about a failed attempt.
type verdict struct {
	err   error
	retry bool
	// after is the least wait the service asked for (Retry-After), or 0.
	after time.Duration
	// untilIdle: the refusal lasts until the project's operations finish.
	untilIdle bool
}

// judge applies the retry policy. Reads are safe to repeat. A mutation is
// repeated only when it certainly did not run: the service said so (423, 429,
// 503, 422 "branch not ready yet") or it was never written. Anything else about a sent mutation is either
// a definite error or ambiguous, and then the caller must look before retrying.
func judge(ctx context.Context, method, path string, r reply) verdict {
	read := isRead(method)
	if r.status == 0 {
		err := &transportFailure{method: method, path: path, err: r.err}
		switch {
		case !read && r.sent:
			return verdict{err: &AmbiguousError{Method: method, Path: path, Err: r.err}}
		case ctx.Err() != nil:
			// The caller gave up; its deadline or cancel is the answer.
			return verdict{err: err}
		default:
			return verdict{err: err, retry: true}
		}
	}

	apiErr := answerError(method, path, r)
	var err error = apiErr
	after := retryAfter(r.header, time.Now())
	if r.err != nil && r.status >= 200 && r.status < 300 {
		// Success status but the body was lost: a read can ask again, a
		// mutation ran but we do not know its result.
		if !read {
			return verdict{err: &AmbiguousError{Method: method, Path: path, Err: r.err}}
		}
		return verdict{err: &transportFailure{method: method, path: path, err: r.err}, retry: ctx.Err() == nil}
	}
	if ctx.Err() != nil && r.status >= 400 {
		// The caller gave up while this answer came: both are the error, so
		// errors.Is(err, context.Canceled) and errors.As(err, *Error) both hold,
		// however the two raced.
		return verdict{err: fmt.Errorf("%w (the last answer: %w)", ctx.Err(), err)}
	}
	switch {
	case r.status == http.StatusLocked || notReady(apiErr):
		return verdict{err: err, retry: true, after: after, untilIdle: true}
	case r.status == http.StatusTooManyRequests, r.status == http.StatusServiceUnavailable:
		return verdict{err: err, retry: true, after: after}
	case read && r.status >= 500:
		return verdict{err: err, retry: true, after: after}
	case !read && isGatewayTimeout(r.status):
		// A gateway gave up waiting for the service, which may have carried it out.
		return verdict{err: &AmbiguousError{Method: method, Path: path, Err: err}}
	}
	return verdict{err: err}
}

// notReady is the service's 422 "branch not ready yet": a compute asked for
// on a branch still being created. Like a 423 it did not run and passes once
// the project's operations finish.
func notReady(e *Error) bool {
	return e.StatusCode == http.StatusUnprocessableEntity &&
		(e.Code == "BRANCH_NOT_READY" || strings.Contains(strings.ToLower(e.Message), "not ready"))
}

// isGatewayTimeout covers the answers of a proxy that lost the service's
// answer: 502, 504 and Cloudflare's 52x (524 is its timeout page).
func isGatewayTimeout(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusGatewayTimeout || (status >= 520 && status <= 527)
}

// transportFailure is a request that got no answer.
type transportFailure struct {
	method, path string
	// base is the API URL the request went to: with the connection refused
	// or the name unknown, the URL is what to check.
	base string
	err  error
}

func (e *transportFailure) Error() string {
	at := ""
	if e.base != "" {
		at = " at " + e.base
	}
	return e.method + " " + e.path + ": no answer from the service" + at + ": " + e.err.Error()
}

func (e *transportFailure) Unwrap() error { return e.err }

// backoff is exponential with full jitter: a random wait in [0, min(cap, base*2^attempt)].
func backoff(attempt int) time.Duration {
	ceiling := backoffCap
	if attempt < 16 {
		ceiling = min(backoffCap, backoffBase<<attempt)
	}
	return rand.N(ceiling + 1)
}

// retryAfter reads Retry-After as seconds or as an HTTP date, at most
// maxRetryAfter; 0 when absent.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		return time.Duration(min(max(0, secs), int64(maxRetryAfter/time.Second))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(0, t.Sub(now)), maxRetryAfter)
	}
	return 0
}

// sleepCtx waits d, or less if ctx ends first (then it returns ctx's error).
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// resendWords is what a client waits for before it sends a request again:
// "to send GET /projects again after 429 Too Many Requests (Retry-After 60s)".
func resendWords(method, path string, status int, after time.Duration) string {
	why := "no answer"
	if status != 0 {
		why = fmt.Sprintf("%d %s", status, http.StatusText(status))
	}
	if after > 0 {
		why += fmt.Sprintf(" (Retry-After %s)", after)
	}
	return fmt.Sprintf("to send %s %s again after %s", method, path, why)
}

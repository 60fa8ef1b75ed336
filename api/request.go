package api

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/neonform/neonform/internal/jsonfast"
)

// maxBody bounds what is read of one answer; the largest lists are far smaller.
const maxBody = 64 << 20

// Do sends one request with the same limiter, deadlines, retries and errors
// as the typed calls. path is relative to the base URL ("/projects/p/endpoints")
// and may carry a query; body, when not nil, is sent as JSON (a
// json.RawMessage is sent as is); out, when not nil, receives the decoded
// answer. A 204 answer leaves out untouched.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) error {
	_, err := c.call(ctx, method, path, body, out)
	return err
}

// reply is what one attempt got back.
type reply struct {
	status int
	header http.Header
	body   []byte
	// err is a failure to get a complete answer: no connection, a lost
	// connection, a deadline, or a body cut short (then status is set).
	err error
	// sent is true when the request may have reached the service before err.
	sent bool
	// took is how long the attempt lasted; requestID is the id the service
	// gave it (its X-Neon-Ret-Request-Id, else the X-Request-ID sent): both
	// for the debug log.
	took      time.Duration
	requestID string
}

// call runs the attempts of one request and returns the final status.
func (c *Client) call(ctx context.Context, method, path string, body, out any) (int, error) {
	method = strings.ToUpper(method)
	if !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "//") {
		return 0, fmt.Errorf("api: %s %q: the path must start with a single / (it is relative to the API URL)", method, path)
	}
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return 0, fmt.Errorf("api: %s %s: encoding the request body: %w", method, path, err)
		}
	}
	for attempt := 0; ; attempt++ {
		paced := time.Now()
		answered, err := c.wait(ctx, method, path)
		if err != nil {
			return 0, fmt.Errorf("%s %s: not sent: waiting for the account's rate budget: %w", method, path, err)
		}
		at := attemptLog{method: method, path: path, attempt: attempt + 1, paced: time.Since(paced)}
		c.sent.Add(1)
		r := c.attempt(ctx, method, path, payload)
		answered()
		if r.err == nil && r.status >= 200 && r.status < 300 {
			c.logAttempt(at, r, "")
			return r.status, decodeAnswer(method, path, r, out)
		}
		v := judge(ctx, method, path, r)
		c.explain(v.err)
		if r.status == http.StatusTooManyRequests {
			// Every client of the budget waits, not only this request, and
			// the budget's limits halve for a while: even when this request
			// is not retried.
			if err := c.throttled(ctx, method, path, max(backoff(attempt), v.after)); err != nil {
				return r.status, fmt.Errorf("%s %s: telling the rate budget of a 429: %w", method, path, err)
			}
		}
		if !v.retry || attempt >= c.retries {
			c.logAttempt(at, r, giveUpWords(v, attempt, c.retries))
			return r.status, v.err
		}
		wait := backoff(attempt)
		if v.after > wait {
			wait = v.after
		}
		c.logAttempt(at, r, retryWords(v, r.status, wait, method, path))
		if v.untilIdle && !isRead(method) {
			// The lock lasts until the project's operations finish: wait for
			// that instead of guessing, then retry soon.
			if project := projectOf(path); project != "" {
				running := lockedWatch(ctx)
				err := c.WatchProjectIdle(ctx, project, running)
				if running != nil {
					running(0)
				}
				if err == nil {
					wait = backoff(0)
				} else if ctx.Err() != nil {
					return r.status, fmt.Errorf("%w (while waiting for project %s to be idle after: %v)", ctx.Err(), project, v.err)
				}
			}
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			// Waiting would pass the caller's deadline: the last error says more
			// than "deadline exceeded" would.
			return r.status, v.err
		}
		if err := c.waitFor(ctx, wait, resendWords(method, path, r.status, v.after)); err != nil {
			var gaveUp *WaitTimeoutError
			if errors.As(err, &gaveUp) {
				return r.status, fmt.Errorf("%w (the last answer: %w)", err, v.err)
			}
			return r.status, fmt.Errorf("%w (while waiting to retry after: %v)", err, v.err)
		}
	}
}

// explain adds to an error what only the client knows: the API URL a request
// that got no answer went to, and, on a 404 from an API URL without the
// /api/v2 the service's API is under, that the URL is the likely mistake.
func (c *Client) explain(err error) {
	var t *transportFailure
	if errors.As(err, &t) {
		t.base = ShownURL(c.base.String())
	}
	var e *Error
	if errors.As(err, &e) && e.StatusCode == http.StatusNotFound && !strings.HasSuffix(c.base.Path, apiPath) {
		base := *c.base
		base.Path += apiPath
		e.URLHint = fmt.Sprintf("the API URL %s does not end in %s, where the service's API is: did you mean %s?", ShownURL(c.base.String()), apiPath, ShownURL(base.String()))
	}
}

// apiPath is where the service serves its API, under any host.
const apiPath = "/api/v2"

// attempt sends the request once, with its own deadline, and reads the whole answer.
func (c *Client) attempt(ctx context.Context, method, path string, payload []byte) reply {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	// Whether the request was written decides whether a failed mutation may be
	// retried. The transport may retry on a fresh connection by itself, so a new
	// connection resets the mark.
	var wrote atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn:      func(httptrace.GotConnInfo) { wrote.Store(false) },
		WroteRequest: func(httptrace.WroteRequestInfo) { wrote.Store(true) },
	})

	var bodyReader io.Reader
	if payload != nil {
		bodyReader = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, bodyReader)
	if err != nil {
		return reply{err: fmt.Errorf("building the request: %w", err)}
	}
	req.Header.Set("Authorization", "Bearer "+c.key())
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	sentID := newRequestID()
	req.Header.Set("X-Request-ID", sentID)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return reply{err: transportError(err), sent: wrote.Load(), took: time.Since(start), requestID: sentID}
	}
	defer resp.Body.Close()
	body, err := readAnswer(resp)
	body = hideKey(c.key(), body, resp.Header)
	r := reply{status: resp.StatusCode, header: resp.Header, body: body, sent: true, took: time.Since(start), requestID: answeredID(resp.Header, sentID)}
	if err != nil {
		r.err = fmt.Errorf("the answer (%d) was cut short: %w", resp.StatusCode, transportError(err))
	}
	return r
}

// readAnswer reads an answer's body, up to maxBody, into a buffer of the
// length the answer announces when it does: io.ReadAll grows its buffer by
// doubling from 512 bytes, 16 KB allocated for a list of 10 endpoints (6.5
// KB), 160 MB for the lists of 10,000 projects.
func readAnswer(resp *http.Response) ([]byte, error) {
	r := io.LimitReader(resp.Body, maxBody)
	if n := resp.ContentLength; n > 0 && n <= maxBody {
		buf := bytes.NewBuffer(make([]byte, 0, n+bytes.MinRead)) // room to read the end of the body
		_, err := buf.ReadFrom(r)
		return buf.Bytes(), err
	}
	return io.ReadAll(r)
}

// transportError drops the *url.Error wrapper, whose text repeats the method
// and URL that every error of ours already names.
func transportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func isRead(method string) bool { return method == http.MethodGet || method == http.MethodHead }

// projectOf returns the project id of a path under /projects/{id}/..., or "".
func projectOf(path string) string {
	path, _, _ = strings.Cut(path, "?")
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(parts) >= 3 && parts[0] == "projects" && parts[1] != "" {
		return parts[1]
	}
	return ""
}

// newRequestID lets the service's logs and our errors name the same request.
func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// decodeAnswer fills out from a successful answer.
func decodeAnswer(method, path string, r reply, out any) error {
	if out == nil || r.status == http.StatusNoContent || len(bytes.TrimSpace(r.body)) == 0 {
		return nil
	}
	// The fast path reads what encoding/json would, in less than half the
	// time (a plan reads 10,000 lists of endpoints); what it declines is
	// read by encoding/json, for the same result or the same message.
	if !jsonfast.Decode(r.body, out, false) {
		if err := json.Unmarshal(r.body, out); err != nil {
			return fmt.Errorf("%s %s: the service answered %d with a body that is not the expected JSON (%v): %s",
				method, path, r.status, err, summarize(r.body, r.header.Get("Content-Type")))
		}
	}
	return checkAnswerIDs(method, path, out)
}

package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/neonform/neonform/api"
	"github.com/neonform/neonform/internal/textsafe"
)

// apiPrefix is where the API is served, as the service does.
const apiPrefix = "/api/v2"

// maxBody bounds request bodies; the API's bodies are a few hundred bytes.
const maxBody = 1 << 20

// call is one request on its way through the emulator.
type call struct {
	w         http.ResponseWriter
	r         *http.Request
	route     *route
	params    pathParams
	key       *apiKey
	now       time.Time
	requestID string
}

func (c *call) param(name string) string { return c.params.get(name) }

// ServeHTTP answers /api/v2 (the service) and /_emulator (test hooks).
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, hooksPrefix+"/"):
		e.hooks.ServeHTTP(w, r)
	case r.URL.Path == apiPrefix || strings.HasPrefix(r.URL.Path, apiPrefix+"/"):
		e.serveAPI(w, r)
	default:
		writeJSON(w, http.StatusNotFound, api.GeneralError{Code: codeNotFound,
			Message: fmt.Sprintf("no such path %s: the API is under %s, test hooks under %s", r.URL.Path, apiPrefix, hooksPrefix)})
	}
}

func (e *Emulator) serveAPI(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	c := &call{w: w, r: r, requestID: r.Header.Get("X-Request-ID")}
	if c.requestID == "" {
		c.requestID = e.ids.requestID()
	}
	w.Header().Set("X-Neon-Ret-Request-Id", c.requestID)

	var allowed []string
	c.route, allowed = e.router.match(r.Method, strings.TrimPrefix(r.URL.Path, apiPrefix), &c.params)
	routeName := "unmatched"
	if c.route != nil {
		routeName = c.route.name
	}

	fault, delay := e.dice.Load().draw()
	if d := time.Duration(e.latency.Load()) + delay; d > 0 {
		select {
		case <-time.After(d):
		case <-r.Context().Done():
		}
	}
	var drop *dropWriter
	if fault == faultDrop {
		drop = &dropWriter{header: http.Header{}}
		c.w = drop
	}

	status := e.answer(c, fault, allowed)

	e.counters.record(routeName, status, fault, delay > 0)
	if e.opts.Log != nil {
		e.logRequest(r, status, fault, time.Since(start))
	}
	if drop != nil {
		hangUp(w)
	}
}

// answer runs the request through faults, auth, the rate limit and its handler, and
// writes the answer; it returns the status written.
func (e *Emulator) answer(c *call, fault string, allowed []string) int {
	switch fault {
	case fault5xx:
		return c.fail(errorf(http.StatusServiceUnavailable, codeUnavailable, "service temporarily unavailable (fault injected by the emulator); safe to retry"))
	case fault429:
		return c.fail(&apiError{status: http.StatusTooManyRequests, code: codeRateLimited,
			message: "too many requests (fault injected by the emulator); retry after the Retry-After delay", retryAfter: retryAfterSeconds(e.dice.Load().faults.RetryAfter)})
	case fault423:
		return c.fail(locked())
	}

	c.now = e.clock.Now()
	key, err := e.authenticate(c.r, c.now)
	if err != nil {
		return c.fail(err)
	}
	c.key = key

	if c.route == nil {
		if len(allowed) > 0 {
			c.w.Header().Set("Allow", strings.Join(allowed, ", "))
			return c.fail(errorf(http.StatusMethodNotAllowed, codeMethodNotAllowed, "%s %s is not allowed; allowed: %s",
				c.r.Method, c.r.URL.Path, strings.Join(allowed, ", ")))
		}
		return c.fail(routeNotFound())
	}
	if ok, which, wait := e.limits.Load().allow(key.account(), c.route.name, c.now); !ok {
		return c.fail(e.rateLimited(c.route.name, which, wait))
	}

	if c.r.ContentLength > maxBody {
		return c.fail(bodyTooLarge())
	}
	c.r.Body = http.MaxBytesReader(c.w, c.r.Body, maxBody)
	status, body, err := c.route.h(c)
	if err != nil {
		return c.fail(err)
	}
	if body == nil {
		c.w.WriteHeader(status)
		return status
	}
	writeJSON(c.w, status, body)
	return status
}

func retryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// rateLimited is the 429 of a request past the limit, saying which limit and when to
// come back.
func (e *Emulator) rateLimited(route string, which int, wait time.Duration) *apiError {
	limits := e.limits.Load()
	after := retryAfterSeconds(wait)
	what := fmt.Sprintf("this account sent %d requests in the last minute, the most the service allows (on all routes, with all its keys)", limits.perMinute)
	if which == limitBurst {
		what = fmt.Sprintf("this account sent %d requests to %s in the last second, the largest burst the service allows on one route", limits.burst, route)
	}
	return &apiError{status: http.StatusTooManyRequests, code: codeRateLimited, retryAfter: after,
		message: fmt.Sprintf("rate limit exceeded: %s; retry after %d s", what, after)}
}

// fail writes an error answer with the GeneralError body and returns its status.
func (c *call) fail(err error) int {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errorf(http.StatusInternalServerError, "INTERNAL_ERROR", "emulator error: %v", err)
	}
	if ae.retryAfter > 0 {
		c.w.Header().Set("Retry-After", strconv.Itoa(ae.retryAfter))
	}
	writeJSON(c.w, ae.status, api.GeneralError{RequestID: c.requestID, Code: ae.code, Message: ae.message})
	return ae.status
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // messages say <API key>, not \u003cAPI key\u003e, to a curl user
	if err := enc.Encode(body); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"code":"INTERNAL_ERROR","message":"emulator could not encode its answer"}` + "\n")
	}
	b := buf.Bytes()
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// bodyTooLarge is the answer to a body over maxBody, whether its Content-Length says so
// or it is found while reading a body of unknown length.
func bodyTooLarge() *apiError {
	return errorf(http.StatusRequestEntityTooLarge, codeTooLarge,
		"the request body is larger than %d bytes (1 MiB); the API's bodies are a few hundred bytes", maxBody)
}

// decodeBody reads a JSON request body into v; a body that is not JSON for this call is
// a 400, and so is a field v has no place for (fields.go).
func decodeBody(c *call, v any, required bool) error {
	raw, err := io.ReadAll(c.r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return bodyTooLarge()
		}
		return badRequest("the request body could not be read: %v", err)
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		if !required {
			return nil
		}
		return badRequest("the request needs a JSON body")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return badRequest("the request body is not valid JSON for this call: %v", err)
	}
	if dec.More() {
		return badRequest("the request body holds more than one JSON value")
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err == nil {
		if field := unknownField(generic, reflect.TypeOf(v), ""); field != "" {
			return errorf(http.StatusBadRequest, codeUnsupportedField,
				"the request sets %s, which the emulator does not model; it refuses the field rather than accept and drop it. Leave it out (emulator/README.md says what the emulator serves)", field)
		}
	}
	return nil
}

// logRequest writes one line per request. It never writes headers: the key is in one.
// The path is the client's text, decoded (%1b is ESC): shown escaped.
func (e *Emulator) logRequest(r *http.Request, status int, fault string, took time.Duration) {
	line := fmt.Sprintf("%s %s %s %d %s", time.Now().UTC().Format(time.RFC3339), textsafe.Terminal(r.Method), textsafe.Terminal(r.URL.Path), status, took.Round(time.Microsecond))
	if fault != "" {
		line += " fault=" + fault
	}
	e.logMu.Lock()
	fmt.Fprintln(e.opts.Log, line)
	e.logMu.Unlock()
}

// dropWriter takes the answer of a request whose connection will be dropped.
type dropWriter struct{ header http.Header }

func (d *dropWriter) Header() http.Header         { return d.header }
func (d *dropWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *dropWriter) WriteHeader(int)             {}

// hangUp closes the connection without writing an answer.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // reset, like a connection lost in the network
			}
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

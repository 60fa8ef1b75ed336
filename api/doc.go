// Package api is the HTTP client of the service (Neon API v2) and its wire types.
//
// A Client sends every request through one rate limiter, gives each attempt a
// deadline, and retries only where a retry cannot do harm:
//
//   - reads (GET) are retried on lost connections, timeouts, 5xx, 423 and 429;
//   - mutations (POST, PATCH, DELETE) are retried only when the service says the
//     request did not run (423, 429, 503) or when the connection failed before
//     the request was written. On a 423 the client first waits until the
//     project's operations are done, because that is what the lock waits for.
//
// A mutation whose outcome is unknown (the connection was lost or the deadline
// passed after the request was sent, or a gateway answered 502, 504 or 524) is
// returned as an *AmbiguousError and never repeated: creating an endpoint twice
// is worse than stopping, so the caller checks the live state before it tries
// again. Errors the service returns are *Error values carrying its status,
// code, message and request id.
//
// Operations: every mutation starts operations that the service runs one chain
// per project at a time. WaitOperations polls them until they are terminal;
// WaitProjectIdle waits until a project has none running (WatchProjectIdle also
// says, at each poll, how many still run). A mutation refused with 423 waits
// for the same before it is sent again, and WatchLocked lets its caller hear
// of that wait as WatchProjectIdle's does. A poll is one request a project,
// sent when its operations are expected to be over, as the client learned from
// the finished ones it read (schedule.go).
//
// What this package must not do: import other packages of this module, print
// anything except through Options.Log, or let the API key reach any output.
// The key is sent only in the Authorization header; errors never carry headers,
// and Options and Client redact it when formatted with fmt or encoded as JSON.
package api

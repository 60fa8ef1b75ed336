package emulator

import (
	"fmt"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neonform/neonform/api"
)

// Client connections to computes (docs/emulator.md, Real Postgres). With
// Options.Postgres, a local proxy (emulator/pgcompute) opens a Session for every
// client connection it accepts, and the emulator treats it as the service treats a
// connection:
//   - opening one wakes an idle compute (start_compute, counted as any start) and a
//     disabled compute refuses it;
//   - while one is open the compute does not scale to zero; its suspend timeout counts
//     from the last one closed;
//   - what interrupts a compute (a restart, a suspend, a PATCH that restarts or
//     suspends it, its deletion) drops every session open on it; a change that does
//     not interrupt it keeps them;
//   - a run of the compute ends when it is interrupted, suspends on its own or wakes
//     (it was stopped): a session carries its run, and connections a PooledPostgres
//     keeps between sessions serve only sessions of their own run.

// Postgres backs the computes with real Postgres databases, one set per branch.
type Postgres interface {
	// Addr is the proxy's HOST:PORT, which connection URIs name.
	Addr() string
	// BranchCreated gives a new branch a copy of its parent's databases as they are
	// now (copy on write, as far as a reader can tell).
	BranchCreated(parentID, branchID string, databases []string) error
	// BranchesDeleted throws the databases of deleted branches away.
	BranchesDeleted(branchIDs []string)
}

// PooledPostgres is a Postgres that keeps connections to a compute between sessions
// (SQL over HTTP's pool, emulator/pgcompute): the emulator tells it when a run of
// a compute ends, so that it closes them. RunEnded is called with the project
// locked: it must not call the emulator nor wait.
type PooledPostgres interface {
	Postgres
	RunEnded(endpointID string)
}

// Session is one client connection to a compute, from OpenSession to Close.
type Session struct {
	ProjectID, BranchID, EndpointID string
	Role, Database                  string
	// ReadOnly is a read replica's session: it may not write.
	ReadOnly bool
	// PgSettings are the compute's pg_settings, applied to the session.
	PgSettings map[string]string
	// StartsIn is how long the compute's start still runs (0 when it runs, and on a
	// fake clock): the proxy holds the client until then, as the service's proxy
	// waits for a waking compute.
	StartsIn time.Duration
	// Run is the run of the compute the session opened on: it is another after the
	// compute stops (see above).
	Run uint64

	e    *Emulator
	drop func()
	once sync.Once
}

// ConnectError is a refused connection, in the words and SQLSTATE the client gets.
type ConnectError struct {
	Code    string // SQLSTATE
	Message string
}

func (e *ConnectError) Error() string { return e.Message }

// The messages of the service's proxy, which clients and people search for.
const (
	msgEndpointDisabled = "The endpoint has been disabled. Enable it using Neon API and retry."
	msgEndpointNotFound = "Couldn't find the endpoint %s: check the endpoint id in the connection parameters (options=endpoint%%3D<endpoint-id>)"
)

// sessions are the open sessions by endpoint id.
type sessions struct {
	mu   sync.Mutex
	open map[string]map[*Session]struct{}
	runs atomic.Uint64 // the last run given to a compute
}

func (r *sessions) add(s *Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.open == nil {
		r.open = map[string]map[*Session]struct{}{}
	}
	if r.open[s.EndpointID] == nil {
		r.open[s.EndpointID] = map[*Session]struct{}{}
	}
	r.open[s.EndpointID][s] = struct{}{}
}

// remove reports whether s was still open (not dropped).
func (r *sessions) remove(s *Session) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	set := r.open[s.EndpointID]
	if _, ok := set[s]; !ok {
		return false
	}
	delete(set, s)
	if len(set) == 0 {
		delete(r.open, s.EndpointID)
	}
	return true
}

func (r *sessions) dropAll(endpointID string) {
	r.mu.Lock()
	set := r.open[endpointID]
	delete(r.open, endpointID)
	r.mu.Unlock()
	for s := range set {
		s.drop()
	}
}

// dropSessions interrupts a compute's clients, which ends its run. Caller holds
// p.mu for writing.
func (e *Emulator) dropSessions(ep *endpoint) {
	ep.conns = 0
	e.sessions.dropAll(ep.ID)
	e.endRun(ep)
}

// endRun ends the compute's run: its next sessions are of another, and the
// connections kept for this one close. Caller holds p.mu for writing.
func (e *Emulator) endRun(ep *endpoint) {
	ep.run = e.sessions.runs.Add(1)
	if pp, ok := e.opts.Postgres.(PooledPostgres); ok {
		pp.RunEnded(ep.ID)
	}
}

// OpenSession is a client's connection to a compute as role with password, to one
// of its branch's databases. It fails with a *ConnectError. drop closes the client's
// connection: it is called, at most once and without waiting, when the compute is
// interrupted.
func (e *Emulator) OpenSession(endpointID, roleName, password, dbName string, drop func()) (*Session, error) {
	p := e.w.project(e.w.projectOfEndpoint(endpointID))
	if p == nil {
		return nil, &ConnectError{Code: "08001", Message: fmt.Sprintf(msgEndpointNotFound, endpointID)}
	}
	now := e.clock.Now()
	if err := e.catchUp(p, now); err != nil {
		return nil, err
	}
	p.mu.Lock()
	s, err := e.openLocked(p, endpointID, roleName, password, dbName, now)
	if s != nil {
		s.drop = drop
	}
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return s, e.save()
}

func (e *Emulator) openLocked(p *project, endpointID, roleName, password, dbName string, now time.Time) (*Session, error) {
	ep := p.endpoints[endpointID]
	if ep == nil || p.deleted {
		return nil, &ConnectError{Code: "08001", Message: fmt.Sprintf(msgEndpointNotFound, endpointID)}
	}
	if ep.Disabled {
		return nil, &ConnectError{Code: "08001", Message: msgEndpointDisabled}
	}
	b := p.branches[ep.BranchID]
	r := b.role(roleName)
	if r == nil || r.Password != password {
		return nil, &ConnectError{Code: "28P01", Message: fmt.Sprintf("password authentication failed for user %q", roleName)}
	}
	if b.database(dbName) == nil {
		return nil, &ConnectError{Code: "3D000", Message: fmt.Sprintf("database %q does not exist", dbName)}
	}
	if err := e.activity(p, ep, now); err != nil {
		return nil, err
	}
	s := &Session{ProjectID: p.ID, BranchID: b.ID, EndpointID: ep.ID, Role: r.Name, Database: dbName,
		ReadOnly: ep.Type == api.EndpointTypeReadOnly, PgSettings: maps.Clone(ep.PgSettings), Run: ep.run, e: e}
	if l := ep.Life; l.To == api.EndpointStateActive && now.Before(l.At) && e.fake == nil {
		s.StartsIn = l.At.Sub(now)
	}
	ep.conns++
	e.sessions.add(s)
	return s, nil
}

// Close ends the session: the compute's suspend timeout counts from the last one
// closed. Closing a dropped session does nothing.
func (s *Session) Close() {
	s.once.Do(func() {
		e := s.e
		if !e.sessions.remove(s) {
			return
		}
		p := e.w.project(s.ProjectID)
		if p == nil {
			return
		}
		now := e.clock.Now()
		p.mu.Lock()
		if ep := p.endpoints[s.EndpointID]; ep != nil && ep.conns > 0 {
			ep.conns--
			ep.touch(now)
		}
		p.mu.Unlock()
		_ = e.save()
	})
}

// OpenSessions counts the sessions open on a compute (tests).
func (e *Emulator) OpenSessions(endpointID string) int {
	e.sessions.mu.Lock()
	defer e.sessions.mu.Unlock()
	return len(e.sessions.open[endpointID])
}

// copyBranchData gives a new branch its parent's data (Options.Postgres).
func (e *Emulator) copyBranchData(parent, b *branch) error {
	pg := e.opts.Postgres
	if pg == nil {
		return nil
	}
	names := make([]string, 0, len(b.Databases))
	for _, d := range b.Databases {
		names = append(names, d.Name)
	}
	if err := pg.BranchCreated(parent.ID, b.ID, names); err != nil {
		return errorf(http.StatusInternalServerError, "INTERNAL_ERROR", "the emulator could not copy the data of branch %s to the new branch: %v", parent.ID, err)
	}
	return nil
}

// branchesDeleted throws the databases of deleted branches away (Options.Postgres).
func (e *Emulator) branchesDeleted(ids ...string) {
	if pg := e.opts.Postgres; pg != nil && len(ids) > 0 {
		pg.BranchesDeleted(ids)
	}
}

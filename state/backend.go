package state

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/neonform/neonform/internal/english"
	"github.com/neonform/neonform/internal/process"
	"github.com/neonform/neonform/internal/suggest"
)

// Backend is where state lives: a local file (Local) or a Postgres table (Postgres).
type Backend interface {
	// Read returns the stored state; a missing state is an empty State (New())
	// with Serial 0 and a fresh lineage, not an error. Corrupt JSON, or a
	// format_version newer than FormatVersion, is a clear error naming the
	// file; it is never replaced.
	Read(ctx context.Context) (*State, error)
	// Write stores s with s.Serial incremented by one (it sets s.Serial
	// itself, and only when the write succeeded), atomically. It refuses with
	// a *ConflictError if the stored state's lineage differs, or its serial is
	// not the one s was read at (someone else wrote it).
	Write(ctx context.Context, s *State) error
	// Lock takes the exclusive lock, or fails at once with *LockedError saying
	// who holds it, from where, since when, and how to remove a stale lock.
	// The returned unlock releases it; calling it again does nothing.
	Lock(ctx context.Context, who string) (unlock func() error, err error)
	// CheckLock returns nil while this backend holds the lock it took with
	// Lock, and otherwise an error saying how it was lost (force-unlock, a
	// dropped connection): a run checks it before every change it makes, so
	// that a run whose lock was taken away stops instead of racing another.
	CheckLock(ctx context.Context) error
	// Describe names the backend for messages: "local file neonform.state.json".
	Describe() string
}

// storing is what Local and Postgres share below Write and Push: store
// replaces the stored state with what decide makes of it (nothing when
// decide returns nil), in one atomic write, refusing while the lock this
// backend took is lost, or when the stored state cannot be read. stored is
// an empty State when there is none (exists false).
type storing interface {
	store(ctx context.Context, decide func(stored *State, exists bool) (*State, error)) error
	Describe() string
}

// writeNext is Write of both backends: s stored as the next serial, when
// the stored state is the one s was read from.
func writeNext(ctx context.Context, b storing, s *State) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("refusing to write %s: %w", b.Describe(), err)
	}
	next, err := s.next()
	if err != nil {
		return fmt.Errorf("refusing to write %s: %w", b.Describe(), err)
	}
	err = b.store(ctx, func(stored *State, exists bool) (*State, error) {
		if c := conflict(b.Describe(), exists, stored.Lineage, stored.Serial, s); c != nil {
			return nil, c
		}
		return next, nil
	})
	if err == nil {
		s.FormatVersion, s.Serial = next.FormatVersion, next.Serial
	}
	return err
}

// LockInfo says who holds a lock. It is what the local lock file holds, as JSON.
type LockInfo struct {
	ID        string    `json:"id"`        // random; force-unlock asks for it, so the wrong lock is not removed
	Who       string    `json:"who"`       // the user
	Host      string    `json:"host"`      // the machine
	PID       int       `json:"pid"`       // the process on Host
	Since     time.Time `json:"since"`     // when it was taken (UTC)
	Operation string    `json:"operation"` // what the holder is doing ("apply"), if it said; see WithOperation
}

// LockedError is the answer to Lock when someone else holds the lock.
type LockedError struct {
	Info LockInfo
	// Path is what holds the lock: the lock file of a local state, or the
	// Postgres state's name and table.
	Path string
	// Stale is true when the holder is known to be gone: its process is not
	// running on this host. The lock is still not removed without being asked.
	Stale bool
	// Remove says how to remove the lock by hand, e.g. "run `neonform
	// force-unlock <ID>` or delete neonform.state.json.lock".
	Remove string
	// Unlock is the force-unlock that Remove suggests, if it suggests one.
	Unlock *suggest.Command
	// Project is the id of the project whose lock Info holds, when the
	// lock in the way is a project's (a Postgres state's LockProjects);
	// "" when it is the whole state's. OtherProjects counts the projects'
	// locks held besides it, by the same run or others, when a run that
	// needs the whole state finds them held.
	Project       string
	OtherProjects int
	// ProjectLabel is the project's name in the configuration, when the
	// run that met the lock knows it (apply, from its plan): the messages
	// name the project by it, and its id after.
	ProjectLabel string
}

// project names the project whose lock is in the way: "svc
// (gentle-tree-66521055)", or its id alone when no name is known.
func (e *LockedError) project() string {
	if e.ProjectLabel == "" || e.ProjectLabel == e.Project {
		return e.Project
	}
	return e.ProjectLabel + " (" + e.Project + ")"
}

// Suggestions is the force-unlock the error suggests, if any.
func (e *LockedError) Suggestions() []suggest.Command {
	if e.Unlock == nil {
		return nil
	}
	return []suggest.Command{*e.Unlock}
}

// forceUnlock is the force-unlock of the lock id, for Unlock.
func forceUnlock(id string) *suggest.Command {
	c := suggest.Run("force-unlock", id)
	return &c
}

func (e *LockedError) Error() string {
	var b strings.Builder
	b.WriteString("state is locked: ")
	if e.Project != "" {
		fmt.Fprintf(&b, "the lock of project %s of ", e.project())
	}
	b.WriteString(e.Path)
	i := e.Info
	if i.ID == "" {
		b.WriteString(" is held, but does not say by whom")
	} else {
		fmt.Fprintf(&b, " is held by %s on host %s (pid %d) since %s", orUnknown(i.Who), orUnknown(i.Host), i.PID, i.Since.UTC().Format(time.RFC3339))
		if i.Operation != "" {
			fmt.Fprintf(&b, " for %s", i.Operation)
		}
		fmt.Fprintf(&b, " (lock ID %s)", i.ID)
	}
	if e.OtherProjects > 0 {
		fmt.Fprintf(&b, ", and %s held too", english.Plural(e.OtherProjects, "other project's lock is", "other projects' locks are"))
	}
	b.WriteString(".\n")
	if e.Stale {
		fmt.Fprintf(&b, "Process %d is not running on this host, so the lock looks stale: if no neonform is running, %s.", i.PID, e.Remove)
	} else {
		fmt.Fprintf(&b, "Wait for that run to finish and try again. If it died and no neonform is running, the lock is stale: %s.", e.Remove)
	}
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

// ConflictError is the answer to Write when the stored state is not the one s
// was read from: another run wrote it in between, or it is another state.
type ConflictError struct {
	Backend       string // Describe() of the backend
	Reason        string // what differs, in a sentence
	Fix           string // what to do about it
	StoredLineage string
	StoredSerial  int64
	// raced: another writer created the stored state in the same moment.
	raced bool
}

func (e *ConflictError) Error() string {
	fix := e.Fix
	if fix == "" {
		fix = "Another neonform run changed it since it was read: run plan again to work from the stored state"
	}
	return fmt.Sprintf("refusing to write %s: %s; nothing was written. %s", e.Backend, e.Reason, fix)
}

// conflict compares what is stored (exists=false: nothing) with what s was
// read at, and returns the reason a write must be refused, or nil.
func conflict(backend string, exists bool, lineage string, serial int64, s *State) *ConflictError {
	e := &ConflictError{Backend: backend, StoredLineage: lineage, StoredSerial: serial}
	switch {
	case !exists && s.Serial != 0:
		e.Reason = fmt.Sprintf("it is gone, but this state was read from it at serial %d", s.Serial)
		e.Fix = "If it was removed by mistake, restore it (the local backend keeps a .backup); otherwise run plan again"
	case exists && lineage != s.Lineage:
		e.Reason = fmt.Sprintf("it holds lineage %s, not %s: it is a different state", lineage, s.Lineage)
		e.Fix = "Check that the configuration names the state this run read; if the state was recreated, run plan again"
	case exists && serial != s.Serial:
		e.Reason = fmt.Sprintf("it is at serial %d, but this state was read at serial %d", serial, s.Serial)
	default:
		return nil
	}
	return e
}

type operationKey struct{}

// WithOperation returns a context that makes Lock record op ("apply",
// "import", "state mv") as the lock's Operation, so a blocked user reads what
// the holder is doing.
func WithOperation(ctx context.Context, op string) context.Context {
	return context.WithValue(ctx, operationKey{}, op)
}

// heldBy fills e with the holder a backend read: its facts, the
// force-unlock of its lock, and whether it is known to be gone (Stale: it
// ran on this machine, and its process no longer runs). How the lock is
// removed by hand (Remove) is the backend's to say.
func (e *LockedError) heldBy(info LockInfo) {
	e.Info = info
	e.Unlock = forceUnlock(info.ID)
	if host, _ := os.Hostname(); host != "" && host == info.Host {
		alive, known := process.Alive(info.PID)
		e.Stale = known && !alive
	}
}

// newLockInfo describes this process as a lock holder. who defaults to the
// operating-system user.
func newLockInfo(ctx context.Context, who string) LockInfo {
	if who == "" {
		who = currentUser()
	}
	host, _ := os.Hostname()
	op, _ := ctx.Value(operationKey{}).(string)
	return LockInfo{
		ID:        newUUID(),
		Who:       who,
		Host:      host,
		PID:       os.Getpid(),
		Since:     time.Now().UTC().Truncate(time.Second),
		Operation: op,
	}
}

func currentUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return os.Getenv("USER")
}

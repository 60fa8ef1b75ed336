// Package process tells whether a process on this host still runs: a lock
// file or a temporary file that names a process that has ended was left
// behind, and may be taken over or removed.
package process

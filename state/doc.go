// Package state keeps neonform's state: which endpoint each configured compute
// address (<project>.<branch>.<compute>, e.g. shop.main.primary) manages, and
// what neonform last applied to it. The planner reads it; apply writes it
// after every step; import and the state commands edit it.
//
// Two backends implement Backend: Local, a JSON file (the default), and
// Postgres, a table, for teams whose applies run on different machines. Both
// write atomically, refuse a write based on a stale read (lineage or serial
// differ: *ConflictError), and offer an exclusive lock so two applies cannot
// interleave (*LockedError says who holds it and how to remove it if stale);
// Postgres locks projects one by one too (ProjectLocker).
// Write does not take the lock itself: a run that writes takes it before it
// reads, and holds it until its last write; the serial check in Write is the
// guard for a run that did not (and the local backend's check is not atomic
// without the lock).
//
// The package must not talk to the service, read configuration, or print:
// it imports only the api wire types, and says everything through errors.
// It never replaces a state it cannot read: a corrupt file, or one written by
// a newer neonform, is an error naming it, and the file stays as it is.
//
// # The state file
//
// JSON, indented by two spaces, keys in a fixed order (maps sorted), ending in
// a newline, mode 0600. An example:
//
//	{
//	  "format_version": 1,
//	  "lineage": "5d0a6c5e-8f43-4d2e-9a51-1c2b3d4e5f60",
//	  "serial": 7,
//	  "computes": {
//	    "shop.main.primary": {
//	      "endpoint_id": "ep-cool-darkness-123456",
//	      "project_id": "dark-sun-46453911",
//	      "branch_id": "br-aged-salad-637688",
//	      "type": "read_write",
//	      "prevent_destroy": true,
//	      "host": "ep-cool-darkness-123456.us-east-2.aws.neon.tech",
//	      "applied": {
//	        "name": "primary",
//	        "min_cu": 0.25,
//	        "max_cu": 4,
//	        "suspend_timeout_seconds": 300,
//	        "pg_settings": {
//	          "work_mem": "64MB"
//	        },
//	        "disabled": false
//	      }
//	    }
//	  }
//	}
//
// The fields:
//
//   - format_version: the format; a reader refuses a newer one rather than
//     misread it (and refuses unknown fields, which a rewrite would drop).
//   - lineage: a random UUID fixed when the state is created; a write into a
//     state of another lineage is refused, so two unrelated states never mix.
//   - serial: grows by one on every write; a write is refused unless the
//     stored serial is the one the writer read, so no update is lost.
//   - computes: one entry per address. An endpoint appears at most once.
//     applied holds the values in the service's terms: CU as numbers,
//     suspend_timeout_seconds with 0 for the service default and -1 for never.
//     host (optional) is the endpoint's host name as the service last
//     reported it, for people; nothing compares it. An older neonform, which
//     does not know the field, refuses such a state rather than drop it.
//     sensitive (optional, format 3) lists the attributes whose applied value
//     came from a variable declared sensitive ("pg_settings", "max_cu"):
//     apply needs the values, state show hides them. sensitive_from
//     (optional, format 3) maps each of them to the sensitive variables its
//     value came from ({"pg_settings": ["db_tuning"]}), which state show
//     names in their place; an entry without it reads, and state show then
//     says "(sensitive value)" without a name.
//
// # Local backend
//
// The state file path is given by the configuration (default
// neonform.state.json). Next to it:
//
//   - <path>.backup: the state as it was before the last write, as Terraform
//     keeps one; restore it by copying it over the state file.
//   - <path>.lock: present while a run holds the lock; JSON with id, who,
//     host, pid, since and operation. It is created with O_EXCL, so exactly
//     one process holds it. A lock left by a crash is reported (as stale if
//     its pid is gone on this host) but never removed without being asked:
//     `neonform force-unlock <id>` (Local.ForceUnlock) or deleting the file.
//   - .<name>.tmp-*: a write in progress; a write goes to such a file, is
//     synced, then renamed over the target, and the directory is synced.
//
// # Postgres backend
//
// Three tables, created if missing (CREATE on the schema is needed the first
// time only):
//
//	CREATE TABLE neonform_state (
//	  name text PRIMARY KEY, lineage text NOT NULL, serial bigint NOT NULL,
//	  data jsonb NOT NULL, updated_at timestamptz NOT NULL DEFAULT now());
//	CREATE TABLE neonform_state_lock (
//	  name text PRIMARY KEY, info jsonb NOT NULL, backend_pid integer NOT NULL);
//	CREATE TABLE neonform_state_project_lock (
//	  name text NOT NULL, project_id text NOT NULL, info jsonb NOT NULL,
//	  backend_pid integer NOT NULL, PRIMARY KEY (name, project_id));
//
// data holds the document above; lineage and serial repeat its fields so a
// write can check them in SQL (UPDATE ... WHERE serial = <read serial>, in a
// transaction that first locks the row). The lock is pg_try_advisory_lock on
// a hash of the name, taken on a connection of its own and held until unlock;
// the server releases it if that connection dies, so a crashed run leaves no
// stale lock. neonform_state_lock only says who holds it. A run that knows
// the projects it changes takes, instead, that lock shared and one lock a
// project (LockProjects, postgres_projects.go), recorded in
// neonform_state_project_lock, and its writes merge its projects' entries
// into the stored state (merge.go). Use a direct
// connection string, not a transaction-mode pooler: session advisory locks do
// not survive one.
package state

#!/usr/bin/env bash
# Checks the service's MCP server (@neondatabase/mcp-server-neon, from npm) against
# `neonform emulator -postgres`, end to end: run_sql (CREATE TABLE, INSERT, SELECT,
# a syntax error) and describe_branch over its stdio protocol, its SQL reaching the
# emulator's SQL over HTTP through the preload emulator/node/neon-local-sql.mjs
# (docs/emulator.md, SQL over HTTP). Prints each tool's answer, then OK; exits 1 on
# the first answer that is not the service's.
#
#   bench/mcp_run_sql.sh
#
# Needs node 20 or later, npm and the npm registry (the packages are installed in a
# temporary directory, the pinned versions below), and PostgreSQL's server programs
# (apt-get install postgresql). Not part of `go test`, which runs offline: the
# endpoint itself is tested in emulator/pgcompute/sqlhttp_test.go.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
command -v node >/dev/null || { echo "bench/mcp_run_sql.sh needs node and npm" >&2; exit 1; }
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

go build -o "$work/neonform" .

# The MCP server 0.6.5 and the MCP SDK it was checked with. @sentry/node, a
# dependency of the MCP server, names a GitHub tarball of @fastify/otel that npm
# may not fetch: the override takes the registry's release.
mkdir "$work/npm"
cat > "$work/npm/package.json" <<'JSON'
{"name": "neonform-mcp-check", "private": true, "type": "module",
 "dependencies": {"@neondatabase/mcp-server-neon": "0.6.5", "@modelcontextprotocol/sdk": "1.11.2"},
 "overrides": {"@fastify/otel": "0.8.0"}}
JSON
(cd "$work/npm" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null)
cp bench/mcp_run_sql.mjs "$work/npm/"

key=napi_mcp_check
"$work/neonform" emulator -addr 127.0.0.1:0 -postgres -postgres-addr 127.0.0.1:0 -op-delay 0s \
  -availability-checks 0 -api-key "$key" -quiet >"$work/emulator.out" 2>"$work/emulator.err" &
pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/emulator.out" ] && break
  sleep 0.1
done
api=$(head -n 1 "$work/emulator.out")
case "$api" in
  http://*) ;;
  *) echo "the emulator did not start:" >&2; cat "$work/emulator.err" >&2; exit 1 ;;
esac
grep -q "real Postgres" "$work/emulator.out" || { echo "the emulator runs without Postgres (install PostgreSQL's server programs):" >&2; cat "$work/emulator.out" "$work/emulator.err" >&2; exit 1; }

(cd "$work/npm" && node mcp_run_sql.mjs "$api" "$key" "$repo/emulator/node/neon-local-sql.mjs")

# shellcheck shell=bash disable=SC2034,SC2154 # DSN, base are for the sourcing script; it sets KEY
# Sourced by the benchmarks that run neonform against a fresh emulator at the
# service's timings and, with a Postgres state, a private Postgres server:
# bench/concurrent_runs.sh, bench/pipelines.sh and bench/one_run.sh, from the repository's top,
# after setting KEY. It builds neonform into work, a temporary directory, and
# stops what was started, and removes work, when the script exits.
emu=""
pg=""
as_pg=()
pgbin=$(dirname "$(ls /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | tail -1 || command -v pg_ctl)")

# start_postgres: a private server on a Unix socket; sets DSN. initdb refuses
# root: then the server runs as postgres, in a directory of its own.
start_postgres() {
  pg=$(mktemp -d /tmp/nfpgXXXX)
  if [ "$(id -u)" = 0 ]; then as_pg=(runuser -u postgres --); chown postgres "$pg"; fi
  "${as_pg[@]}" "$pgbin/initdb" -D "$pg/data" -A trust -U postgres >/dev/null
  "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pg/data" -o "-c listen_addresses='' -c unix_socket_directories='$pg' -c fsync=off" -l "$pg/log" -w start >/dev/null
  DSN="postgres:///postgres?host=$pg&user=postgres"
}

# start_emulator: a fresh emulator at the service's timings (stopping the one
# before); sets base.
start_emulator() {
  [ -n "$emu" ] && kill "$emu" && wait "$emu" 2>/dev/null || true
  "$work/neonform" emulator -addr 127.0.0.1:0 -api-key "$KEY" -op-delay 2s -latency 30ms -quiet >"$work/emu.out" 2>"$work/emu.err" &
  emu=$!
  for _ in $(seq 100); do
    base=$(head -1 "$work/emu.out" 2>/dev/null || true)
    case $base in http*) break ;; esac
    sleep 0.1
  done
}

stop_servers() {
  [ -n "$emu" ] && kill "$emu" 2>/dev/null
  [ -n "$pg" ] && { "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pg/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pg"; }
  rm -rf "$work"
}

# call METHOD PATH [JSON]: the emulator's API, with the key.
call() { curl -sf -X "$1" -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' ${3:+-d "$3"} "$base$2"; }
# stats: the emulator's requests so far, and its 429s.
stats() { curl -sf "${base%/api/v2}/_emulator/stats" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["total"], s["statuses"].get("429", 0))'; }

work=$(mktemp -d)
trap stop_servers EXIT
trap 'exit 1' INT TERM # so that the EXIT trap stops the servers
go build -o "$work/neonform" .

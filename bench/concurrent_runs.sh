#!/usr/bin/env bash
# Measures runs that share one account and one Postgres state database: each
# of RUNS runs (default 3) applies to its own PROJECTS projects (default 15),
# creating a read replica in each, then resizing each, first alone, then all
# at once. Each against a fresh emulator at the service's timings (operations
# of 2 s, 30 ms a request, the documented limits: 700 requests a minute, 40 a
# second a route). The runs share one state (NEONFORM_STATE_NAME) in a
# private Postgres server and one configuration of every run's projects, as
# pipelines of one repository do; each applies its own projects with
# -target, locks only those, and they share the account's rate budget there
# (state/pgbudget). SEPARATE=1 gives each run a state and a configuration of
# its own instead. Prints each run's wall time, and the requests and 429s of
# each phase. LOGS=DIR keeps each run's debug log (NEONFORM_LOG=debug: a line
# a request, with its time) in DIR, as MODE-PHASE-runN.log, with the run's
# start and end (seconds since the epoch) in MODE-PHASE-runN.times. Goal: each run together within 1.3x of alone, no 429, at most
# 700 requests in any minute.
#
#   bench/concurrent_runs.sh
#   RUNS=3 PROJECTS=15 bench/concurrent_runs.sh
#
# Needs PostgreSQL's server programs (initdb, pg_ctl under
# /usr/lib/postgresql/*/bin or on PATH), curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${LOGS:-}" ]; then mkdir -p "$LOGS" && LOGS=$(cd "$LOGS" && pwd); fi
RUNS=${RUNS:-3}
PROJECTS=${PROJECTS:-15}
KEY=napi_concurrent_bench_$(printf '0%.0s' $(seq 30))
. bench/servers.sh
start_postgres

# setup RUN: its projects, and a directory whose state is its own in Postgres.
setup() {
  local dir="$work/run$1"
  mkdir -p "$dir"
  printf 'neonform {\n  api_url = "%s"\n  state   = "%s"\n}\n' "$base" "$DSN" >"$dir/neonform.hcl"
  for i in $(seq "$PROJECTS"); do
    call POST /projects "{\"project\":{\"name\":\"r$1p$i\"}}"
    echo
  done | python3 -c 'import json,sys; [print(json.loads(l)["project"]["id"]) for l in sys.stdin if l.strip()]' >"$dir/ids"
}

# phase RUN MAX_CU: writes the run's projects, each a replica of MAX_CU.
phase() {
  local i=0
  while read -r id; do
    i=$((i + 1))
    printf 'project "r%dp%d" {\n  id = "%s"\n  branch "main" {\n    compute "reports" {\n      type   = "read_only"\n      min_cu = 0.25\n      max_cu = %s\n    }\n  }\n}\n' "$1" "$i" "$id" "$2"
  done <"$work/run$1/ids" >"$work/projects$1.hcl"
}

# configure: each run's directory holds its configuration. With one shared
# state, that is every run's projects (as one repository's configuration
# is), and each run applies its own with -target; SEPARATE=1: its own.
configure() {
  for r in $(seq "$RUNS"); do
    if [ -n "${SEPARATE:-}" ]; then
      cp "$work/projects$r.hcl" "$work/run$r/main.hcl"
    else
      cat "$work"/projects*.hcl >"$work/run$r/main.hcl"
    fi
  done
}

# apply RUN: applies the run's projects, and prints its wall time.
apply() {
  local start end name="bench-shared-$$-$world" targets=()
  if [ -n "${SEPARATE:-}" ]; then
    name="bench-run$1-$$-$world"
  else
    for i in $(seq "$PROJECTS"); do targets+=(-target "r$1p$i"); done
  fi
  start=$(date +%s.%N)
  NEONFORM_LOG=${LOGS:+debug} NEON_API_KEY=$KEY NEONFORM_STATE_NAME="$name" "$work/neonform" apply -auto-approve "${targets[@]}" "$work/run$1" >"$work/run$1.out" 2>&1 ||
    { echo "run $1 failed:" >&2; tail -20 "$work/run$1.out" >&2; exit 1; }
  end=$(date +%s.%N)
  if [ -n "${LOGS:-}" ]; then
    cp "$work/run$1.out" "$LOGS/$world-$phase-run$1.log"
    echo "$start $end" >"$LOGS/$world-$phase-run$1.times"
  fi
  echo "run $1 $(python3 -c "print('%.2f s' % ($end - $start))")"
}

for mode in ${MODES:-alone together}; do
  world=$mode
  start_emulator
  for r in $(seq "$RUNS"); do setup "$r"; done
  sleep 3 # the projects' creation operations end (2 s)
  for ph in create:1 resize:2; do
    phase=${ph%%:*}
    for r in $(seq "$RUNS"); do phase "$r" "${ph#*:}"; done
    configure
    read -r total0 n4290 < <(stats)
    if [ "$mode" = alone ]; then
      for r in $(seq "$RUNS"); do echo "$mode ${ph%%:*} $(apply "$r")"; done
    else
      pids=()
      for r in $(seq "$RUNS"); do
        apply "$r" >"$work/wall$r" &
        pids+=($!)
      done
      wait "${pids[@]}" # not the emulator
      for r in $(seq "$RUNS"); do echo "$mode ${ph%%:*} $(cat "$work/wall$r")"; done
    fi
    read -r total1 n4291 < <(stats)
    echo "$mode ${ph%%:*}: $((total1 - total0)) requests, $((n4291 - n4290)) x 429"
  done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

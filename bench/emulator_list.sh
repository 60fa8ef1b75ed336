#!/usr/bin/env bash
# Measures `neonform emulator` as a separate process, driven by wrk over loopback:
# a world of 1,000 projects x 10 endpoints (a primary and nine replicas each),
# loaded from a generated world file, serving GET /projects/{id}/endpoints for
# random projects. Prints wrk's figures, the time to load the world, and the
# emulator's resident memory after loading and after the run (peak).
#
#   bench/emulator_list.sh                 # 20 s, 64 connections
#   DURATION=60s CONNECTIONS=128 bench/emulator_list.sh
#
# Needs wrk (Debian/Ubuntu: apt-get install wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "bench/emulator_list.sh needs wrk: apt-get install wrk" >&2; exit 1; }
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT

go build -o "$work/neonform" .

user=5d7f8c1e-3a4b-4c2d-9e8f-0a1b2c3d4e5f
{
  printf '{"format_version": 1, "users": [{"id": "%s", "name": "Bench"}],\n' "$user"
  printf ' "api_keys": [{"id": 1, "name": "bench", "kind": "personal", "user_id": "%s", "secret": "napi_bench"}],\n "projects": [\n' "$user"
  for p in $(seq 0 999); do
    [ "$p" -gt 0 ] && printf ',\n'
    printf '  {"id": "project-%08d", "name": "p%d", "branches": [{"id": "br-main-%08d", "name": "main", "default": true}], "endpoints": [' "$p" "$p" "$p"
    printf '{"id": "ep-primary-%08d", "branch_id": "br-main-%08d", "type": "read_write", "autoscaling_limit_min_cu": 0.25, "autoscaling_limit_max_cu": 4, "suspend_timeout_seconds": -1, "lifecycle": {"to": "active"}}' "$p" "$p"
    for r in 1 2 3 4 5 6 7 8 9; do
      printf ', {"id": "ep-replica%d-%08d", "branch_id": "br-main-%08d", "type": "read_only", "name": "replica-%d", "pg_settings": {"work_mem": "64MB"}}' "$r" "$p" "$p" "$r"
    done
    printf ']}'
  done
  printf '\n]}\n'
} > "$work/world.json"

cat > "$work/list.lua" <<'LUA'
math.randomseed(7)
request = function()
  local path = string.format("/api/v2/projects/project-%08d/endpoints", math.random(0, 999))
  return wrk.format("GET", path, {["Authorization"] = "Bearer napi_bench"})
end
done = function(summary, latency, requests)
  io.write(string.format("non-2xx or errors: %d\n", summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

start=$(date +%s.%N)
"$work/neonform" emulator -addr 127.0.0.1:0 -data "$work/world.json" -api-key napi_bench -rate-limit 0 -op-delay 0 -quiet >"$work/out" 2>"$work/err" &
pid=$!
while [ ! -s "$work/out" ]; do
  kill -0 "$pid" 2>/dev/null || { cat "$work/err" >&2; exit 1; }
  sleep 0.05
done
ready=$(date +%s.%N)
url=$(head -1 "$work/out")
base=${url%/api/v2}
printf 'world: 1000 projects x 10 endpoints, file %s KB; loaded and listening after %.2f s\n' \
  "$(($(stat -c %s "$work/world.json") / 1024))" "$(awk "BEGIN {print $ready - $start}")"
printf 'resident memory after loading: %s\n' "$(grep VmRSS /proc/$pid/status | tr -s ' ' | cut -d' ' -f2-)"

wrk -t1 -c "${CONNECTIONS:-64}" -d "${DURATION:-20s}" --latency -s "$work/list.lua" "$base"

printf 'resident memory after the run: %s (peak %s)\n' \
  "$(grep VmRSS /proc/$pid/status | tr -s ' ' | cut -d' ' -f2-)" "$(grep VmHWM /proc/$pid/status | tr -s ' ' | cut -d' ' -f2-)"
kill -INT "$pid"
wait "$pid"
pid=""

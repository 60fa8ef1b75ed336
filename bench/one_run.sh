#!/usr/bin/env bash
# One run alone, with the local state file: a fresh emulator at the service's
# timings (operations of 2 s, 30 ms a request, the documented limits), N
# projects (default 15), then `apply -auto-approve` creating a read replica
# in each, then one resizing each. Each apply runs with NEONFORM_LOG=debug
# (a line a request, with its time); with LOGS=DIR its log and its start and
# end (seconds since the epoch) are kept as DIR/PHASE.log and PHASE.times,
# for bench/critical_path.py. Prints each phase's wall and requests.
#
#   bench/one_run.sh
#   N=40 LOGS=/tmp/one bench/one_run.sh && bench/critical_path.py /tmp/one/*.log
#
# Needs curl and python3. The emulator's start, call and stats are
# bench/servers.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-15}
KEY=napi_one_run_bench_$(printf '0%.0s' $(seq 30))
. bench/servers.sh
out=${LOGS:-$work/logs}
mkdir -p "$out"
start_emulator
for i in $(seq "$N"); do
  call POST /projects "{\"project\":{\"name\":\"p$i\"}}"
  echo
done | python3 -c 'import json,sys; [print(json.loads(l)["project"]["id"]) for l in sys.stdin if l.strip()]' >"$work/ids"
sleep 3 # the projects' creation operations end (2 s)
mkdir -p "$work/d"
for ph in create:1 resize:2; do
  {
    printf 'neonform {\n  api_url = "%s"\n}\n' "$base"
    i=0
    while read -r id; do
      i=$((i + 1))
      printf 'project "p%d" {\n  id = "%s"\n  branch "main" {\n    compute "reports" {\n      type   = "read_only"\n      min_cu = 0.25\n      max_cu = %s\n    }\n  }\n}\n' "$i" "$id" "${ph#*:}"
    done <"$work/ids"
  } >"$work/d/main.hcl"
  read -r total0 n4290 < <(stats)
  start=$(date +%s.%N)
  (cd "$work/d" && NEONFORM_LOG=debug NEON_API_KEY=$KEY "$work/neonform" apply -auto-approve >"$work/apply.out" 2>"$out/${ph%%:*}.log") ||
    { echo "${ph%%:*} failed:" >&2; tail -20 "$out/${ph%%:*}.log" "$work/apply.out" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$start $end" >"$out/${ph%%:*}.times"
  read -r total1 n4291 < <(stats)
  echo "${ph%%:*}: $(python3 -c "print('%.2f s' % ($end - $start))"), $((total1 - total0)) requests, $((n4291 - n4290)) x 429"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# Measures the pipelines of docs/pipelines.md on one account and one state, at
# the service's timings (operations of 2 s, 30 ms a request, the documented
# limits: 700 requests a minute, 40 a second a route): a production plan of
# PROD projects (default 10: a read replica resized in each) is saved for
# review; then two previews open, each an apply -target creating a replica in
# a project of its own, and a closed preview's replica, deleted in the
# service, is forgotten by an apply -target without -auto-approve or a
# terminal (nothing to review); then the saved production plan is applied.
# It must apply: none of the runs in between touched a project it changes.
# Prints each step's wall time, requests and 429s. The state is in a private
# Postgres server (each apply locks only its projects); LOCAL=1 keeps it in a
# local file instead.
#
#   bench/pipelines.sh
#   PROD=40 LOCAL=1 bench/pipelines.sh
#
# Needs PostgreSQL's server programs (initdb, pg_ctl under
# /usr/lib/postgresql/*/bin or on PATH) unless LOCAL=1, curl and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
PROD=${PROD:-10}
KEY=napi_pipelines_bench_$(printf '0%.0s' $(seq 30))
. bench/servers.sh
state="neonform.state.json"
if [ -z "${LOCAL:-}" ]; then
  start_postgres
  state=$DSN
fi
start_emulator

# The projects: svc1..svcPROD (production), prev1 and prev2 (previews to
# open), gone (a preview to close).
names=$(for i in $(seq "$PROD"); do echo "svc$i"; done; echo prev1 prev2 gone)
for n in $names; do
  echo "$n $(call POST /projects "{\"project\":{\"name\":\"$n\"}}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["project"]["id"])')"
done >"$work/ids"
sleep 3 # the projects' creation operations end (2 s)

# configure PROD_MAX_CU PREVIEWS GONE: svc's replicas at PROD_MAX_CU, a
# replica in prev1 and prev2 when PREVIEWS is 1, in gone when GONE is 1.
configure() {
  printf 'neonform {\n  api_url = "%s"\n  state   = "%s"\n}\n' "$base" "$state"
  while read -r name id; do
    local want=1 max=1
    case $name in svc*) max=$1 ;; prev*) want=$2 ;; gone) want=$3 ;; esac
    printf 'project "%s" {\n  id = "%s"\n' "$name" "$id"
    [ "$want" = 1 ] && printf '  branch "main" {\n    compute "reports" {\n      type   = "read_only"\n      min_cu = 0.25\n      max_cu = %s\n    }\n  }\n' "$max"
    printf '}\n'
  done <"$work/ids"
}

# step NAME CMD...: runs neonform CMD in the configuration, and prints its
# wall time, requests and 429s; stops the benchmark when it fails.
step() {
  local name=$1 start end t0 n0 t1 n1
  shift
  read -r t0 n0 < <(stats)
  start=$(date +%s.%N)
  (cd "$work/cfg" && NEON_API_KEY=$KEY "$work/neonform" "$@" </dev/null >"$work/$name.out" 2>&1) ||
    { echo "$name failed:" >&2; tail -20 "$work/$name.out" >&2; exit 1; }
  end=$(date +%s.%N)
  read -r t1 n1 < <(stats)
  echo "$name: $(python3 -c "print('%.2f s' % ($end - $start))"), $((t1 - t0)) requests, $((n1 - n0)) x 429"
}

mkdir "$work/cfg"
configure 1 0 1 >"$work/cfg/main.hcl"
step setup apply -auto-approve . >/dev/null
configure 2 0 1 >"$work/cfg/main.hcl"
step production-plan plan -out "$work/prod.json" .
configure 2 1 1 >"$work/cfg/main.hcl"
step preview-1-apply apply -auto-approve -target prev1 .
step preview-2-apply apply -auto-approve -target prev2 .
gone=$(awk '$1 == "gone" {print $2}' "$work/ids")
ep=$(NEON_API_KEY=$KEY "$work/neonform" state show -json gone.main.reports "$work/cfg" | python3 -c 'import json,sys; print(json.load(sys.stdin)["endpoint_id"])')
call DELETE "/projects/$gone/endpoints/$ep" >/dev/null
sleep 2.5 # the deletion's operation ends
configure 2 1 0 >"$work/cfg/main.hcl"
step forget-apply apply -target gone .
step production-apply apply "$work/prod.json" .
if ! grep -q 'Apply complete' "$work/production-apply.out" || grep -q stale "$work/production-apply.out"; then
  echo "the production plan did not apply:" >&2
  cat "$work/production-apply.out" >&2
  exit 1
fi
echo "production plan applied, nothing stale ($(tail -1 "$work/production-apply.out"))"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"

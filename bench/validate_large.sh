#!/usr/bin/env bash
# Measures `neonform validate` end to end on a generated configuration of
# 1,000 projects x 10 computes (two branches of a primary and four replicas,
# with variables, locals and function calls), as the CLI runs it.
# Prints the CPU (user + sys) and wall time of each of five runs, then the peak
# memory of one (with GNU time, when /usr/bin/time is there).
#
#   bench/validate_large.sh
#   GOGC=100 bench/validate_large.sh      # Go's default garbage collector setting
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/neonform" .
mkdir "$work/cfg"
cat > "$work/cfg/common.hcl" <<'HCL'
variable "replica_cu" {
  type    = number
  default = 1
}

locals {
  pg_common = { work_mem = "64MB", statement_timeout = "60s" }
  suspend   = "10m"
}
HCL
for f in $(seq 0 9); do
  for p in $(seq "$f" 10 999); do
    printf 'project "p%d" {\n  id = "project-%08d"\n' "$p" "$p"
    for branch in main staging; do
      printf '  branch "%s" {\n' "$branch"
      printf '    compute "primary" {\n      min_cu          = 0.25\n      max_cu          = 4\n      suspend_timeout = local.suspend\n      pg_settings     = local.pg_common\n      lifecycle {\n        prevent_destroy = true\n      }\n    }\n'
      for r in 1 2 3 4; do
        printf '    compute "replica%d" {\n      type        = "read_only"\n      size        = var.replica_cu\n      name        = format("%%s-replica-%d", "%s")\n      pg_settings = merge(local.pg_common, { work_mem = "128MB" })\n    }\n' "$r" "$r" "$branch"
      done
      printf '  }\n'
    done
    printf '}\n\n'
  done > "$work/cfg/projects$f.hcl"
done

"$work/neonform" validate "$work/cfg" | sed -n 1p
TIMEFORMAT='cpu %U user + %S sys, wall %R s'
for i in 1 2 3 4 5; do
  time "$work/neonform" validate "$work/cfg" > /dev/null
done
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f 'peak RSS %M KB' "$work/neonform" validate "$work/cfg" > /dev/null
fi

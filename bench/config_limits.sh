#!/usr/bin/env bash
# Measures `neonform validate` on configurations at and past the limits of
# what it reads (README: "Limits"): the largest it accepts, of several
# shapes, and hostile ones it must refuse. Goal: each is read or refused in
# under 5 s and 1 GB. Prints, for each, the exit code, the wall time, the
# peak memory (GNU time) and the first line neonform printed on stderr.
# With names, it measures only those configurations.
#
#   bench/config_limits.sh [NAME...]
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/neonform" .

# shape NAME: writes $work/NAME/main.hcl from standard input.
shape() { mkdir -p "$work/$1"; cat > "$work/$1/main.hcl"; }
# repeat TEXT N: TEXT N times, without newlines.
repeat() { awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'; }

# Within the limits (8 MiB and 2,000,000 tokens in all, 200 levels deep).
for p in $(seq 0 3649); do
  printf 'project "p%d" {\n  id = "project-%08d"\n' "$p" "$p"
  for branch in main staging; do
    printf '  branch "%s" {\n    compute "primary" {\n      min_cu          = 0.25\n      max_cu          = 4\n      suspend_timeout = "10m"\n      pg_settings     = { work_mem = "64MB" }\n      lifecycle {\n        prevent_destroy = true\n      }\n    }\n' "$branch"
    for r in 1 2 3 4; do
      printf '    compute "replica%d" {\n      type        = "read_only"\n      size        = 1\n      name        = format("%%s-replica-%d", "%s")\n      pg_settings = merge({ a = "1" }, { work_mem = "128MB" })\n    }\n' "$r" "$r" "$branch"
    done
    printf '  }\n'
  done
  printf '}\n\n'
done | shape real-3650-projects
{ printf 'locals {\n  big = ['; repeat '1,' 999000; printf '1]\n}\n'; } | shape list-999k-numbers
{ printf 'locals {\n  big = ['; repeat '"a",' 495000; printf '"a"]\n}\n'; } | shape list-495k-strings
{ printf 'locals {\n  big = ['; repeat '{a=1},' 330000; printf '{}]\n}\n'; } | shape list-330k-objects
{ printf 'locals {\n  s = "'; head -c $((8 * 1024 * 1024 - 100)) /dev/zero | tr '\0' a; printf '"\n}\n'; } | shape string-8MiB
{ printf 'locals {\n'; for i in $(seq 1 5000); do printf '  d%d = %s1%s\n' "$i" "$(repeat '(' 190)" "$(repeat ')' 190)"; done; printf '}\n'; } | shape nested-190-x5000

# Past them: refused before parsing.
{ printf '#'; head -c $((8 * 1024 * 1024)) /dev/zero | tr '\0' x; } | shape file-8MiB-plus-1
{ printf 'locals {\n  deep = '; repeat '(' 100000; printf 1; repeat ')' 100000; printf '\n}\n'; } | shape parentheses-100k-deep
{ printf 'locals {\n  big = 1'; repeat '+1' 4000000; printf '\n}\n'; } | shape additions-4M
# A heredoc whose marker holds a newline after a broken UTF-8 byte (hcl's
# tables allow it): the parentheses in its ${ are code to hcl.
{ printf 'locals {\n  deep = <<\xd4\n\n#${'; repeat '(' 3000000; printf 1; repeat ')' 3000000; printf '}\n}\n'; } | shape heredoc-marker-3M-deep
{ printf 'locals {\n  big = ['; repeat '1,' 4000000; printf '1]\n}\n'; } | shape list-4M-numbers
mkdir -p "$work/var-file-dev-zero" && echo 'locals {}' > "$work/var-file-dev-zero/main.hcl"

# Expressions past the evaluation's bounds (docs/limits.md: "Evaluating
# expressions"), refused where they are written; and the most work within.
{ printf 'locals {\n  a = "%s"\n' "$(repeat a 1000)"; printf '  b = replace(local.a, "a", local.a)\n  c = replace(local.b, "a", local.b)\n}\n'; } | shape replace-bomb
{ printf 'locals {\n  s = "'; repeat '[' 3000000; printf '"\n  j = jsondecode(local.s)\n}\n'; } | shape jsondecode-3M-deep
printf 'locals {\n  p = setproduct(range(1000), range(1000), range(1000))\n}\n' | shape setproduct-1000x3
printf 'locals {\n  f = format("%%-999999999s", "a")\n}\n' | shape format-width-1e9
printf 'locals {\n  i = indent(999999999, "a\\nb")\n}\n' | shape indent-1e9
{ printf 'locals {\n  t0 = "%s"\n' "$(repeat a 1024)"; for i in $(seq 1 30); do printf '  t%d = "${local.t%d}${local.t%d}"\n' "$i" $((i - 1)) $((i - 1)); done; printf '}\n'; } | shape template-doubling
printf 'locals {\n  n = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : 1]]]\n}\n' | shape for-1000x3
printf 'locals {\n  n = "${1e100000000}"\n}\n' | shape number-1e100000000
printf 'locals {\n  grid = [for a in range(1000) : [for b in range(900) : a]]\n}\n' | shape steps-19M-within

printf '%-24s %5s %8s %10s  %s\n' configuration exit wall 'peak RSS' 'stderr'
all=(real-3650-projects list-999k-numbers list-495k-strings list-330k-objects string-8MiB nested-190-x5000
  file-8MiB-plus-1 parentheses-100k-deep additions-4M heredoc-marker-3M-deep list-4M-numbers var-file-dev-zero
  replace-bomb jsondecode-3M-deep setproduct-1000x3 format-width-1e9 indent-1e9 template-doubling for-1000x3
  number-1e100000000 steps-19M-within)
[ $# -gt 0 ] && all=("$@")
for dir in "${all[@]}"; do
  args=(validate "$work/$dir")
  [ "$dir" = var-file-dev-zero ] && args+=(-var-file /dev/zero)
  set +e
  /usr/bin/time -f '%e %M' -o "$work/time" "$work/neonform" "${args[@]}" > /dev/null 2> "$work/stderr"
  code=$?
  set -e
  read -r wall rss < <(tail -1 "$work/time")
  printf '%-24s %5s %7ss %7d MB  %s\n' "$dir" "$code" "$wall" $((rss / 1024)) "$(head -c 60 "$work/stderr" | head -1)"
done

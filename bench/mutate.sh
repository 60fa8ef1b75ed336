#!/usr/bin/env bash
# Mutation testing of the checks a plan is held to (docs/development.md,
# "Mutation testing"; figures in docs/mutation.md): single changes to
# verify.go, derive.go, check_steps.go, stale.go, fresh.go and still_idle.go,
# each tested through go's -overlay, so the tree is never written, even when
# the run is interrupted. Arguments go to bench/mutate: -sample N -seed S to
# run N mutants picked at random, -list to list them, FILE... for other files.
#
#   bench/mutate.sh                       # every mutant: hours on 2 cores
#   bench/mutate.sh -sample 60 -seed 29   # the figure in docs/mutation.md
set -euo pipefail
cd "$(dirname "$0")/.."
files=()
flags=()
for a in "$@"; do
  case "$a" in
    *.go) files+=("$a") ;;
    *) flags+=("$a") ;;
  esac
done
if [ ${#files[@]} -eq 0 ]; then
  files=(diff/verify.go diff/derive.go diff/check_steps.go apply/stale.go apply/fresh.go apply/still_idle.go)
fi
# The diff package's tests first (seconds), the plan file's, then apply's
# (a minute and more): a mutant dies at the first that fails. Each mutant
# compiles the packages again: about a minute a mutant on a loaded 2-core
# machine, two or three for one that survives.
exec go run ./bench/mutate -timeout 6m -pkgs "./diff ./diff/planfile ./diff/view ./diff/fetch ./apply" ${flags[@]+"${flags[@]}"} "${files[@]}"

#!/usr/bin/env bash
# The cold CI run, timed: a fresh clone of COMMIT (default HEAD) runs .ci/run (./setup.sh test) with no compiler
# cache. Prints setup.sh's lines per phase (wall, and CPU of the phase and its children), the whole run's wall
# and CPU, each build folder's slowest compiles (from .ninja_log: the wall time of each job, so only indicative
# when jobs share cores) and each test preset's slowest tests. The run's whole output is kept in LOG.
# CPU seconds compare fairly on a machine that others load too; wall seconds do not: record which it was.
#   bench/ci-time/run.sh [COMMIT] [LOG]      (LOG defaults to ./ci-time-COMMIT.log)
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$repo/bench/common.sh"
ref="$(git -C "$repo" rev-parse --short "${1:-HEAD}")"
log="$(realpath -m "${2:-ci-time-$ref.log}")"
bench_begin "$repo"
unset DTSIM_DATA_DIR CMAKE_CXX_COMPILER_LAUNCHER CMAKE_C_COMPILER_LAUNCHER
export CCACHE_DISABLE=1

clone="$scratch/dtsim"
git clone --quiet --no-checkout "$repo" "$clone"
git -C "$clone" checkout --quiet --detach "$ref"
echo "ci-time: $ref, started $started, $(bench_machine), load average $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
(cd "$clone" && /usr/bin/time -f "== time: whole run: %e s wall, %U s user + %S s sys" .ci/run) >"$log" 2>&1 || status=$?
echo "ci-time: exit status $status, load average at the end $(cut -d' ' -f1-3 /proc/loadavg); output in $log"
grep '^== time:' "$log" || true

for build in build build-sanitize build-fuzz; do
  [[ -f "$clone/$build/.ninja_log" ]] || continue
  echo "slowest compiles in $build/ (wall s of each job):"
  awk 'NR > 1 && $4 ~ /\.o$/ {d = ($2 - $1) / 1000; sum += d; print d, $4} END {print sum, "(all objects together)"}' \
    "$clone/$build/.ninja_log" | sort -rn | head -n 11 | sed 's/^/  /'
done
# ctest prints "N/M Test #K: NAME .... Passed  S sec"; the release tests come before the sanitize ones.
awk '/^== unit and integration tests under/ {preset = "sanitize"} /^== tests \(release build\)/ {preset = "release"}
     preset && / Test +#[0-9]+: / && match($0, /[0-9.]+ sec$/) {
       name = $0; sub(/^.*Test +#[0-9]+: /, "", name); sub(/ \.+.*$/, "", name)
       print preset, substr($0, RSTART, RLENGTH - 4), name}' "$log" >"$scratch/tests"
for preset in release sanitize; do
  echo "slowest $preset tests (s; all together: $(awk -v p=$preset '$1 == p {s += $2} END {print s}' "$scratch/tests") s):"
  awk -v p=$preset '$1 == p {$1 = ""; print}' "$scratch/tests" | sort -rn | head -n 10 | sed 's/^ /  /'
done
exit "$status"

#!/usr/bin/env bash
# bench/calibrate-quick: (1) wall time of a --quick MPI calibration with 4 ranks on this machine
# (target <= 3 min); (2) the cross-validation error table on the local testbed: 4 hosts at RATE,
# a calibration, a fit, and `dtsim fit --validate` (target: all-reduce above 64 KB, median <= 5 %,
# max <= 15 %). Writes bench/results/calibrate-quick-<rate>.md and keeps the samples and profile there.
# Usage (root, the testbed needs network namespaces): bench/calibrate-quick/run.sh [RATE] [MAX_SIZE] [FACTOR] [QUEUE_MS]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rate="${1:-1gbit}"
max="${2:-16MiB}"
factor="${3:-2}"
queue_ms="${4:-2}"  # a short tbf queue, as a switch port's: see the record and runtime/testbed/README.md
bin="$root/build/bin"
testbed="$root/runtime/testbed/dtsim-testbed"
results="$root/bench/results"
work="$results/calibrate-quick-$rate"
out="$results/calibrate-quick-$rate.md"
# Taken before this run rewrites its own tracked outputs; only changes outside bench/results count.
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet -- . ':!bench/results' || echo ' (with uncommitted changes)')"
rm -rf "$work" && mkdir -p "$work"

echo "== 1. quick calibration, 4 ranks on this machine"
start=$(date +%s.%N)
mpirun --allow-run-as-root --oversubscribe -np 4 "$bin/dtsim-runtime" calibrate --backend mpi --quick \
  --out "$work/local-quick" > /dev/null
quick_s=$(echo "$(date +%s.%N) - $start" | bc)
samples=$(wc -l < "$work/local-quick/samples.jsonl")

echo "== 2. testbed: 4 hosts at $rate, full calibration up to $max"
"$testbed" down > /dev/null 2>&1 || true
"$testbed" up 4 --rate "$rate" --queue "$queue_ms"
trap '"$testbed" down > /dev/null 2>&1 || true' EXIT
start=$(date +%s.%N)
# Four TCP connections per peer pair: over one, Open MPI carries a two-way exchange at ~55 % of the rate
# per direction (runtime/testbed/README.md, "Limits"), which the full-duplex link model does not describe.
"$testbed" run --mca btl_tcp_links 4 -- "$bin/dtsim-runtime" calibrate --backend mpi --out "$work/testbed" --max "$max" --factor "$factor" --target-time 0.5 \
  > /dev/null
testbed_s=$(echo "$(date +%s.%N) - $start" | bc)
"$testbed" down > /dev/null
"$bin/dtsim" fit "$work/testbed" --out "$work/testbed-profile.json" --name "testbed-4x$rate" > "$work/fit.txt"
"$bin/dtsim" fit --validate "$work/testbed" "$work/testbed-profile.json" --json "$work/validate.json" > "$work/validate.txt"
rm -rf "$work/local-quick"  # its samples are not needed for the record

{
  echo "# bench/calibrate-quick ($rate)"
  echo
  echo "- machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB, $(mpirun --version | head -1)"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $commit"
  echo
  echo "## 1. Quick MPI calibration, 4 ranks on this machine"
  echo
  printf -- "- wall time: %.1f s for %d samples (target <= 180 s)\n" "$quick_s" "$samples"
  echo
  echo "## 2. Cross-validation on the testbed: 4 hosts at $rate, tbf queue $queue_ms ms"
  echo
  printf -- "- calibration (sizes 8 B to %s, ×%s steps, groups of 2 and 4 ranks): %.0f s, %d samples in \`%s\`\n" "$max" "$factor" "$testbed_s" \
    "$(wc -l < "$work/testbed/samples.jsonl")" "calibrate-quick-$rate/testbed/samples.jsonl"
  echo "- transport: Open MPI over TCP with \`btl_tcp_links 4\` (see the comment in \`bench/calibrate-quick/run.sh\`)"
  echo "- profile: \`calibrate-quick-$rate/testbed-profile.json\`; fit summary: \`calibrate-quick-$rate/fit.txt\`"
  echo
  echo "Every collective measured one at a time (latency mode), replayed from the point-to-point fits alone:"
  echo
  echo '```'
  sed -n '/^summary:/,$p' "$work/validate.txt"
  echo '```'
  echo
  echo "Per size: \`calibrate-quick-$rate/validate.txt\`."
} > "$out"
cat "$out"

#!/usr/bin/env bash
# `dtsim plan` of Llama 3 70B on 1024 H100s (issue 21): configurations enumerated, refused, dropped for
# memory, pruned and simulated, wall time and peak RSS; writes bench/results/plan.md.
# Usage: bench/plan/run.sh [path/to/dtsim] [jobs]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dtsim="${1:-$root/build/bin/dtsim}"
jobs="${2:-2}"
out="$root/bench/results/plan.md"
# shellcheck source=../common.sh
source "$root/bench/common.sh"
bench_begin "$root"

/usr/bin/time -f "%e %M" -o "$scratch/time" "$dtsim" plan "$here/llama3-70b-1024.yaml" --simulate 8 --jobs "$jobs" --quiet \
  > "$scratch/plan.txt"
read -r wall rss_kb < "$scratch/time"
load="$(cut -d' ' -f1-3 /proc/loadavg)"
# Earlier records stay below the new one, as history.
previous=""
if [ -f "$out" ]; then previous="$(tail -n +2 "$out")"; fi

{
  echo "# bench/plan"
  echo
  echo "\`dtsim plan bench/plan/llama3-70b-1024.yaml --simulate 8 --jobs $jobs\`: Llama 3 70B, global batch 1024 sequences"
  echo "of 8192 tokens, on 1024 H100s (128 nodes × 8, 8 NDR NICs each, rail-optimized), every configuration of"
  echo "docs/plan.md's search space checked by the scenario loader, the best 8 estimates simulated in flow fidelity."
  echo
  echo "- machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB;"
  echo "  load average when it ended: $load (other work shares the machine: timings are indicative)"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $commit"
  echo "- target (issue 21): ≤ 2 min wall time"
  echo
  echo "| wall time (s) | peak RSS of the planning process (MB) |"
  echo "|---:|---:|"
  echo "| $wall | $((rss_kb / 1024)) |"
  echo
  echo "Each simulated configuration runs in a child process of its own; bench/llm-scale records one such"
  echo "simulation's time and memory at 1024 GPUs."
  echo
  echo '```'
  cat "$scratch/plan.txt"
  echo '```'
  if [ -n "$previous" ]; then
    echo
    echo "## Earlier record"
    echo "$previous"
  fi
} > "$scratch/results.md"
tee "$out" < "$scratch/results.md"

#!/usr/bin/env bash
# Wall time and peak RSS of `dtsim simulate` at growing scale; writes bench/results/sim-scale.md.
# Usage: bench/sim-scale/run.sh [path/to/dtsim]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dtsim="${1:-$root/build/bin/dtsim}"
out="$root/bench/results/sim-scale.md"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# Taken before this run rewrites its own results file; only changes outside bench/results count.
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet -- . ':!bench/results' || echo ' (with uncommitted changes)')"

measure() {  # fidelity gpus [--set ...] -> "wall_s rss_mb iteration_s"
  local fidelity=$1 gpus=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$scratch/time" "$dtsim" simulate "$here/scenario.yaml" --quiet \
    --set cluster.nodes=$((gpus / 8)) --set training.fidelity="$fidelity" --json "$scratch/run.json" "$@"
  read -r wall rss_kb < "$scratch/time"
  iteration=$(sed -n 's/.*"iteration_time_s": \([0-9.e-]*\).*/\1/p' "$scratch/run.json")
  echo "$wall $((rss_kb / 1024)) $iteration"
}

{
  echo "# bench/sim-scale"
  echo
  echo "One iteration of a 100 MB-gradient model (25 MB buckets, ring all-reduce, overlap on) on a fat-tree"
  echo "of 8-GPU H100 nodes with NDR InfiniBand (\`bench/sim-scale/scenario.yaml\`). Wall time and peak RSS"
  echo "of the whole \`dtsim simulate\` process (GNU time), platform building included."
  echo
  echo "- machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $commit"
  echo "- targets: flow fidelity at 4096 GPUs ≤ 1 s and ≤ 300 MB; 16 384 GPUs ≤ 10 s"
  echo
  echo "| fidelity | GPUs | wall time (s) | peak RSS (MB) | simulated iteration (s) |"
  echo "|---|---:|---:|---:|---:|"
  for gpus in 64 256 1024 4096 16384; do
    read -r wall rss iteration < <(measure flow $gpus)
    echo "| flow | $gpus | $wall | $rss | $iteration |"
  done
  for gpus in 64 256 1024; do
    read -r wall rss iteration < <(measure step $gpus)
    echo "| step | $gpus | $wall | $rss | $iteration |"
  done
  echo
  echo "Strategy breadth (flow fidelity; targets: each <= 5 s):"
  echo
  echo "| run | GPUs | wall time (s) | peak RSS (MB) | simulated iteration (s) |"
  echo "|---|---:|---:|---:|---:|"
  read -r wall rss iteration < <(measure flow 1024 --set 'training.strategy={kind: parameter-server, servers: 32, sync: async}' \
    --set training.iterations=20)
  echo "| async parameter server, 32 dedicated servers, 20 iterations | 1024 | $wall | $rss | $iteration |"
  read -r wall rss iteration < <(measure flow 4096 --set 'training.compression={kind: topk, ratio: 0.01}')
  echo "| ring all-reduce with top-k compression (1 %), all-gathered | 4096 | $wall | $rss | $iteration |"
  # SimGrid walks every host each time it seals a zone, and a rail-optimized platform has one zone per NIC.
  read -r wall rss iteration < <(measure flow 4096 --set 'cluster.fabric={topology: rail-optimized}' \
    --set 'cluster.nic={count: 8, preset: ib-ndr}')
  echo "| ring all-reduce on a rail-optimized fabric, 8 NICs per node (platform of 4096 NIC zones) | 4096 | $wall | $rss | $iteration |"
  # algorithm: nccl, one 100 MB all-reduce: 8 channels; in flow fidelity one flow per GPU pair (docs/collectives.md).
  read -r wall rss iteration < <(measure flow 4096 --set 'cluster.fabric={topology: rail-optimized}' \
    --set 'cluster.nic={count: 8, preset: ib-ndr}' --set 'training.strategy={kind: allreduce, algorithm: nccl, bucket: 100MB}')
  echo "| one NCCL all-reduce (8 channels over 8 NICs per node), rail-optimized (target ≤ 1 s) | 4096 | $wall | $rss | $iteration |"
} | tee "$out"

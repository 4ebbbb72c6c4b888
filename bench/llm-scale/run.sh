#!/usr/bin/env bash
# Wall time and peak RSS of `dtsim simulate` on large-model layouts (issue 18); writes bench/results/llm-scale.md.
# Usage: bench/llm-scale/run.sh [path/to/dtsim]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dtsim="${1:-$root/build/bin/dtsim}"
out="$root/bench/results/llm-scale.md"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# Taken before this run rewrites its own results file; only changes outside bench/results count.
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet -- . ':!bench/results' || echo ' (with uncommitted changes)')"

measure() {  # scenario [--set ...] -> "wall_s rss_mb iteration_s tokens_per_s mfu"
  local scenario=$1
  shift
  /usr/bin/time -f "%e %M" -o "$scratch/time" "$dtsim" simulate "$here/$scenario" --quiet --json "$scratch/run.json" "$@"
  read -r wall rss_kb < "$scratch/time"
  python3 - "$scratch/run.json" "$wall" "$rss_kb" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(sys.argv[2], int(sys.argv[3]) // 1024, f'{s["iteration_time_s"]:.3f}', f'{s["tokens_per_s"]:.0f}',
      f'{100 * s["model_flops_utilisation"]:.1f}')
PY
}

row() {  # label scenario [--set ...]
  local label=$1
  shift
  read -r wall rss iteration tokens mfu < <(measure "$@")
  echo "| $label | $wall | $rss | $iteration | $tokens | $mfu |"
}

{
  echo "# bench/llm-scale"
  echo
  echo "One iteration of a large-model layout in flow fidelity (one simulated rank per tensor group, docs/llm.md,"
  echo "\"Scale\"): wall time and peak RSS of the whole \`dtsim simulate\` process (GNU time), platform building included."
  echo
  echo "- machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $commit"
  echo "- targets (issue 18): ≤ 5 s and ≤ 1 GB at 1024 GPUs; ≤ 60 s and ≤ 8 GB at 16 384 GPUs"
  echo
  echo "| run | wall time (s) | peak RSS (MB) | simulated iteration (s) | tokens/s | MFU % |"
  echo "|---|---:|---:|---:|---:|---:|"
  row "GPT-3 175B, 1024 H100, TP8 PP8 DP16, 1F1B, 96 microbatches (\`gpt3-175b-1024.yaml\`)" gpt3-175b-1024.yaml
  row "Llama 3 405B, 16 384 H100, TP8 PP16 DP128, 1F1B, 16 microbatches (\`llama3-405b-16384.yaml\`)" llama3-405b-16384.yaml
  echo
  echo "Breadth at 1024 GPUs (GPT-3 175B scenario with overrides):"
  echo
  echo "| run | wall time (s) | peak RSS (MB) | simulated iteration (s) | tokens/s | MFU % |"
  echo "|---|---:|---:|---:|---:|---:|"
  row "interleaved 1F1B, 2 virtual stages" gpt3-175b-1024.yaml --set training.pipeline.schedule=interleaved-1f1b \
    --set training.pipeline.virtual_stages=2
  row "ZeRO-3 (parameter gathers every layer and pass)" gpt3-175b-1024.yaml --set training.zero=3
  row "step fidelity (every rank, every message), 64 GPUs: TP8 PP8 DP1, 8 microbatches" gpt3-175b-1024.yaml \
    --set cluster.nodes=8 --set training.global_batch=8 --set training.fidelity=step
} | tee "$out"

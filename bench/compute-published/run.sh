#!/usr/bin/env bash
# Published single-GPU training throughput against dtsim's uncalibrated prediction (GPU presets only, no
# profile, nothing fitted per row); writes bench/results/compute-published.md.
# Usage: bench/compute-published/run.sh [path/to/dtsim]
#
# data/published/single-gpu-training.tsv holds each published figure with its source, batch and precision.
# Each row is simulated as one GPU of its preset training the zoo model at the published batch, with the
# published recipe's gradient accumulation and optimizer (training.optimizer: one step per iteration), for
# 2 iterations; the predicted throughput is dtsim's samples/s. error = predicted / published − 1, so a
# positive error means dtsim predicts faster. Rows of split `judge` are the ones model changes were judged
# on; `held-out` rows were not looked at while changing the model. Rows of a part without a preset are
# listed, not simulated.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dtsim="${1:-$root/build/bin/dtsim}"
table="$root/data/published/single-gpu-training.tsv"
out="$root/bench/results/compute-published.md"
# shellcheck source=../common.sh
source "$root/bench/common.sh"
bench_begin "$root"

grep -v '^#' "$table" | tail -n +2 | while IFS=$'\t' read -r id model gpu part precision batch accumulation optimizer rest; do
  [ "$gpu" = none ] && continue
  cat > "$scratch/$id.yaml" <<YAML
name: $id
cluster: {nodes: 1, gpus_per_node: 1, gpu: $gpu, nic: ib-ndr}
model: {zoo: $model, batch_per_gpu: $batch, precision: $precision}
training: {iterations: 2, accumulation_steps: $accumulation, optimizer: {kind: $optimizer},
           strategy: {kind: allreduce, algorithm: ring}}
YAML
  "$dtsim" simulate "$scratch/$id.yaml" --quiet --json "$scratch/$id.json" > "$scratch/$id.out" 2>&1 || echo "$id failed" >&2
done

{
  echo "# bench/compute-published"
  echo
  echo "Published single-GPU training throughput (\`data/published/single-gpu-training.tsv\`, each row's source there)"
  echo "against dtsim's prediction from the GPU preset alone (no profile, no \`single_gpu_step_time\`, nothing fitted"
  echo "per row). error = predicted / published − 1: positive means dtsim predicts faster."
  echo
  echo "- machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); the prediction does not depend on it"
  echo "- date: $started"
  echo "- commit: $commit"
  echo "- target (issue 20, item 5): every row within ±15 %"
  echo
  python3 - "$table" "$scratch" <<'PY'
import json, os, statistics, sys

table, scratch = sys.argv[1], sys.argv[2]
with open(table) as f:
    lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
header = lines[0].split("\t")
print("| row | model | GPU (preset) | precision | batch × steps, optimizer | published | predicted | error | split | within 15 % |")
print("|---|---|---|---|---|---|---|---|---|---|")
errors = {"judge": [], "held-out": []}
for line in lines[1:]:
    r = dict(zip(header, line.split("\t")))
    published = float(r["published"])
    predicted = err = None
    path = os.path.join(scratch, r["id"] + ".json")
    if r["gpu"] != "none" and os.path.exists(path):
        with open(path) as f:
            predicted = json.load(f)["samples_per_s"]
        err = predicted / published - 1
        errors[r["split"]].append(abs(err))
    gpu = r["part"] + ("" if r["gpu"] == "none" else f" ({r['gpu']})")
    shown = "not simulated: no preset for this part" if r["gpu"] == "none" else ("failed" if predicted is None else f"{predicted:,.0f}")
    print(f"| {r['id']} | {r['model']} | {gpu} | {r['precision']} | {r['batch']} × {r['accumulation']}, {r['optimizer']} | {published:,.0f} {r['unit']} | {shown} | "
          f"{'—' if err is None else f'{100 * err:+.1f} %'} | {r['split']} | {'—' if err is None else ('yes' if abs(err) <= 0.15 else 'no')} |")
print()
for split, values in errors.items():
    if values:
        print(f"- {split}: {len(values)} rows, median |error| {100 * statistics.median(values):.1f} %, "
              f"max {100 * max(values):.1f} %, within 15 %: {sum(v <= 0.15 for v in values)}")
PY
} > "$out"
echo "wrote $out" >&2

#!/usr/bin/env bash
# Published multi-GPU data-parallel training throughput against dtsim's; writes bench/results/dp-published.md.
# Usage: bench/dp-published/run.sh [path/to/dtsim]
#        bench/dp-published/run.sh --scenarios DIR     (only write every row's scenario to DIR/ID.yaml)
#
# Each row of published.tsv is one published multi-GPU throughput and the same source's 1-GPU throughput
# (README.md: sources, hardware, what each framework synchronises). Its scenario comes from public facts only: the
# node preset of data/hardware/node, the zoo model of data/models, the gradients' precision, the framework's bucket,
# and model.single_gpu_step_time = batch per GPU / the published 1-GPU throughput (the compute of one step as
# measured, so the comparison tests the communication and its overlap, not the compute model). Nothing is fitted
# per row. All-reduce rows run NCCL's model (algorithm: nccl) on a rail-optimized fabric; parameter-server rows
# run synchronous servers colocated one per instance, as the source ran them. Flow fidelity, 3 iterations (the
# first, a warm-up, is left out of the mean). Error = predicted / published samples/s − 1: positive means dtsim
# predicts faster.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

# write_scenarios DIR: one DIR/ID.yaml per row of published.tsv.
write_scenarios() {
  local dir="$1"
  local id strategy nodes node gpus model precision batch accumulation bucket servers one_gpu rest step
  mkdir -p "$dir"
  while IFS=$'\t' read -r id strategy nodes node gpus model precision batch accumulation bucket servers one_gpu rest; do
    [[ "$id" == \#* || "$id" == id ]] && continue
    step="$(awk -v b="$batch" -v r="$one_gpu" 'BEGIN { printf "%.9g", b / r }')"
    {
      echo "name: dp-published-$id"
      echo "cluster:"
      echo "  nodes: $nodes"
      echo "  node: $node"
      echo "  gpus_per_node: $gpus"
      echo "  fabric: {topology: rail-optimized}"
      echo "model:"
      echo "  zoo: $model"
      echo "  batch_per_gpu: $batch"
      echo "  precision: $precision"
      echo "  single_gpu_step_time: ${step}s   # $batch samples at the published $one_gpu samples/s on 1 GPU"
      echo "training:"
      echo "  iterations: 3"
      echo "  accumulation_steps: $accumulation"
      echo "  fidelity: flow"
      if [[ "$strategy" == parameter-server ]]; then
        echo "  strategy: {kind: parameter-server, servers: $servers, placement: colocated, sync: sync}"
      else
        echo "  strategy: {kind: allreduce, algorithm: nccl, bucket: $bucket, overlap: true}"
      fi
    } > "$dir/$id.yaml"
  done < "$here/published.tsv"
}

if [[ "${1:-}" == --scenarios ]]; then
  write_scenarios "${2:?--scenarios needs a folder}"
  exit 0
fi

dtsim="${1:-$root/build/bin/dtsim}"
out="$root/bench/results/dp-published.md"
source "$root/bench/common.sh"
bench_begin "$root"

write_scenarios "$scratch"
for scenario in "$scratch"/*.yaml; do
  id="$(basename "$scenario" .yaml)"
  echo "simulating $id" >&2
  set +e
  "$dtsim" simulate "$scenario" --quiet --json "$scratch/$id.json" > "$scratch/$id.out" 2>&1
  echo $? > "$scratch/$id.rc"
  set -e
done

{
  echo "# bench/dp-published"
  echo
  echo "Published multi-GPU data-parallel training throughput (\`bench/dp-published/published.tsv\`, sources in its"
  echo "README) against \`dtsim simulate\` of the same cluster from public presets, with the same source's 1-GPU"
  echo "throughput as \`model.single_gpu_step_time\` (nothing fitted per row). Error = predicted / published samples/s"
  echo "− 1 (positive: dtsim predicts faster). Predictions are deterministic; the machine's load does not change them."
  echo
  echo "- machine: $(bench_machine)"
  echo "- date: $started"
  echo "- commit: $commit"
  echo "- dtsim: $dtsim"
  echo "- targets (issue 20, item 6): median |error| ≤ 5 %, max ≤ 10 %"
  echo
  python3 - "$here/published.tsv" "$scratch" <<'PY'
import json, os, statistics, sys

table, scratch = sys.argv[1], sys.argv[2]
lines = [l.rstrip("\n") for l in open(table) if l.strip() and not l.startswith("#")]
header = lines[0].split("\t")
print("| row | GPUs (nodes × per node) | node | model | strategy | 1 GPU (published) | published | predicted | error | scaling published / predicted |")
print("|---|---|---|---|---|---:|---:|---:|---:|---|")
errors, failed, sources = [], [], {}
for line in lines[1:]:
    r = dict(zip(header, line.split("\t")))
    rid = r["id"]
    sources[rid] = r["source"]
    gpus = int(r["nodes"]) * int(r["gpus_per_node"])
    one, published = float(r["one_gpu"]), float(r["published"])
    rc = int(open(os.path.join(scratch, rid + ".rc")).read().strip() or 1)
    if rc != 0:
        failed.append(rid)
        message = open(os.path.join(scratch, rid + ".out")).read().strip().splitlines()
        predicted, error, scaling = "failed (exit %d: %s)" % (rc, message[-1] if message else ""), "—", "—"
    else:
        rate = json.load(open(os.path.join(scratch, rid + ".json")))["samples_per_s"]
        e = rate / published - 1
        errors.append((abs(e), e, rid))
        predicted, error = f"{rate:,.0f}", f"{e * 100:+.1f} %"
        scaling = f"{published / (gpus * one):.3f} / {rate / (gpus * one):.3f}"
    strategy = r["strategy"] if r["servers"] == "-" else f"{r['strategy']} ({r['servers']} colocated)"
    model = f"{r['model']} {r['precision']} b{r['batch']}" + (f" ×{r['accumulation']}" if r["accumulation"] != "1" else "")
    print(f"| {rid} | {gpus} ({r['nodes']} × {r['gpus_per_node']}) | {r['node']} | {model} | {strategy} | {one:g} | "
          f"{published:,.0f} | {predicted} | {error} | {scaling} |")
print()
print("Scaling = throughput / (GPUs × published 1-GPU throughput).")
print()
if errors:
    absolute = [a for a, _, _ in errors]
    worst = max(errors)
    median = statistics.median(absolute)
    print(f"**{len(errors)} rows simulated: median |error| {median * 100:.1f} % (target ≤ 5 %: "
          f"{'met' if median <= 0.05 else 'missed'}), max |error| {worst[0] * 100:.1f} % ({worst[2]}; target ≤ 10 %: "
          f"{'met' if worst[0] <= 0.10 else 'missed'})**; signed median {statistics.median(e for _, e, _ in errors) * 100:+.1f} %; "
          f"within 5 %: {sum(a <= 0.05 for a in absolute)}, within 10 %: {sum(a <= 0.10 for a in absolute)}.")
    groups = {}
    for a, _, rid in errors:
        groups.setdefault(sources[rid], []).append(a)
    print()
    print("| source (README) | rows | median \\|error\\| | max |")
    print("|---|---:|---:|---:|")
    for name, values in groups.items():
        print(f"| {name} | {len(values)} | {statistics.median(values) * 100:.1f} % | {max(values) * 100:.1f} % |")
if failed:
    print(f"\n{len(failed)} rows failed: {', '.join(failed)}.")
PY
} > "$out"
echo "wrote $out" >&2

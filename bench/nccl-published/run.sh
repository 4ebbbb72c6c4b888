#!/usr/bin/env bash
# Published nccl-tests bus bandwidths against dtsim's; writes bench/results/nccl-published.md.
# Usage: bench/nccl-published/run.sh [--algorithm ALG] [path/to/dtsim]
#   ALG: the scenario's all-reduce algorithm (training.strategy.algorithm), default ring; the results go to
#   bench/results/nccl-published.md for ring, nccl-published-ALG.md for another.
#
# Each row of published.tsv is one published point (README.md: sources, hardware). Its cluster comes from public
# facts only: the node preset of data/hardware/node and, where the source's node differs, its NICs; nothing is
# fitted per row. `dtsim collective` simulates the row's collective over all GPUs at the published size (flow
# fidelity, rail-optimized fabric across nodes) and reports nccl-tests' bus bandwidth. With --algorithm nccl the
# row's nccl_setting (what the source set, such as NCCL_NVLS_ENABLE=0, or reports NCCL ran) becomes the scenario's
# training.strategy.nccl. Error = predicted busbw / published busbw - 1: positive means dtsim predicts faster.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
algorithm=ring
if [[ "${1:-}" == --algorithm ]]; then
  algorithm="${2:?--algorithm needs a value}"
  shift 2
fi
dtsim="${1:-$root/build/bin/dtsim}"
out="$root/bench/results/nccl-published$([[ "$algorithm" == ring ]] || echo "-$algorithm").md"
source "$root/bench/common.sh"
bench_begin "$root"

while IFS=$'\t' read -r id op nodes gpus bytes published nccl setting gpu nvlink nics node nic url title date where; do
  [[ "$id" == \#* || "$id" == id ]] && continue
  strategy="kind: allreduce, algorithm: $algorithm"
  [[ "$algorithm" == nccl && "$setting" != - ]] && strategy+=", nccl: $setting"
  {
    echo "name: nccl-published-$id"
    echo "cluster:"
    echo "  nodes: $nodes"
    echo "  node: $node"
    echo "  gpus_per_node: $gpus"
    [[ "$nic" != - ]] && echo "  nic: $nic"
    echo "  fabric: {topology: rail-optimized}"
    echo "model: {gradient_bytes: 1MB, forward_time: 0ms, backward_time: 0ms, batch_per_gpu: 1, layers: 1}"
    echo "training: {iterations: 1, fidelity: flow, strategy: {$strategy}}"
  } > "$scratch/$id.yaml"
  echo "simulating $id" >&2
  set +e
  "$dtsim" collective "$scratch/$id.yaml" --op "$op" --bytes "$bytes" --json "$scratch/$id.json" > "$scratch/$id.out" 2>&1
  echo $? > "$scratch/$id.rc"
  set -e
done < "$here/published.tsv"

{
  echo "# bench/nccl-published"
  echo
  echo "Published nccl-tests bus bandwidths (\`bench/nccl-published/published.tsv\`, sources in its README) against"
  echo "\`dtsim collective\` on the same cluster built from public presets (nothing fitted per row). Error = predicted"
  echo "busbw / published busbw − 1 (positive: dtsim predicts faster). Predictions are deterministic; the machine's load"
  echo "does not change them."
  echo
  echo "- machine: $(bench_machine)"
  echo "- date: $started"
  echo "- commit: $commit"
  echo "- dtsim: $dtsim"
  echo "- all-reduce algorithm: $algorithm (all-gather and reduce-scatter: $([[ "$algorithm" == nccl ]] && echo nccl || echo ring); all-to-all: $([[ "$algorithm" == nccl ]] && echo "nccl, PXN" || echo linear))"
  echo "- targets (issue 19): median |error| ≤ 10 %, max ≤ 20 %"
  echo
  python3 - "$here/published.tsv" "$scratch" "$algorithm" <<'PY'
import json, os, statistics, sys

table, scratch, algorithm = sys.argv[1], sys.argv[2], sys.argv[3]
lines = [l.rstrip("\n") for l in open(table) if l.strip() and not l.startswith("#")]
header = lines[0].split("\t")

def size(b):
    b = int(b)
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale and b % scale == 0:
            return f"{b // scale} {unit}"
    return f"{b} B"

print("| row | op | GPUs (nodes × per node) | size | NCCL (as published) | simulated with | published busbw (GB/s) | predicted busbw (GB/s) | error |")
print("|---|---|---|---:|---|---|---:|---:|---:|")
errors, failed = [], []
for line in lines[1:]:
    r = dict(zip(header, line.split("\t")))
    rid = r["id"]
    rc = int(open(os.path.join(scratch, rid + ".rc")).read().strip() or 1)
    published = float(r["published_busbw_GBps"])
    if rc != 0:
        failed.append(rid)
        message = open(os.path.join(scratch, rid + ".out")).read().strip().splitlines()
        predicted, error = "failed (exit %d: %s)" % (rc, message[-1] if message else ""), "—"
    choice = None
    if rc == 0:
        result = json.load(open(os.path.join(scratch, rid + ".json")))["results"][0]
        busbw, choice = result["busbw_GBps"], result.get("nccl_choice")
        e = busbw / published - 1
        errors.append(e)
        predicted, error = f"{busbw:.2f}", f"{e * 100:+.1f} %"
    gpus = int(r["nodes"]) * int(r["gpus_per_node"])
    # What the row forces, then what dtsim's NCCL model runs the call with.
    forced = [f"`nccl: {r['nccl_setting']}`"] if algorithm == "nccl" and r["nccl_setting"] != "-" else []
    setting = "; ".join(forced + ([choice] if choice else [])) or "—"
    print(f"| {rid} | {r['op']} | {gpus} ({r['nodes']} × {r['gpus_per_node']}) | {size(r['bytes'])} | {r['nccl_algorithm']} | {setting} | {published:g} | {predicted} | {error} |")
print()
if errors:
    absolute = [abs(e) for e in errors]
    print(f"**{len(errors)} rows simulated: median |error| {statistics.median(absolute) * 100:.1f} %, "
          f"max |error| {max(absolute) * 100:.1f} %** (signed median {statistics.median(errors) * 100:+.1f} %).")
if failed:
    print(f"\n{len(failed)} rows failed: {', '.join(failed)}.")
PY
} > "$out"
echo "wrote $out" >&2

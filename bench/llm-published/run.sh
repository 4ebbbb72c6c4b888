#!/usr/bin/env bash
# Published LLM training results against dtsim's predictions; writes bench/results/llm-published.md.
# Usage: bench/llm-published/run.sh [path/to/dtsim]      (DTSIM_TIMEOUT: seconds per scenario, default 600)
#   LLM_PUBLISHED_ONLY=REGEX runs only the scenarios whose id matches (e.g. '^(k22|mtnlg|n21)-', the A100
#   rows), lists the others as not run, and writes bench/results/llm-published-partial.md instead.
#
# Every scenario of scenarios/ is one configuration from a paper (sources.md); published.tsv holds the
# published figure and the inputs of that source's own FLOP formula. The predicted figure is computed from
# dtsim's predicted iteration time with the SAME formula the source used (Narayanan 2021 Eq. 3 for TFLOP/s,
# Korthikanti 2022 model FLOPs for MFU), so the error is the iteration-time error and does not depend on how
# dtsim counts FLOPs. Llama 3 rows compare dtsim's own model_flops_utilisation. dtsim's MFU, HFU and
# TFLOP/s per GPU are listed beside for information. Nothing is fitted per row.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dtsim="${1:-$root/build/bin/dtsim}"
only="${LLM_PUBLISHED_ONLY:-}"
out="$root/bench/results/llm-published${only:+-partial}.md"
timeout_s="${DTSIM_TIMEOUT:-600}"
source "$root/bench/common.sh"
# The zoo models these scenarios name (megatron-gpt-*) are in this checkout's data/.
bench_begin "$root"

for scenario in "$here"/scenarios/*.yaml; do
  id="$(basename "$scenario" .yaml)"
  if [[ -n "$only" && ! "$id" =~ $only ]]; then
    echo skipped > "$scratch/$id.rc"
    : > "$scratch/$id.wall"
    continue
  fi
  echo "simulating $id" >&2
  set +e
  /usr/bin/time -f "%e" -o "$scratch/$id.wall" timeout "$timeout_s" \
    "$dtsim" simulate "$scenario" --quiet --json "$scratch/$id.json" > "$scratch/$id.out" 2> "$scratch/$id.err"
  echo $? > "$scratch/$id.rc"
  set -e
done

{
  echo "# bench/llm-published"
  echo
  echo "Published large-model training throughput (papers and READMEs, \`bench/llm-published/sources.md\`) against"
  echo "dtsim's prediction for the same configuration (\`bench/llm-published/scenarios/\`: public hardware facts and"
  echo "model configurations only, nothing fitted per row). The predicted figure is the source's own formula applied"
  echo "to dtsim's predicted iteration time; error = predicted throughput / published throughput − 1 (for an"
  echo "iteration-time figure: published time / predicted time − 1), so a positive error means dtsim predicts faster."
  echo
  echo "- machine: $(bench_machine)"
  echo "- date: $started"
  echo "- commit: $commit"
  echo "- dtsim: $dtsim"
  echo "- targets (issue 18): median |error| ≤ 10 %, max ≤ 20 %"
  [ -n "$only" ] && echo "- partial run: only the scenarios matching LLM_PUBLISHED_ONLY='$only'"
  echo
  python3 - "$here/published.tsv" "$scratch" <<'PY'
import json, os, statistics, sys

table, scratch = sys.argv[1], sys.argv[2]
A100_PEAK = 312e12  # dense FP16/BF16, the peak both papers use (data/hardware/gpu/a100-sxm.yaml)

def eq3_flops(B, s, l, h, V):        # Narayanan 2021 Eq. 3: with full recomputation's extra forward
    return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h))

def model_flops(B, s, l, h, V):      # Korthikanti 2022 App. A: model FLOPs, no recomputation
    return 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h))

def fmt(x, digits=1):
    return "—" if x is None else f"{x:.{digits}f}"

UNITS = {"tflops_eq3": "TFLOP/s/GPU", "mfu_k22": "% MFU", "time_s": "s/iteration", "mfu_dtsim": "% MFU"}
rows, errors = [], []
with open(table) as f:
    lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
header = lines[0].split("\t")
for line in lines[1:]:
    r = dict(zip(header, line.split("\t")))
    rid, kind, pub = r["id"], r["kind"], float(r["published"])
    B, n, l, h, V, s = (int(r[k]) for k in ("B", "n", "l", "h", "V", "s"))
    rc_text = open(os.path.join(scratch, rid + ".rc")).read().strip()
    rc = 0 if rc_text == "skipped" else int(rc_text or 1)
    wall = open(os.path.join(scratch, rid + ".wall")).read().strip().splitlines()
    wall = wall[-1] if wall else ""
    predicted = err = None
    info = {}
    status = ""
    if rc_text == "skipped":
        status = "not run (LLM_PUBLISHED_ONLY)"
    elif rc != 0:
        message = open(os.path.join(scratch, rid + ".err")).read().strip().splitlines()
        message = message[-1] if message else ""
        status = "timed out" if rc == 124 else f"refused (exit {rc}): {message}"
    else:
        run = json.load(open(os.path.join(scratch, rid + ".json")))
        T = run.get("iteration_time_s")
        if "tokens_per_s" not in run:
            status = "no LLM output (this dtsim does not simulate the LLM layout: no tokens_per_s)"
        elif not T or T <= 0:
            status = "no iteration time"
        else:
            info = {k: run.get(k) for k in ("model_flops_utilisation", "hardware_flops_utilisation", "tflops_per_gpu")}
            if kind == "tflops_eq3":
                predicted = eq3_flops(B, s, l, h, V) / (T * n) / 1e12
                err = predicted / pub - 1
            elif kind == "mfu_k22":
                predicted = 100 * model_flops(B, s, l, h, V) / (T * n * A100_PEAK)
                err = predicted / pub - 1
            elif kind == "time_s":
                predicted = T
                err = pub / T - 1
            elif kind == "mfu_dtsim":
                mfu = run.get("model_flops_utilisation")
                if mfu is not None:
                    predicted = 100 * mfu if mfu <= 1 else mfu
                    err = predicted / pub - 1
                else:
                    status = "no model_flops_utilisation in the output"
            info["T"] = T
    if err is not None:
        errors.append((abs(err), rid))
    rows.append((rid, r["label"], r["source"], kind, pub, predicted, err, info, status, wall))

print("| # | configuration | source | published | predicted | error | dtsim iteration (s) | dtsim MFU / HFU / TFLOP/s per GPU | sim wall (s) | note |")
print("|---:|---|---|---:|---:|---:|---:|---|---:|---|")
for i, (rid, label, source, kind, pub, predicted, err, info, status, wall) in enumerate(rows, 1):
    unit = UNITS[kind]
    pub_text = f"{pub:g} {unit}"
    pred_text = "—" if predicted is None else f"{predicted:.{2 if kind == 'time_s' else 1}f} {unit}"
    err_text = "—" if err is None else f"{100 * err:+.1f} %"
    def pct(x):
        return "—" if x is None else f"{100 * x:.1f} %" if x <= 1 else f"{x:.1f} %"
    dt = "—"
    if info:
        dt = f"{pct(info.get('model_flops_utilisation'))} / {pct(info.get('hardware_flops_utilisation'))} / {fmt(info.get('tflops_per_gpu'))}"
    print(f"| {i} | {label} (`{rid}`) | {source} | {pub_text} | {pred_text} | {err_text} | "
          f"{fmt(info.get('T'), 3) if info else '—'} | {dt} | {wall or '—'} | {status} |")
print()
compared = len(errors)
print(f"Rows: {len(rows)}; compared: {compared}; not compared: {len(rows) - compared} (see the note column).")
if errors:
    median = statistics.median(e for e, _ in errors)
    worst, worst_id = max(errors)
    within = sum(1 for e, _ in errors if e <= 0.10)
    print()
    print(f"- median |error|: **{100 * median:.1f} %** (target ≤ 10 %: {'met' if median <= 0.10 else 'missed'})")
    print(f"- max |error|: **{100 * worst:.1f} %** ({worst_id}; target ≤ 20 %: {'met' if worst <= 0.20 else 'missed'})")
    print(f"- rows within 10 %: {within} of {compared}")
else:
    print()
    print("No row could be compared: no median or max error.")
PY
} | tee "$out"

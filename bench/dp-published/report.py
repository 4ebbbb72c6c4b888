#!/usr/bin/env python3
"""The table of bench/results/dp-published.md: every row of published.tsv with dtsim's prediction (run.sh's scratch
folder holds ID.json and ID.rc per row, ID.out where it failed), the median and max |error| and their targets."""
import csv, json, os, statistics, sys

table, scratch = sys.argv[1], sys.argv[2]
with open(table) as f:
    rows = list(csv.DictReader((line for line in f if line.strip() and not line.startswith("#")), delimiter="\t"))
print("| row | GPUs (nodes × per node) | node | model | strategy | 1 GPU (published) | published | predicted | error | scaling published / predicted |")
print("|---|---|---|---|---|---:|---:|---:|---:|---|")
errors, failed, sources = [], [], {}
for r in rows:
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

#!/usr/bin/env python3
"""Per worker, the mean time per iteration spent in each kind of span (push, pull, compute, wait), and the mean
duration of one push, from a dtsim trace (measured or simulated). Usage: spans.py TRACE.json"""
import collections
import json
import sys

events = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
iterations = 1 + max(e["args"].get("iteration", 0) for e in events if "args" in e)
total = collections.defaultdict(float)
count = collections.defaultdict(int)
for e in events:
    key = (e["pid"], e["name"])
    total[key] += e["dur"] / 1e3
    count[key] += 1
for (pid, name) in sorted(total):
    print(f"rank {pid} {name:14s} {total[pid, name] / iterations:8.1f} ms per iteration, {count[pid, name]:5d} spans, "
          f"{total[pid, name] / count[pid, name]:7.2f} ms each")

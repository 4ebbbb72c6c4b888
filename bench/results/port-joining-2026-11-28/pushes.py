#!/usr/bin/env python3
"""Per iteration: when each worker's push left and when the server applied it (ms from the first push), from a
dtsim trace (measured or simulated). Usage: pushes.py TRACE.json"""
import json
import sys

events = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
first = min(e["ts"] for e in events if e["name"] == "push")
pushes, applied = {}, {}
for e in events:
    start = (e["ts"] - first) / 1e3
    if e["name"] == "push":
        pushes.setdefault(e["args"]["iteration"], {})[e["pid"]] = start
    elif e["name"] == "aggregate":  # the server's spans carry no worker: the n-th of an iteration, in time order
        applied.setdefault(e["args"]["iteration"], []).append(start)
print("iteration  push w0  push w1  applied (1st, 2nd)  gap between pushes")
for it in sorted(pushes)[:4] + sorted(pushes)[-2:]:
    w = pushes[it]
    done = sorted(applied.get(it, []))
    print(f"{it:9d} {w.get(0, float('nan')):8.1f} {w.get(1, float('nan')):8.1f}  {done[0]:7.1f} {done[-1]:7.1f}"
          f"  {abs(w.get(1, 0) - w.get(0, 0)):8.1f}")

#!/usr/bin/env python3
"""A bucketed all-reduce iteration, phase by phase, from a runs database (measured or simulated runs).

usage: bucket_phases.py RUNS_DB RUN_ID[,RUN_ID...]

Per run, over iterations 1 to the last (the iterations `dtsim validate` averages), times relative to the
previous iteration's end (its last span on any rank: the runs' iteration boundary), for the slowest rank
(the one whose forward is longest, the straggler):
  forward   it starts its forward
  ready     its first bucket leaves backward
  start     its first bucket's synchronisation starts (encode in a simulation, the ring in a measurement)
  end0      the last rank ends the first bucket (its decode in a simulation)
  cycle     from the last rank ending bucket k-1 to the last rank ending bucket k, k >= 1
  ring      the slowest rank's all-reduce span of buckets k >= 1 (a measured int8 ring codes inside it)
  codec     the slowest rank's encode + decode spans of buckets k >= 1 (a simulation records them apart)
  gap       the slowest rank's idle time on its communication stream before buckets k >= 1
  last      the last rank ends the last bucket: the iteration's time
Means, with the range over single buckets or iterations in brackets.
"""
import sqlite3
import statistics
import sys


def spans_of(db, run):
    rows = db.execute("select rank, name, iteration, idx, start_s, end_s from spans where run_id = ?", (run,))
    out = {}
    for rank, name, iteration, idx, start, end in rows:
        out.setdefault((iteration, rank, name), {})[idx] = (start, end)
    return out


def run_phases(db, run):
    spans = spans_of(db, run)
    iterations = sorted({key[0] for key in spans})[1:]
    ranks = sorted({key[1] for key in spans})
    buckets = len(spans[(iterations[0], ranks[0], "allreduce")])
    slowest = max(ranks, key=lambda r: spans[(iterations[0], r, "forward")][0][1] - spans[(iterations[0], r, "forward")][0][0])
    iteration_end = {}
    for (iteration, _, _), by_index in spans.items():
        iteration_end[iteration] = max([iteration_end.get(iteration, 0.0)] + [end for _, end in by_index.values()])
    phases = {name: [] for name in ("forward", "ready", "start", "end0", "cycle", "ring", "codec", "gap", "last")}
    for it in iterations:
        get = lambda r, name: spans.get((it, r, name), {})
        t0 = iteration_end[it - 1]
        phases["forward"].append(get(slowest, "forward")[0][0] - t0)
        ends = [max((get(r, "decode") or get(r, "allreduce"))[k][1] for r in ranks) for k in range(buckets)]
        first = get(slowest, "encode") or get(slowest, "allreduce")
        phases["ready"].append(get(slowest, "backward")[0][1] - t0)
        phases["start"].append(first[0][0] - t0)
        phases["end0"].append(ends[0] - t0)
        phases["last"].append(ends[-1] - t0)
        for k in range(1, buckets):
            ring = get(slowest, "allreduce")[k]
            encode, decode = get(slowest, "encode").get(k), get(slowest, "decode").get(k)
            previous_end = (get(slowest, "decode") or get(slowest, "allreduce"))[k - 1][1]
            phases["cycle"].append(ends[k] - ends[k - 1])
            phases["ring"].append(ring[1] - ring[0])
            phases["codec"].append((encode[1] - encode[0] + decode[1] - decode[0]) if encode else 0.0)
            phases["gap"].append((encode or ring)[0] - previous_end)
    iteration_s = db.execute("select avg(time_s) from iterations where run_id = ? and idx >= 1", (run,)).fetchone()[0]
    return iteration_s, slowest, phases


def main():
    db = sqlite3.connect(sys.argv[1])
    for run in (int(r) for r in sys.argv[2].split(",")):
        kind, scenario = db.execute("select kind, scenario_name from runs where id = ?", (run,)).fetchone()
        iteration_s, slowest, phases = run_phases(db, run)
        ms = lambda values: f"{statistics.mean(values) * 1e3:.2f} [{min(values) * 1e3:.1f}-{max(values) * 1e3:.1f}]" if values else "-"
        print(f"run {run} ({kind}, {scenario}): iteration {iteration_s * 1e3:.1f} ms; slowest rank {slowest}")
        for name, values in phases.items():
            print(f"  {name:6} {ms(values)} ms")


if __name__ == "__main__":
    main()

#!/bin/bash
# Draw 1130's row 08 (asynchronous, one server, two workers, 1.3 MB pushes) measured on the 200 Mbit/s, 100 ms
# queue testbed (GSO 64 KiB, as that draw), 30 iterations, with a trace and the tc counters before and after.
# Usage (root, from the repository root): bench/results/port-joining-2026-11-28/run.sh OUT
set -u
T=runtime/testbed/dtsim-testbed
O=${1:?output folder}; mkdir -p "$O"
S=bench/results/port-joining-2026-11-28/08-ps-async-1-server.yaml  # draw 1130's row 08, its profile filled in
stats() { ip netns exec dtsim-sw tc -s qdisc show dev dtsim-p2; for h in 0 1; do ip netns exec dtsim-h$h tc -s qdisc show dev dtsim-eth; done; }
$T down >/dev/null 2>&1
$T up 3 --rate 200mbit --queue 100 > "$O/up.log" 2>&1 || { cat "$O/up.log"; exit 1; }
stats > "$O/before.txt"
$T run --np 3 -- "$PWD/build/bin/dtsim-runtime" measure "$PWD/$S" --compute sleep --poll-interval 20us \
  --set training.iterations=30 --json "$O/run.json" --trace "$O/trace.json" > "$O/measure.log" 2>&1
stats > "$O/after.txt"
$T down >/dev/null 2>&1
tail -5 "$O/measure.log"

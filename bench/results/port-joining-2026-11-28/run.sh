#!/bin/bash
# A drawn parameter-server scenario measured on the 200 Mbit/s, 100 ms queue testbed, 30 iterations, with a trace
# and the tc counters before and after: draw 1130's row 08 (asynchronous, one server, two workers, 1.3 MB pushes;
# GSO 64 KiB, as that draw), `26` draw 1130's row 26 (one server, 7.6 MB in two buckets), or `28` draw 1131's row 28
# (two servers, 512 KB buckets, a straggler; GSO 16 KiB), or `25` draw 1134's row 25 (SSP(3), one server, two
# workers, one 1.7 MB bucket; GSO 16 KiB).
# A third argument caps the veths' GSO packets at that many bytes instead of the case's own (65536: the
# testbed's default).
# Usage (root, from the repository root): bench/results/port-joining-2026-11-28/run.sh OUT [08|25|26|28] [GSO]
set -u
T=runtime/testbed/dtsim-testbed
O=${1:?output folder}; mkdir -p "$O"
here=bench/results/port-joining-2026-11-28
case "${2:-08}" in
  08) S=$here/08-ps-async-1-server.yaml; np=3; gso=() ;;
  26) S=$here/26-ps-async-1-server.yaml; np=3; gso=() ;;
  28) S=$here/28-ps-async-2-servers-straggler.yaml; np=4; gso=(--gso 16384) ;;
  25) S=$here/25-ps-ssp-1-server.yaml; np=3; gso=(--gso 16384) ;;
  *) echo "run.sh: expected 08, 25, 26 or 28, got '$2'" >&2; exit 2 ;;
esac
[[ -n "${3:-}" ]] && gso=(--gso "$3")
stats() { for s in $(seq 2 $((np - 1))); do ip netns exec dtsim-sw tc -s qdisc show dev dtsim-p$s; done; for h in 0 1; do ip netns exec dtsim-h$h tc -s qdisc show dev dtsim-eth; done; }
$T down >/dev/null 2>&1
$T up $np --rate 200mbit --queue 100 "${gso[@]}" > "$O/up.log" 2>&1 || { cat "$O/up.log"; exit 1; }
stats > "$O/before.txt"
$T run --np $np -- "$PWD/build/bin/dtsim-runtime" measure "$PWD/$S" --compute sleep --poll-interval 20us \
  --set training.iterations=30 --json "$O/run.json" --trace "$O/trace.json" > "$O/measure.log" 2>&1
stats > "$O/after.txt"
$T down >/dev/null 2>&1
tail -5 "$O/measure.log"

#!/bin/bash
# One all-reduce per iteration, alone (no overlap, 10 ms of compute), 5 ranks at 200 Mbit/s queue 100 ms:
# is the draw's per-bucket error there without compute and other buckets? Quiet machine only.
root=/work/main bin=/work/main/build/bin tb=/work/main/runtime/testbed/dtsim-testbed w=/work/exp
rm -f $w/runs.db
$tb down >/dev/null 2>&1 || true
$tb up 5 --rate 200mbit --queue 100
trap "$tb down >/dev/null 2>&1 || true" EXIT
for rep in 1 2 3; do for s in $w/sc/*.yaml; do
  echo "== $(basename $s) $rep"
  $tb run --np 5 --per-host 1 --mca btl_tcp_links 4 -- $bin/dtsim-runtime measure $s --compute sleep --poll-interval 20us --db $w/runs.db | sed -n 's/^  iteration time */   iteration /p'
done; done
cd $w/sc && $bin/dtsim validate *.yaml --db $w/runs.db | tee $w/validate.txt

#!/bin/bash
# One all-reduce per iteration, alone, 2-5 ranks at 200 Mbit/s queue 100 ms (the draw-1128 isolated experiment,
# at other rank counts). Quiet machine only.
bin=/work/main/build/bin tb=/work/main/runtime/testbed/dtsim-testbed w=/work/exp2
rm -f $w/runs.db
$tb down >/dev/null 2>&1 || true
$tb up 5 --rate 200mbit --queue 100
trap "$tb down >/dev/null 2>&1 || true" EXIT
for rep in 1 2 3; do for s in $w/sc/*.yaml; do
  read -r -a layout < <(sed -n '1s/^# testbed: //p' "$s")
  echo "== $(basename $s) $rep"
  $tb run "${layout[@]}" --mca btl_tcp_links 4 -- $bin/dtsim-runtime measure $s --compute sleep --poll-interval 20us --db $w/runs.db | sed -n 's/^  iteration time */   iteration /p'
done; done
cd $w/sc && $bin/dtsim validate *.yaml --db $w/runs.db | tee $w/validate.txt

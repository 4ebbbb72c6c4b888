#!/bin/bash
# tcp_info of every testbed connection, sampled every 0.3 s during one measured run: which limit held each flow.
bin=/work/main/build/bin tb=/work/main/runtime/testbed/dtsim-testbed w=/work/exp4
$tb down >/dev/null 2>&1 || true
$tb up 5 --rate 200mbit --queue 100 >/dev/null
trap "$tb down >/dev/null 2>&1 || true" EXIT
for s in $w/*.yaml; do
  n=$(basename $s .yaml); read -r -a layout < <(sed -n '1s/^# testbed: //p' "$s")
  ( while true; do for i in 0 1 2 3 4; do ip netns exec dtsim-h$i ss -tin state established 2>/dev/null | sed "s/^/h$i /"; done; echo "---- $(date +%s.%N)"; sleep 0.3; done ) > $w/$n.ss &
  pid=$!
  $tb run "${layout[@]}" --mca btl_tcp_links 4 -- $bin/dtsim-runtime measure $s --compute sleep --poll-interval 20us --db $w/runs.db | sed -n "s/^  iteration time */$n /p"
  kill $pid
done

#!/bin/bash
# The isolated all-reduces under each congestion control (set in every host namespace after `up`), 2 runs each.
bin=/work/main/build/bin tb=/work/main/runtime/testbed/dtsim-testbed w=/work/exp5
trap "$tb down >/dev/null 2>&1 || true" EXIT
for cc in cubic; do
  $tb down >/dev/null 2>&1 || true
  sysctl -qw net.ipv4.tcp_congestion_control=$cc; $tb up 5 --rate 200mbit --queue 100 >/dev/null

  echo "== $cc: $(ip netns exec dtsim-h0 sysctl -n net.ipv4.tcp_congestion_control)"
  for rep in 1 2; do for s in $w/*.yaml; do
    n=$(basename $s .yaml); read -r -a layout < <(sed -n '1s/^# testbed: //p' "$s")
    $tb run "${layout[@]}" --mca btl_tcp_links 4 -- $bin/dtsim-runtime measure $s --compute sleep --poll-interval 20us --db $w/runs-$cc.db | sed -n "s/^  iteration time */$cc $n rep $rep: /p"
  done; done
done

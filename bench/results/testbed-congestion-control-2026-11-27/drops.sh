#!/bin/bash
# Per scenario: tbf drops on every shaped direction and TCP retransmissions/timeouts in every host namespace,
# around one measured run (12 iterations), at 200 Mbit/s with a 100 ms queue. Quiet machine only.
bin=/work/main/build/bin tb=/work/main/runtime/testbed/dtsim-testbed w=/work/exp3
rm -f $w/runs.db
$tb down >/dev/null 2>&1 || true
$tb up 5 --rate 200mbit --queue 100
trap "$tb down >/dev/null 2>&1 || true" EXIT
counters() {  # drops_total retrans timeouts outsegs
  local d=0 r=0 t=0 o=0 x
  for i in 0 1 2 3 4; do
    x=$(tc -n dtsim-h$i -s qdisc show dev dtsim-eth root | sed -n 's/.*dropped \([0-9]*\),.*/\1/p'); d=$((d+x))
    x=$(tc -n dtsim-sw -s qdisc show dev dtsim-p$i root | sed -n 's/.*dropped \([0-9]*\),.*/\1/p'); d=$((d+x))
    read -r a b c < <(ip netns exec dtsim-h$i nstat -az TcpRetransSegs TcpExtTCPTimeouts TcpOutSegs | awk '/TcpRetransSegs/{a=$2}/TCPTimeouts/{b=$2}/TcpOutSegs/{c=$2}END{print a+0,b+0,c+0}')
    r=$((r+a)); t=$((t+b)); o=$((o+c))
  done
  echo "$d $r $t $o"
}
for rep in 1 2; do for s in $w/sc/*.yaml; do
  read -r -a layout < <(sed -n '1s/^# testbed: //p' "$s")
  read -r d0 r0 t0 o0 < <(counters)
  it=$($tb run "${layout[@]}" --mca btl_tcp_links 4 -- $bin/dtsim-runtime measure $s --compute sleep --poll-interval 20us --db $w/runs.db | sed -n 's/^  iteration time *//p')
  read -r d1 r1 t1 o1 < <(counters)
  echo "$(basename $s .yaml) rep $rep: iteration $it | tbf drops $((d1-d0)) | TCP retransmitted segments $((r1-r0)) of $((o1-o0)) sent, timeouts $((t1-t0))"
done; done

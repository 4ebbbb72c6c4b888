#!/usr/bin/env bash
# bench/accuracy: the fidelity table. On the local multi-host testbed (5 host namespaces, every link shaped
# to RATE), calibrate once per rank layout, measure each scenario of bench/accuracy/scenarios REPS times
# for real (dtsim-runtime measure), simulate it with the profile, and let `dtsim validate` print the error
# per scenario with the median and the max (targets: median <= 5 %, max <= 10 %).
# Writes bench/results/accuracy-<rate>.md and keeps the profiles, samples and runs database there.
#
# Usage (root: the testbed needs network namespaces; a quiet machine):
#   bench/accuracy/run.sh [--rate RATE] [--queue MS] [--cc NAME] [--gso BYTES] [--reps N] [--only GLOB] [--name NAME] [--keep-calibration]
#                         [--draw SEED [--count N]]
# --draw SEED measures a seeded draw of COUNT (default 32) data-parallel scenarios (build/bin/accuracy_draw,
# bench/accuracy/scenario_draw.cpp) instead of the fixed set in bench/accuracy/scenarios, calibrated and kept
# in accuracy-<network>-draw-SEED/.
# Judge a model change on one seed; record a fresh seed drawn after the last change, once, whatever it gives.
# --queue MS sets the links' tbf queue (dtsim-testbed up --queue; default 20 ms): another network, calibrated
# on its own in accuracy-<rate>-queue<MS>ms/. --cc NAME sets the hosts' TCP congestion control (dtsim-testbed up
# --cc; default cubic): in accuracy-<rate>[-queue<MS>ms]-<NAME>/. --gso BYTES caps the veths' GSO packets and with
# them tbf's burst (dtsim-testbed up --gso; default 64 KiB): in accuracy-<rate>[-queue<MS>ms][-<NAME>]-gso<BYTES>/.
# --keep-calibration reuses (and completes) the calibrations of an earlier run; measurements are always new.
# --name keeps a partial run (--only) apart from the full one: its runs database, scenarios and report are
# accuracy-<rate>/runs-NAME.db, scenarios-NAME/ and bench/results/accuracy-<rate>-NAME.md.
# On a real cluster the same steps run under mpirun/srun without the testbed: see docs/fidelity.md.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rate=500mbit reps=3 only='*' keep=0 name= queue= cc= gso= draw= count=32
while (($#)); do
	case $1 in
	--rate) rate=$2; shift 2 ;;
	--queue) queue=$2; shift 2 ;;
	--cc) cc=$2; shift 2 ;;
	--gso) gso=$2; shift 2 ;;
	--draw) draw=$2; shift 2 ;;
	--count) count=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--name) name=$2; shift 2 ;;
	--keep-calibration) keep=1; shift ;;
	*) echo "usage: $0 [--rate RATE] [--queue MS] [--cc NAME] [--gso BYTES] [--reps N] [--only GLOB] [--name NAME] [--keep-calibration] [--draw SEED [--count N]]" >&2; exit 2 ;;
	esac
done
bin="$root/build/bin"
testbed="$root/runtime/testbed/dtsim-testbed"
network=$rate${queue:+-queue${queue}ms}${cc:+-$cc}${gso:+-gso$gso}
# A draw keeps its own calibrations and runs, so that it never replaces the fixed set's records.
work="$root/bench/results/accuracy-$network${draw:+-draw-$draw}"
report="$root/bench/results/accuracy-$network${draw:+-draw-$draw}${name:+-$name}.md"
runs_db="$work/runs${name:+-$name}.db" scenario_dir="$work/scenarios${name:+-$name}" validated="$work/validate${name:+-$name}"
for tool in "$bin/dtsim" "$bin/dtsim-runtime" "$bin/accuracy_draw"; do
	[[ -x $tool ]] || { echo "$0: $tool is missing: build first (./setup.sh builds it)" >&2; exit 2; }
done
# Four TCP connections per peer pair: over one, Open MPI carried a two-way exchange at ~55 % of the rate
# per direction (runtime/testbed/README.md, measured under BBR), which the full-duplex link model does not describe.
transport=(--mca btl_tcp_links 4)
# The 5 hosts share this machine's cores: compute is an emulated device that sleeps, and waiting ranks
# sleep between polls, so that the kernel's network stack gets the CPU (docs/fidelity.md, "Limits").
measure_options=(--compute sleep --poll-interval 20us)
# What the scenarios use (the all-to-all prices the direct all-reduce's phases and the ports' incast); a
# broadcast sweep would only lengthen the calibration. Waiting ranks spin here: calibrating with the measured
# runs' polling (--poll-interval 20us) was tried twice (session 5, and 2026-11-23 04:40Z-05:30Z): small
# collectives then timed 3-4x longer, and it did not remove the all-to-all's stalls
# (bench/results/accuracy-500mbit.md, "Calibrating with the measured runs' polling").
calibrate_options=(--backend mpi --max 16MiB --ops allreduce,allgather,alltoall,sendrecv,exchange,pingpong,loaded_pingpong,gemm,memory_bandwidth,launch_latency,codec)

# Taken before this run rewrites its own tracked outputs; only changes outside bench/results count.
commit="$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet -- . ':!bench/results' || echo ' (with uncommitted changes)')"
((keep)) || rm -rf "$work"
rm -rf "$runs_db" "$scenario_dir"  # measurements are taken afresh: they must come from this build
mkdir -p "$scenario_dir"
"$testbed" down > /dev/null 2>&1 || true
"$testbed" up 5 --rate "$rate" ${queue:+--queue "$queue"} ${cc:+--cc "$cc"} ${gso:+--gso "$gso"}
tcp_cc=$("$testbed" status | sed -n '1s/.* tcp=\([^ ]*\) .*/\1/p')  # what the testbed set, its default included
trap '"$testbed" down > /dev/null 2>&1 || true' EXIT

# A scenario's layout is its first line, "# testbed: --np N [--per-host K]"; 1 or 2 ranks per host.
calibrate_layout() {  # per_host np name
	local per_host=$1 np=$2 name=$3
	echo "== calibration: $np ranks, $per_host per host"
	# --resume keeps what an interrupted calibration measured (nothing measured is lost).
	"$testbed" run --per-host "$per_host" --np "$np" "${transport[@]}" -- "$bin/dtsim-runtime" calibrate \
		"${calibrate_options[@]}" --resume --out "$work/calibration-$name" | grep -E '^# [0-9]+ samples'
	"$bin/dtsim" fit "$work/calibration-$name" --out "$work/profile-$name.json" --name "testbed-$name-$rate" > "$work/fit-$name.txt"
}
calibrate_layout 1 5 5x1
calibrate_layout 2 4 2x2

templates="$here/scenarios"
if [[ -n $draw ]]; then
	templates="$work/drawn"
	rm -rf "$templates"
	"$bin/accuracy_draw" "$draw" "$count" "$templates"
fi
scenarios=()
for template in "$templates"/$only.yaml; do
	scenario="$scenario_dir/$(basename "$template")"
	# Relative to the scenario's folder (the loader looks beside the scenario first): no machine path in the records.
	sed -e "s|@PROFILE_1@|../profile-5x1.json|" -e "s|@PROFILE_2@|../profile-2x2.json|" "$template" > "$scenario"
	scenarios+=("$scenario")
done

# Repetitions interleave the scenarios, so that a slow spell of the machine touches all of them alike.
for ((rep = 1; rep <= reps; rep++)); do
	for scenario in "${scenarios[@]}"; do
		read -r -a layout < <(sed -n '1s/^# testbed: //p' "$scenario")
		echo "== measure $(basename "$scenario" .yaml) ($rep/$reps)"
		"$testbed" run "${layout[@]}" "${transport[@]}" -- "$bin/dtsim-runtime" measure "$scenario" "${measure_options[@]}" \
			--db "$runs_db" | sed -n 's/^  iteration time */   iteration /p'
	done
done

# From the scenarios' folder, so that the table names them by file name. LLM layouts (*-llm-*) get a
# table of their own, whose failure (a simulator that cannot predict them yet) leaves the other standing.
data_parallel=() llm=()
for scenario in "${scenarios[@]##*/}"; do
	if [[ $scenario == *-llm-* ]]; then llm+=("$scenario"); else data_parallel+=("$scenario"); fi
done
: > "$validated.txt"
: > "$validated-llm.txt"
if ((${#data_parallel[@]})); then
	(cd "$scenario_dir" && "$bin/dtsim" validate "${data_parallel[@]}" --db "$runs_db" --json "$validated.json") |
		tee "$validated.txt"
fi
if ((${#llm[@]})); then
	(cd "$scenario_dir" && "$bin/dtsim" validate "${llm[@]}" --db "$runs_db" --json "$validated-llm.json" 2>&1 ||
		echo "(dtsim validate failed on the LLM layouts: their measurements are in $(basename "$runs_db"))") | tee "$validated-llm.txt"
fi

{
	echo "# bench/accuracy ($network${draw:+, draw $draw})"
	echo
	echo "- machine: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB, $(mpirun --version | head -1)"
	echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "- commit: $commit"
	echo "- testbed: 5 host namespaces at $rate each way (tbf, queue ${queue:-20} ms, GSO ${gso:-65536} B), Open MPI over TCP ($tcp_cc) with \`btl_tcp_links 4\`"
	[[ -n $draw ]] && echo "- scenarios: seeded draw \`accuracy_draw $draw $count\` (kept in \`$(basename "$work")/drawn\`)"
	echo "- calibrations: \`$(basename "$work")/calibration-5x1\` (5 hosts × 1 rank) and \`calibration-2x2\` (2 hosts × 2 ranks), \`dtsim-runtime calibrate ${calibrate_options[*]}\`; profiles \`profile-*.json\`"
	echo "- measured: each scenario $reps times with \`dtsim-runtime measure ${measure_options[*]}\` (runs in \`$(basename "$work")/$(basename "$runs_db")\`); validate compares the median run"
	if [[ -s $validated.txt ]]; then
		echo
		echo '```'
		cat "$validated.txt"
		echo '```'
	fi
	if [[ -s $validated-llm.txt ]]; then
		echo
		echo "## LLM layouts"
		echo
		echo '```'
		cat "$validated-llm.txt"
		echo '```'
	fi
} > "$report"
echo "written to $report"

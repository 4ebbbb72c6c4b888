#!/usr/bin/env bash
# Builds a small runs database from shipped scenarios and renders the GUI's views into docs/images/
# (the README's screenshots). Usage: tools/gen-screenshots.sh [build/bin]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/bin}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
db="$scratch/runs.db"
images="$root/docs/images"
mkdir -p "$images"

# Run 1: ring all-reduce at 16 GPUs; runs 2..5: a scaling sweep of the same scenario (1, 2, 4, 8 nodes);
# runs 6..9: the same sweep with a parameter server; run 10: the 16-GPU ring again, with a 2x slower rank
# (stands in for a measurement in the compare view).
scenario="$root/scenarios/resnet50-h100-ring.yaml"
"$bin/dtsim" simulate "$scenario" --db "$db" --set cluster.nodes=2 --set training.iterations=2 --quiet
"$bin/dtsim" sweep "$scenario" --db "$db" --vary cluster.nodes=1,2,4,8 --set training.iterations=2 --quiet >/dev/null
"$bin/dtsim" sweep "$scenario" --db "$db" --vary cluster.nodes=1,2,4,8 --set training.iterations=2 --quiet \
  --set 'training.strategy={kind: parameter-server, servers: 2, bucket: 25MB, overlap: true}' >/dev/null
"$bin/dtsim" simulate "$scenario" --db "$db" --set cluster.nodes=2 --set training.iterations=2 --quiet \
  --set 'training.stragglers={slowdown: [{ranks: [3], factor: 2}]}'

# Runs 11 on: the README's advise study, each option's simulated configurations, for the Advise view.
"$bin/dtsim" advise "$root/scenarios/advise-llama3-8b.yaml" --jobs 2 --quiet --db "$db" --json "$scratch/advice.json" >/dev/null

shot() {  # name, then dtsim-gui options
  local name=$1
  shift
  QT_QPA_PLATFORM=offscreen "$bin/dtsim-gui" --db "$db" "$@" --size 1280x720 --screenshot "$images/$name.png"
  echo "wrote docs/images/$name.png ($(stat -c %s "$images/$name.png") bytes)"
}
shot gui-timeline --run 1 --view timeline
shot gui-compare --run 1 --compare 10 --view compare
shot gui-speedup --run 3 --view speedup
shot gui-advise --view advise --advise "$scratch/advice.json"

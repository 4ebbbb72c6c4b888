# Sourced by the bench runners: their scratch folder, and what every results file records about the run.

# bench_begin ROOT: a scratch folder in $scratch, removed on exit; presets and models from ROOT/data; $commit,
# the checkout's commit (marked where files outside bench/results differ from it: taken before the run rewrites
# its own results file); $started, the UTC start time.
bench_begin() {
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  export DTSIM_DATA_DIR="$1/data"
  commit="$(git -C "$1" rev-parse --short HEAD)$(git -C "$1" diff --quiet -- . ':!bench/results' || echo ' (with uncommitted changes)')"
  started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
}

# bench_machine: cores, CPU model and memory of this machine.
bench_machine() {
  echo "$(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/{print $2}') GiB"
}

# bench_run_lines DTSIM: the results file's list of what this run was (machine, date, commit, binary).
bench_run_lines() {
  echo "- machine: $(bench_machine)"
  echo "- date: $started"
  echo "- commit: $commit"
  echo "- dtsim: $1"
}

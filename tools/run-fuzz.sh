#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan, build-fuzz/) and fuzzes the
# scenario loader for SECONDS seconds (default 25; 0 = no time limit). Extra arguments go to libFuzzer,
# e.g. `tools/run-fuzz.sh 0 -runs=1200000` for a fixed number of executions.
# Exits non-zero if the fuzzer finds a crash, a sanitizer report, a timeout, an out-of-memory or any
# exception other than dtsim::InputError; the reproducer is kept in build-fuzz/fuzz-artifacts/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-25}"
if [[ $# -gt 0 ]]; then shift; fi
if ! [[ "$duration" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 [SECONDS] [libFuzzer options...]" >&2
    exit 2
fi

cd "$repo"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

fuzzer="$repo/build-fuzz/bin/scenario_loader_fuzz"
dict="$repo/tests/fuzz/scenario.dict"
artifacts="$repo/build-fuzz/fuzz-artifacts"
mkdir -p "$artifacts"

work="$(mktemp -d "${TMPDIR:-/tmp}/dtsim-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
corpus="$work/corpus"
mkdir -p "$corpus"

# Seed corpus: the example scenarios and the known-bad ones (either folder may be empty or missing),
# plus one small valid scenario so the success path is covered even when there are no examples.
shopt -s nullglob
seeds=0
for f in "$repo"/scenarios/*.yaml "$repo"/tests/data/bad_scenarios/*.yaml; do
    cp "$f" "$corpus/$(basename "$(dirname "$f")")__$(basename "$f")"
    seeds=$((seeds + 1))
done
shopt -u nullglob
cat >"$corpus/builtin__minimal_valid.yaml" <<'EOF'
name: minimal
cluster:
  nodes: 4
  gpus_per_node: 8
  gpu: h100-sxm
  nic: ib-ndr
  fabric: {topology: fat-tree, oversubscription: 2, radix: 16}
  network_model: ideal
model: {zoo: resnet50, batch_per_gpu: 32, precision: bf16, single_gpu_step_time: 120ms}
training:
  iterations: 3
  fidelity: step
  strategy: {kind: parameter-server, servers: 2, placement: colocated, sync: sync, bucket: 25MB, overlap: true, aggregation_bandwidth: 20GB/s}
seed: 7
sweep:
  cluster.nodes: [2, 4]
debug: {lose_message_to_rank: 3}
EOF
seeds=$((seeds + 1))
echo "run-fuzz: $seeds seed inputs; running for ${duration}s (0 = no limit) $*"

export DTSIM_DATA_DIR="$repo/data"
log="$work/fuzz.log"
start=$(date +%s)
set +e
"$fuzzer" "$corpus" \
    -dict="$dict" \
    -max_total_time="$duration" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
elapsed=$(( $(date +%s) - start ))

execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
echo "run-fuzz: summary"
echo "  executions: ${execs:-unknown}"
echo "  exec/s:     ${rate:-unknown}"
echo "  duration:   ${elapsed}s"
echo "  corpus:     $(find "$corpus" -type f | wc -l) inputs"
if [[ $status -eq 72 ]]; then
    echo "  result:     interrupted (libFuzzer exit status 72); nothing found before the interrupt"
    exit 1
fi
if [[ $status -ne 0 ]]; then
    echo "  result:     FAILED (libFuzzer exit status $status); reproducer(s):"
    grep -h 'Test unit written to' "$log" | sed 's/^.*Test unit written to /    /' || true
    exit 1
fi
echo "  result:     clean (no crashes)"

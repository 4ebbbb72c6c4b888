#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset: clang, ASan + UBSan, build-fuzz/) and fuzzes the
# scenario loader, the profile reader, then the nccl-tests log reader, for SECONDS seconds each (default 25;
# 0 = no time limit). DTSIM_FUZZ_TARGETS picks some of them (default "scenario profile nccl_tests"). Extra arguments go to libFuzzer,
# e.g. `tools/run-fuzz.sh 0 -runs=1200000` for a fixed number of executions.
# Exits non-zero if the fuzzer finds a crash, a sanitizer report, a timeout, an out-of-memory or any
# exception other than dtsim::InputError; the reproducer is kept in build-fuzz/fuzz-artifacts/.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration="${1:-25}"
if [[ $# -gt 0 ]]; then shift; fi
if ! [[ "$duration" =~ ^[0-9]+$ ]]; then
    echo "usage: [DTSIM_FUZZ_TARGETS='scenario profile nccl_tests'] $0 [SECONDS] [libFuzzer options...]" >&2
    exit 2
fi
targets="${DTSIM_FUZZ_TARGETS:-scenario profile nccl_tests}"
for target in $targets; do
    if [[ "$target" != scenario && "$target" != profile && "$target" != nccl_tests ]]; then
        echo "run-fuzz: unknown target '$target' in DTSIM_FUZZ_TARGETS; expected scenario, profile or nccl_tests" >&2
        exit 2
    fi
done

cd "$repo"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

artifacts="$repo/build-fuzz/fuzz-artifacts"
mkdir -p "$artifacts"
work="$(mktemp -d "${TMPDIR:-/tmp}/dtsim-fuzz.XXXXXX")"
trap 'rm -rf "$work"' EXIT
export DTSIM_DATA_DIR="$repo/data"

# Seed corpus of a target: its shipped and known-bad inputs (any folder may be empty or missing), plus one
# small valid scenario so that the success path is covered even without examples.
seed_corpus() {
    local target="$1" corpus="$2"
    local files=()
    shopt -s nullglob globstar
    if [[ "$target" == scenario ]]; then
        files=("$repo"/scenarios/*.yaml "$repo"/tests/data/bad_scenarios/*.yaml)
    elif [[ "$target" == nccl_tests ]]; then
        files=("$repo"/tests/data/nccl_tests/*.log "$repo"/tests/data/bad_nccl_tests/*.log)
    else
        files=("$repo"/data/profiles/*.json "$repo"/bench/results/**/*profile*.json "$repo"/tests/data/bad_profiles/*.json)
    fi
    shopt -u nullglob globstar
    local f
    for f in "${files[@]}"; do cp "$f" "$corpus/$(basename "$(dirname "$f")")__$(basename "$f")"; done
    [[ "$target" == scenario ]] || return 0
    cat >"$corpus/builtin__minimal_valid.yaml" <<'YAML'
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
YAML
}

# Fuzzes one target; prints its summary and returns non-zero on a finding.
fuzz_target() {
    local target="$1"
    shift
    local fuzzer="$repo/build-fuzz/bin/${target}_loader_fuzz"
    local corpus="$work/$target-corpus" log="$work/$target.log"
    mkdir -p "$corpus"
    seed_corpus "$target" "$corpus"
    echo "run-fuzz: $target: $(find "$corpus" -type f | wc -l) seed inputs; running for ${duration}s (0 = no limit) $*"
    local start status
    start=$(date +%s)
    set +e
    "$fuzzer" "$corpus" \
        -dict="$repo/tests/fuzz/$target.dict" \
        -max_total_time="$duration" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/$target-" -print_final_stats=1 "$@" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    set -e
    local elapsed=$(( $(date +%s) - start ))
    local execs rate
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
    echo "run-fuzz: $target: summary"
    echo "  executions: ${execs:-unknown}"
    echo "  exec/s:     ${rate:-unknown}"
    echo "  duration:   ${elapsed}s"
    echo "  corpus:     $(find "$corpus" -type f | wc -l) inputs"
    if [[ $status -eq 72 ]]; then
        echo "  result:     interrupted (libFuzzer exit status 72); nothing found before the interrupt"
        return 1
    fi
    if [[ $status -ne 0 ]]; then
        echo "  result:     FAILED (libFuzzer exit status $status); reproducer(s):"
        grep -h 'Test unit written to' "$log" | sed 's/^.*Test unit written to /    /' || true
        return 1
    fi
    echo "  result:     clean (no crashes)"
}

failed=0
for target in $targets; do
    fuzz_target "$target" "$@" || failed=1
done
exit "$failed"

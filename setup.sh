#!/usr/bin/env bash
# dtsim set-up: installs what is missing (Debian 12 packages), builds, and runs the main job or the tests.
#
#   ./setup.sh demo    install, build, and run the what-if study (tables on stdout, files in out/)
#   ./setup.sh test    install, build, and pass every test (release, sanitizers, fuzzing)
#   ./setup.sh build   install and build only
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  libsimgrid-dev libboost-dev
  libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev sqlite3
  libopenmpi-dev openmpi-bin libopenblas-dev iproute2
  catch2
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libqt6svg6-dev
  clang libclang-rt-14-dev
)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# Runs a phase and prints its wall time and the CPU time of it and its children, so that every log (CI's
# included) shows where the time goes (bench/ci-time/run.sh collects these lines).
phase() {
  local name="$1"
  shift
  local TIMEFORMAT="== time: $name: %0R s wall, %0U s user + %0S s sys"
  time "$@"
}

build_preset() {
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1"
}

build() {
  echo "== building (build/)"
  phase "release build" build_preset release
}

demo() {
  mkdir -p out
  for study in scenarios/whatif-h100-resnet50.yaml scenarios/whatif-h100-gpt3.yaml; do
    name=$(basename "$study" .yaml)
    echo
    build/bin/dtsim sweep "$study" --json "out/$name.json" --db out/runs.db
  done
  build/bin/dtsim simulate scenarios/resnet50-h100-ring.yaml --trace out/resnet50-h100-ring.trace.json --db out/runs.db >/dev/null
  echo
  echo "Outputs in out/: sweep JSON, runs database out/runs.db (build/bin/dtsim runs list),"
  echo "and a Chrome/Perfetto trace out/resnet50-h100-ring.trace.json (open it at https://ui.perfetto.dev)."
  [ -x build/bin/dtsim-gui ] && echo "Browse the runs: build/bin/dtsim-gui --db out/runs.db"
}

run_tests() {
  echo "== tests (release build)"
  phase "release tests" ctest --preset release
  echo "== unit and integration tests under AddressSanitizer + UndefinedBehaviorSanitizer (build-sanitize/)"
  phase "sanitize build" build_preset sanitize
  phase "sanitize tests" ctest --preset sanitize
  echo "== fuzzing the scenario loader, the profile reader and the nccl-tests log reader (build-fuzz/)"
  phase "fuzz build" build_preset fuzz
  phase "fuzz run" tools/run-fuzz.sh 25
}

case "${1:-}" in
  demo) install_missing; build; demo ;;
  test) install_missing; build; run_tests ;;
  build) install_missing; build ;;
  *) echo "usage: $0 demo | test | build" >&2; exit 2 ;;
esac

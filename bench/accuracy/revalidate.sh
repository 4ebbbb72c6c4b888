#!/usr/bin/env bash
# bench/accuracy/revalidate.sh: re-runs `dtsim validate` on a recorded accuracy run's own scenarios,
# profiles and measurements (bench/results/accuracy-RATE/) with this build, and compares every number of
# the result with the recorded validate.json. A change that must not alter predictions (a restructuring)
# shows here as a relative difference of 0; the table is printed as validate prints it.
# Nothing recorded is modified: the runs database is read from a copy.
#
# Usage: bench/accuracy/revalidate.sh [--rate RATE]   (needs python3 for the comparison)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rate=500mbit
while (($#)); do
	case $1 in
	--rate) rate=$2; shift 2 ;;
	*) echo "usage: $0 [--rate RATE]" >&2; exit 2 ;;
	esac
done
work="$root/bench/results/accuracy-$rate"
dtsim="$root/build/bin/dtsim"
[[ -x $dtsim ]] || { echo "$0: $dtsim is missing: build first (./setup.sh build)" >&2; exit 2; }
[[ -f $work/validate.json && -f $work/runs.db ]] || { echo "$0: no recorded run in $work" >&2; exit 2; }
command -v python3 > /dev/null || { echo "$0: python3 is needed to compare the results" >&2; exit 2; }
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp "$work/runs.db" "$scratch/runs.db"
(cd "$work/scenarios" && "$dtsim" validate *.yaml --db "$scratch/runs.db" --json "$scratch/validate.json" 2>/dev/null)
python3 - "$work/validate.json" "$scratch/validate.json" <<'PY'
import json, sys
recorded, now = (json.load(open(path)) for path in sys.argv[1:3])
count, worst, where = 0, 0.0, ""
def walk(a, b, path):
    global count, worst, where
    if isinstance(a, dict):
        if set(a) != set(b): sys.exit(f"{path}: keys differ: {sorted(set(a) ^ set(b))}")
        for key in a: walk(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        if len(a) != len(b): sys.exit(f"{path}: {len(a)} entries recorded, {len(b)} now")
        for i, (x, y) in enumerate(zip(a, b)): walk(x, y, f"{path}[{i}]")
    elif isinstance(a, (int, float)) and not isinstance(a, bool):
        count += 1
        difference = 0.0 if a == b else abs(a - b) / max(abs(a), 1e-300)
        if difference > worst: worst, where = difference, path
    elif a != b:
        sys.exit(f"{path}: recorded {a!r}, now {b!r}")
walk(recorded, now, "")
print(f"{count} numbers compared with the recorded validate.json: largest relative difference {worst:.3g}"
      + (f" (at {where})" if where else ""))
PY

#!/usr/bin/env bash
# Everything this bench measures on one GPU, into OUT (default out/gpu-ground-truth): dtsim-runtime's
# calibration with --backend nccl, two measured runs, then PyTorch training steps and per-kind kernel rates.
# Needs a dtsim-runtime built with CUDA and NCCL, and python3 with torch, torchvision and transformers.
# Usage: bench/gpu-ground-truth/run.sh [OUT] [path/to/dtsim-runtime]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-out/gpu-ground-truth}"
runtime="${2:-$here/../../build/bin/dtsim-runtime}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv | tee "$out/gpu.csv"
# One rank: MPI's singleton start needs no mpirun.
"$runtime" calibrate --backend nccl --out "$out/calibration" || echo "calibrate failed: $?"
for scenario in device-rn50-1gpu device-llm-1gpu; do
  compute=busy; [ "$scenario" = device-rn50-1gpu ] && compute=gemm
  "$runtime" measure --backend nccl --compute "$compute" "$here/scenarios/$scenario.yaml" --json "$out/measured-$scenario.json" \
    --trace "$out/trace-$scenario.json" --db "$out/runs.db" --label "$scenario" || echo "measure $scenario failed: $?"
done
PYTHONUNBUFFERED=1 python3 "$here/train_steps.py" --out "$out/train-steps.jsonl"
PYTHONUNBUFFERED=1 python3 "$here/kernel_kinds.py" --out "$out/kernel-kinds.jsonl"
echo "next: dtsim fit $out/calibration --out $out/profile.json; $here/compare.py --dtsim build/bin/dtsim --gpu PRESET --profile $out/profile.json $out/train-steps.jsonl"

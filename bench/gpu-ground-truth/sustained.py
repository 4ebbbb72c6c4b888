#!/usr/bin/env python3
"""Sustained rates: does a GPU keep its boost clock through minutes of training-like work?

Kernel microbenchmarks (kernel_kinds.py) time a few calls after a short warm-up, at whatever clock the GPU
runs when it has been idle; a training job runs its GEMMs for hours under the board's power limit. This runs
each load for --seconds, in one-second windows, and records per window the achieved rate, the SM clock and the
board power (NVML):

- gemm: back-to-back bf16 8192x8192x8192 products (random operands);
- layer: forward + backward of one Llama 2 7B decoder layer at 4096 tokens through torch.compile.

    python3 sustained.py --out sustained.jsonl [--seconds 40] [--loads gemm,layer]
"""
import argparse
import json
import time

import pynvml
import torch

import kernel_kinds  # beside this file: the Llama layer it profiles


def windows(step, seconds, work_per_step, handle):
    """Run `step` for `seconds`; yield one record per one-second window."""
    end = time.time() + seconds
    while time.time() < end:
        torch.cuda.synchronize()
        start, steps = time.time(), 0
        while time.time() - start < 1.0:
            step()
            steps += 1
            if steps % 4 == 0:
                torch.cuda.synchronize()
        torch.cuda.synchronize()
        elapsed = time.time() - start
        yield {"steps": steps, "seconds": elapsed, "per_step_s": elapsed / steps,
               "rate": work_per_step * steps / elapsed,
               "sm_clock_mhz": pynvml.nvmlDeviceGetClockInfo(handle, pynvml.NVML_CLOCK_SM),
               "power_w": pynvml.nvmlDeviceGetPowerUsage(handle) / 1000.0,
               "temperature_c": pynvml.nvmlDeviceGetTemperature(handle, pynvml.NVML_TEMPERATURE_GPU)}


def gemm_load():
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    return (lambda: a @ b), 2.0 * n**3, "FLOP/s"


def layer_load():
    step = kernel_kinds.llama_layer_step(4096, compiled=True)
    return step, 1.0, "steps/s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--loads", default="gemm,layer")
    args = parser.parse_args()
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    loads = {"gemm": gemm_load, "layer": layer_load}
    with open(args.out, "w") as out:
        out.write(json.dumps({"environment": {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                                              "power_limit_w": pynvml.nvmlDeviceGetPowerManagementLimit(handle) / 1000.0,
                                              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}}) + "\n")
        for name in args.loads.split(","):
            step, work, unit = loads[name]()
            for _ in range(5):  # compile and warm up outside the windows
                step()
            for index, record in enumerate(windows(step, args.seconds, work, handle)):
                record.update({"load": name, "window": index, "unit": unit})
                out.write(json.dumps(record) + "\n")
                out.flush()
                print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in record.items()}), flush=True)
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Measured one-GPU training steps (train_steps.py's output, one or more runs) against dtsim's prediction
for the same model, batch, precision and optimizer: uncalibrated (the GPU preset alone) and, where given,
with a profile fitted from the same GPU's calibration. Prints a markdown table.

    compare.py --dtsim build/bin/dtsim --gpu h100-sxm [--profile P.json] RUN.jsonl [RUN2.jsonl ...]

error = predicted / measured throughput − 1: positive means dtsim predicts faster. The Llama rows are
per decoder layer: the difference of two depths' forward + backward (dtsim: its trace's forward and
backward spans, the optimizer left out as in the measurement).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ZOO = {"resnet50": "resnet50", "resnet101": "resnet101", "vgg16": "vgg16", "inception_v3": "inception_v3",
       "bert_large": "bert_large", "bert_base": "bert_base", "gpt2_xl": "gpt2_xl"}
ZOO_SEQUENCE = {"bert_large": 512, "bert_base": 512, "gpt2_xl": 1024}  # the zoo's sample (data/models/)
PRECISION = {"fp16": "fp16", "tf32": "tf32", "bf16": "bf16"}
LLAMA2_7B = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 32,
             "intermediate_size": 11008, "vocab_size": 32000}


def simulate(dtsim, scenario_text, work, name, trace=False):
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write(scenario_text)
    out = os.path.join(work, name + ".json")
    command = [dtsim, "simulate", path, "--quiet", "--json", out]
    if trace:
        command += ["--trace", os.path.join(work, name + ".trace.json")]
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:  # e.g. a profile without this precision's GEMM fit: shown, not fatal
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    with open(out) as f:
        return json.load(f)


def profile_line(profile):
    return f"profile: {profile}\n" if profile else ""


def zoo_prediction(dtsim, case, gpu, profile, work, tag):
    optimizer = "sgd" if case["unit"] == "images/s" else "adam"
    text = (f"name: {case['case']}-{tag}\n{profile_line(profile)}"
            f"cluster: {{nodes: 1, gpus_per_node: 1, gpu: {gpu}, nic: ib-ndr}}\n"
            f"model: {{zoo: {ZOO[case['model']]}, batch_per_gpu: {case['batch']}, precision: {PRECISION[case['precision']]}}}\n"
            f"training: {{iterations: 2, optimizer: {{kind: {optimizer}}}, strategy: {{kind: allreduce, algorithm: ring}}}}\n")
    return simulate(dtsim, text, work, f"{case['case']}-{tag}")["samples_per_s"]


def llama_layer_seconds(dtsim, layers, sequence, gpu, profile, work, tag):
    config = dict(LLAMA2_7B, num_hidden_layers=layers, max_position_embeddings=sequence)
    config_path = os.path.join(work, f"llama-{layers}.json")
    with open(config_path, "w") as f:
        json.dump(config, f)
    name = f"llama-{layers}-{tag}"
    text = (f"name: {name}\n{profile_line(profile)}cluster: {{nodes: 1, gpus_per_node: 1, gpu: {gpu}, nic: ib-ndr}}\n"
            f"model: {{zoo: {config_path}, micro_batch: 1, precision: bf16, sequence_length: {sequence}}}\n"
            "training: {iterations: 2, parallelism: {tensor: 1, pipeline: 1, data: auto}, global_batch: 1,\n"
            "           strategy: {kind: allreduce, algorithm: ring}}\n")
    result = simulate(dtsim, text, work, name, trace=True)
    with open(os.path.join(work, name + ".trace.json")) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    busy_us = sum(e["dur"] for e in events if e.get("ph") == "X" and e["name"].split(" ")[0] in ("forward", "backward"))
    return busy_us / 1e6 / len(result["iterations"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dtsim", required=True)
    parser.add_argument("--gpu", required=True, help="dtsim GPU preset of the measured GPU")
    parser.add_argument("--profile", help="a profile fitted from the same GPU's calibration")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args()

    measured = {}  # case -> [throughput per run]
    cases = {}
    for run in args.runs:
        with open(run) as f:
            for line in f:
                record = json.loads(line)
                if "case" not in record or "error" in record:
                    continue
                cases[record["case"]] = record
                measured.setdefault(record["case"], []).append(record["throughput"])

    predictors = [("preset", None)] + ([("profile", os.path.abspath(args.profile))] if args.profile else [])
    print("| case | batch, precision | measured (each run) | " + " | ".join(
        f"dtsim {tag} | error" for tag, _ in predictors) + " |")
    print("|---|---|---|" + "---|---|" * len(predictors))
    errors = {tag: [] for tag, _ in predictors}
    with tempfile.TemporaryDirectory() as work:
        for key, case in cases.items():
            if case["model"] not in ZOO or case.get("sequence_length", ZOO_SEQUENCE.get(case["model"])) != ZOO_SEQUENCE.get(case["model"]):
                continue
            runs = measured[key]
            mean = statistics.mean(runs)
            cells = []
            for tag, profile in predictors:
                try:
                    predicted = zoo_prediction(args.dtsim, case, args.gpu, profile, work, tag)
                except RuntimeError as refusal:
                    print(f"{key}, dtsim {tag}: {refusal}", file=sys.stderr)
                    cells.append("— | —")
                    continue
                errors[tag].append(predicted / mean - 1)
                cells.append(f"{predicted:,.1f} | {100 * (predicted / mean - 1):+.1f} %")
            print(f"| {key} | {case['batch']}, {case['precision']} | {' / '.join(f'{r:,.1f}' for r in runs)} {case['unit']} | "
                  + " | ".join(cells) + " |")
        deep, shallow = cases.get("llama2-7b-6layers"), cases.get("llama2-7b-2layers")
        if deep and shallow:
            layers = deep["layers"] - shallow["layers"]
            per_run = [(d - s) / layers for d, s in zip(
                [1 / t for t in measured["llama2-7b-6layers"]], [1 / t for t in measured["llama2-7b-2layers"]])]
            mean = statistics.mean(per_run)
            cells = []
            for tag, profile in predictors:
                predicted = (llama_layer_seconds(args.dtsim, deep["layers"], deep["sequence_length"], args.gpu, profile, work, tag)
                             - llama_layer_seconds(args.dtsim, shallow["layers"], shallow["sequence_length"], args.gpu, profile,
                                                   work, tag)) / layers
                errors[tag].append(mean / predicted - 1)
                cells.append(f"{predicted * 1e3:.2f} ms | {100 * (mean / predicted - 1):+.1f} %")
            print(f"| Llama 2 7B decoder layer, forward + backward | 1 × {deep['sequence_length']}, bf16 | "
                  f"{' / '.join(f'{t * 1e3:.2f}' for t in per_run)} ms | " + " | ".join(cells) + " |")
    print()
    for tag, values in errors.items():
        magnitudes = [abs(v) for v in values]
        print(f"- dtsim {tag}: {len(values)} rows, median |error| {100 * statistics.median(magnitudes):.1f} %, "
              f"max {100 * max(magnitudes):.1f} %, within 15 %: {sum(m <= 0.15 for m in magnitudes)}")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Achieved rates per kind of kernel on one GPU: the ground truth for dtsim's per-kind compute model.

- gemm: bf16 matrix products of transformer layers' shapes (Llama 2 7B, GPT-3 175B's tensor-parallel
  slices), forward and both backward products, random operands;
- attention: FlashAttention through scaled_dot_product_attention, causal, bf16, head dim 128, forward
  and forward + backward, FLOPs counted as dtsim does (the unmasked half of QK^T and PV);
- memory: element-wise kernels (add, RMSNorm-like, SiLU·mul) over activations, bytes read + written;
- layer: one Llama 2 7B decoder layer's forward + backward under torch.profiler, kernel time by kind;
- layer_compiled: the same layer through torch.compile, whose Triton kernels fuse the element-wise work
  (norms, rotary, SiLU·mul, residual adds) as Megatron's fused kernels do, the stack dtsim's layer prices;
- model_tf32: the CNN training steps in TF32, kernel time by kind (model profiles the mixed-precision ones);
- model: whole training steps of train_steps.py's cases under torch.profiler, kernel time by kind.

    python3 kernel_kinds.py --out kernels.jsonl [--groups gemm,attention,memory,layer,model]
"""
import argparse
import json
import time
import traceback

import torch

import train_steps  # beside this file: its timing loop and backend settings


def cuda_seconds(fn, repeats=10, warmup=3):
    """The median of `repeats` timed calls after `warmup` untimed ones."""
    times = sorted(train_steps.timed_steps(fn, warmup, repeats))
    return times[len(times) // 2]


# (name, in features, out features) of the products a layer runs per token.
GEMM_SHAPES = {
    "llama2-7b": [("qkv", 4096, 12288), ("out", 4096, 4096), ("gate_up", 4096, 22016), ("down", 11008, 4096)],
    "gpt3-175b-tp8": [("qkv", 12288, 4608), ("out", 1536, 12288), ("fc1", 12288, 6144), ("fc2", 6144, 12288)],
}


def gemm_records():
    for model, shapes in GEMM_SHAPES.items():
        for tokens in (2048, 4096, 8192, 16384):
            for name, fin, fout in shapes:
                x = torch.randn(tokens, fin, device="cuda", dtype=torch.bfloat16)
                w = torch.randn(fin, fout, device="cuda", dtype=torch.bfloat16)
                dy = torch.randn(tokens, fout, device="cuda", dtype=torch.bfloat16)
                flops = 2.0 * tokens * fin * fout
                passes = {"forward": lambda: x @ w, "input_grad": lambda: dy @ w.t(), "weight_grad": lambda: x.t() @ dy}
                for kind, fn in passes.items():
                    s = cuda_seconds(fn)
                    yield {"kind": "gemm", "model": model, "gemm": name, "pass": kind, "tokens": tokens, "in": fin,
                           "out": fout, "seconds": s, "tflops": flops / s / 1e12}
                del x, w, dy


def attention_records():
    import torch.nn.functional as F

    for hidden, heads in ((4096, 32), (1536, 12)):
        for tokens in (2048, 4096, 8192):
            q, k, v = (torch.randn(1, heads, tokens, hidden // heads, device="cuda", dtype=torch.bfloat16,
                                   requires_grad=True) for _ in range(3))
            grad = torch.randn_like(q)
            flops = 2.0 * tokens * tokens * hidden  # dtsim's flash forward: half of QK^T and PV under the mask
            forward = cuda_seconds(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))

            def both():
                out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                out.backward(grad)

            total = cuda_seconds(both)
            yield {"kind": "attention", "hidden": hidden, "heads": heads, "tokens": tokens, "forward_s": forward,
                   "forward_backward_s": total, "forward_tflops": flops / forward / 1e12,
                   "forward_backward_tflops": 3.5 * flops / total / 1e12}


def memory_records():
    for elements in (16 * 2**20, 64 * 2**20):
        a = torch.randn(elements, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(elements, device="cuda", dtype=torch.bfloat16)
        weight = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
        rows = a.view(-1, 4096)
        kernels = {
            "add": (lambda: a + b, 3),
            "silu_mul": (lambda: torch.nn.functional.silu(a) * b, 3),
            "rms_norm": (lambda: torch.nn.functional.rms_norm(rows, (4096,), weight), 2),
            "copy": (lambda: a.clone(), 2),
        }
        for name, (fn, passes) in kernels.items():
            s = cuda_seconds(fn)
            moved = passes * elements * 2
            yield {"kind": "memory", "kernel": name, "elements": elements, "seconds": s, "bytes": moved,
                   "gb_per_s": moved / s / 1e9}


def classify(kernel_name):
    name = kernel_name.lower()
    # Attention first: cuDNN's SDPA kernels are named `..._flash_fprop_...`; "conv" but not "convert".
    if any(key in name for key in ("flash", "fmha", "attention", "sdpa")):
        return "attention"
    if any(key in name for key in ("fprop", "dgrad", "wgrad")) or ("conv" in name and "convert" not in name):
        return "convolution"
    if any(key in name for key in ("gemm", "xmma", "cutlass", "sm90_", "sm80_", "cublas", "nvjet")):
        return "gemm"
    return "memory"


def llama_layer_step(tokens, compiled=False):
    """One Llama 2 7B decoder layer's forward + backward at `tokens` (bf16, SDPA), eager or torch.compile'd."""
    import transformers

    config = transformers.LlamaConfig(vocab_size=32000, hidden_size=4096, intermediate_size=11008,
                                      num_hidden_layers=1, num_attention_heads=32, num_key_value_heads=32,
                                      max_position_embeddings=tokens, attn_implementation="sdpa")
    layer = transformers.models.llama.modeling_llama.LlamaDecoderLayer(config, 0).to("cuda", torch.bfloat16)
    rotary = transformers.models.llama.modeling_llama.LlamaRotaryEmbedding(config).to("cuda")
    x = torch.randn(1, tokens, 4096, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    positions = torch.arange(tokens, device="cuda").unsqueeze(0)
    embeddings = rotary(x, positions)
    grad = torch.randn_like(x)
    run = torch.compile(layer) if compiled else layer

    def step():
        out = run(x, position_embeddings=embeddings, attention_mask=None, position_ids=positions)
        out = out[0] if isinstance(out, tuple) else out
        out.backward(grad)

    return step


def layer_profile_records(compiled=False):
    from torch.profiler import ProfilerActivity, profile

    for tokens in (4096, 8192):
        step = llama_layer_step(tokens, compiled)
        wall = cuda_seconds(step)
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(5):
                step()
            torch.cuda.synchronize()
        by_kind, kernels = kernel_split(prof, 5)
        yield {"kind": "layer", "model": "llama2-7b", "compiled": compiled, "tokens": tokens, "step_s": wall,
               "kernel_seconds_by_kind": by_kind, "kernels": kernels}


def kernel_split(prof, steps):
    """GPU kernel seconds per step by kind, and the 40 longest kernels."""
    by_kind = {"convolution": 0.0, "gemm": 0.0, "attention": 0.0, "memory": 0.0}
    kernels = {}
    for event in prof.key_averages():
        cuda_us = getattr(event, "device_time_total", None) or getattr(event, "cuda_time_total", 0)
        if cuda_us <= 0 or event.key.startswith("aten::") or event.key.startswith("autograd"):
            continue
        by_kind[classify(event.key)] += cuda_us / steps / 1e6
        kernels[event.key[:120]] = cuda_us / steps / 1e6
    return by_kind, dict(sorted(kernels.items(), key=lambda kv: -kv[1])[:40])


def model_profile_records(precision="amp"):
    from torch.profiler import ProfilerActivity, profile

    train_steps.configure_backends()  # as the measured steps ran
    for key, (record, build) in train_steps.cases().items():
        if key.startswith("llama") or not key.endswith(precision) or "-s128" in key:
            continue
        step = build()
        wall = cuda_seconds(step, repeats=5, warmup=5)
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(3):
                step()
            torch.cuda.synchronize()
        by_kind, kernels = kernel_split(prof, 3)
        yield {"kind": "model", "case": key, "batch": record["batch"], "precision": record["precision"], "step_s": wall,
               "kernel_seconds_by_kind": by_kind, "kernels": kernels}
        del step
        torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--groups", default="gemm,attention,memory,layer,model")
    args = parser.parse_args()
    groups = {"gemm": gemm_records, "attention": attention_records, "memory": memory_records,
              "layer": layer_profile_records, "layer_compiled": lambda: layer_profile_records(compiled=True),
              "model": model_profile_records, "model_tf32": lambda: model_profile_records("tf32"),
              "model_nchw": lambda: model_profile_records("nchw")}
    with open(args.out, "w") as out:
        out.write(json.dumps({"environment": {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                                              "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}}) + "\n")
        for group in (groups[name] for name in args.groups.split(",")):
            try:
                for record in group():
                    out.write(json.dumps(record) + "\n")
                    out.flush()
                    brief = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in record.items() if k != "kernels"}
                    print(json.dumps(brief), flush=True)
            except Exception:  # one group's failure must not lose the others
                traceback.print_exc()
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

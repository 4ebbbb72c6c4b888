#!/usr/bin/env python3
"""Ground truth for dtsim's uncalibrated compute model: real PyTorch training steps on one GPU.

Each case builds a zoo model's architecture from its public configuration (random weights, synthetic
inputs: no data loader, no download), runs warm-up steps, then times whole training steps (forward,
backward, optimizer step) between CUDA events. One JSON object per case goes to stdout and to --out.
Cases fail independently: an error is recorded in the case's line and the next case runs.

    python3 train_steps.py --out steps.jsonl [--only resnet50-amp,...] [--steps 20]
"""
import argparse
import json
import platform
import sys
import time
import traceback

import torch


def timed_steps(step, warmup, steps):
    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(steps):
        start.record()
        step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return times


def make_training_step(model, inputs, loss_of, precision, optimizer):
    """One optimizer step; fp16 AMP uses a gradient scaler as frameworks' mixed precision does."""
    scaler = torch.amp.GradScaler("cuda") if precision == "fp16" else None
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)

    def step():
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=dtype, enabled=dtype is not None):
            loss = loss_of(model(**inputs) if isinstance(inputs, dict) else model(inputs))
        if scaler:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()

    return step


def vision_case(name, batch, precision, layout="channels_last"):
    """`layout`: channels_last (NHWC, what cuDNN's Tensor-Core kernels run natively) or nchw (PyTorch's default,
    as NVIDIA's TF32 ResNet-50 recipe keeps it: cuDNN then converts layouts around the convolutions)."""
    import torchvision

    def build():
        size = 299 if name == "inception_v3" else 224
        kwargs = {"weights": None}
        if name == "inception_v3":
            kwargs.update(aux_logits=True, init_weights=False)
        memory_format = torch.channels_last if layout == "channels_last" else torch.contiguous_format
        model = getattr(torchvision.models, name)(**kwargs).cuda().to(memory_format=memory_format)
        images = torch.randn(batch, 3, size, size, device="cuda").to(memory_format=memory_format)
        labels = torch.randint(0, 1000, (batch,), device="cuda")
        criterion = torch.nn.CrossEntropyLoss()

        def loss_of(out):
            logits = out.logits if hasattr(out, "logits") else out
            return criterion(logits, labels)

        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=5e-5)
        return make_training_step(model.train(), images, loss_of, precision, optimizer)

    return ({"model": name, "batch": batch, "precision": precision, "layout": layout, "unit": "images/s",
             "samples": batch}, build)


def transformer_case(model_name, batch, sequence, precision, compiled=False):
    """A Hugging Face encoder or GPT-2 training step; `compiled` runs the model through torch.compile, whose
    fused element-wise kernels stand for a tuned stack's (NVIDIA's apex/Megatron fused kernels)."""
    import transformers

    def build():
        if model_name.startswith("bert"):
            large = model_name == "bert_large"
            config = transformers.BertConfig(
                vocab_size=30522, hidden_size=1024 if large else 768, num_hidden_layers=24 if large else 12,
                num_attention_heads=16 if large else 12, intermediate_size=4096 if large else 3072,
                max_position_embeddings=512, attn_implementation="sdpa")
            model = transformers.BertForPreTraining(config)
            ids = torch.randint(0, config.vocab_size, (batch, sequence), device="cuda")
            inputs = {"input_ids": ids, "labels": ids,
                      "next_sentence_label": torch.zeros(batch, dtype=torch.long, device="cuda")}
        else:
            config = transformers.GPT2Config(n_embd=1600, n_layer=48, n_head=25, n_positions=1024,
                                             attn_implementation="sdpa")
            model = transformers.GPT2LMHeadModel(config)
            ids = torch.randint(0, config.vocab_size, (batch, sequence), device="cuda")
            inputs = {"input_ids": ids, "labels": ids}
        model = model.cuda().train()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
        return make_training_step(torch.compile(model) if compiled else model, inputs, lambda out: out.loss, precision,
                                  optimizer)

    return ({"model": model_name, "batch": batch, "sequence_length": sequence, "precision": precision,
             "compiled": compiled, "unit": "sequences/s", "samples": batch}, build)


def llama_layers_case(layers, sequence):
    """Llama 2 7B's decoder layers in bf16 (weights too), forward + backward, no optimizer: per-layer time
    is the difference between two depths, so embeddings and the head cancel."""
    import transformers

    def build():
        config = transformers.LlamaConfig(
            vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=layers,
            num_attention_heads=32, num_key_value_heads=32, max_position_embeddings=sequence,
            attn_implementation="sdpa")
        model = transformers.LlamaForCausalLM(config).to(device="cuda", dtype=torch.bfloat16).train()
        ids = torch.randint(0, config.vocab_size, (1, sequence), device="cuda")

        def step():
            model.zero_grad(set_to_none=True)
            model(input_ids=ids, labels=ids).loss.backward()

        return step

    return ({"model": "llama2-7b-layers", "layers": layers, "batch": 1, "sequence_length": sequence,
             "precision": "bf16", "unit": "steps/s", "samples": 1}, build)


def cases():
    out = {}
    for name, batch in (("resnet50", 256), ("resnet101", 256), ("vgg16", 128), ("inception_v3", 256)):
        out[f"{name}-amp"] = vision_case(name, batch, "fp16")
        out[f"{name}-tf32"] = vision_case(name, batch, "tf32")
    for precision in ("amp", "tf32"):
        out[f"resnet50-{precision}-nchw"] = vision_case("resnet50", 256, "fp16" if precision == "amp" else "tf32", "nchw")
    out["bert_large-s128-amp"] = transformer_case("bert_large", 64, 128, "fp16")
    out["bert_large-s512-amp"] = transformer_case("bert_large", 16, 512, "fp16")
    out["bert_large-s512-amp-compiled"] = transformer_case("bert_large", 16, 512, "fp16", compiled=True)
    out["bert_large-s512-tf32"] = transformer_case("bert_large", 16, 512, "tf32")
    out["bert_base-s512-amp"] = transformer_case("bert_base", 32, 512, "fp16")
    out["gpt2_xl-s1024-amp"] = transformer_case("gpt2_xl", 4, 1024, "fp16")
    out["llama2-7b-2layers"] = llama_layers_case(2, 4096)
    out["llama2-7b-6layers"] = llama_layers_case(6, 4096)
    return out


def configure_backends():
    """TF32 for fp32 products (the `tf32` cases; autocast's fp16 ones are unaffected) and cuDNN's autotuner."""
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cudnn.benchmark = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--warmup", type=int, default=8)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    configure_backends()
    environment = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
                   "cudnn": torch.backends.cudnn.version(), "python": platform.python_version(),
                   "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    wanted = [c for c in args.only.split(",") if c]
    with open(args.out, "w") as out:
        out.write(json.dumps({"environment": environment}) + "\n")
        for key, (record, build) in cases().items():
            if wanted and key not in wanted:
                continue
            record = dict(record, case=key, warmup=args.warmup)
            began = time.time()
            try:
                times = timed_steps(build(), args.warmup, args.steps)
                times.sort()
                median = times[len(times) // 2]
                record.update(step_times_s=times, median_step_s=median, throughput=record["samples"] / median,
                              peak_memory_gb=torch.cuda.max_memory_allocated() / 1e9)
            except Exception as error:  # one case's failure must not lose the others
                record["error"] = f"{type(error).__name__}: {error}"
                traceback.print_exc()
            record["wall_s"] = round(time.time() - began, 1)
            line = json.dumps(record)
            print(line if "error" in record else
                  f"{key}: {record['throughput']:.1f} {record['unit']} (median step {record['median_step_s'] * 1e3:.2f} ms, "
                  f"{record['peak_memory_gb']:.1f} GB)", flush=True)
            out.write(line + "\n")
            out.flush()
            torch.cuda.empty_cache()
            torch.cuda.reset_peak_memory_stats()


if __name__ == "__main__":
    sys.exit(main())

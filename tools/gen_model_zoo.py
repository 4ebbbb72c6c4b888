#!/usr/bin/env python3
"""Generate the dtsim model zoo: one YAML file per model under data/models/.

Usage:  python3 tools/gen_model_zoo.py        (standard library only)

The generated YAML is committed; the C++ build never runs this script.

Every model is a list of layers in FORWARD order (backward produces gradients
in the reverse order). Per layer:

  params       trainable parameters of the layer. BatchNorm (gamma, beta) is
               folded into the convolution it follows; each transformer
               sublayer carries its own LayerNorm. Every parameter is counted
               exactly once; weights tied to the input embedding (GPT LM head)
               are counted at the embedding, where their gradient completes.
  flops        forward FLOPs for ONE sample, a multiply-add counting as 2.
               Only convolutions and matrix multiplies are counted, including
               the attention score (Q.K^T) and context (A.V) matmuls over the
               full sequence (no causal-mask discount). Elementwise work is
               ignored: bias adds, BatchNorm/LayerNorm, activation functions,
               softmax, residual adds, pooling and embedding lookups.
  activations  number of elements of the layer's output tensor for one sample.
  input        (convolutions and linear layers of CNNs) elements of the tensor
               the layer reads, for one sample.
  channels     (the same) output channels: the columns of the layer's product
               as an implicit GEMM, whose rows are activations / channels per
               sample and whose depth is flops / (2 * activations).
  window       (the same) kernel positions (kh * kw; 1 for a linear layer):
               the input gradient sums over channels * window outputs.
  epilogue     (the same) the element-wise kernels that run on the layer's
               output before the next layer reads it, in order: batchnorm
               (training-mode BatchNorm), relu, add (a residual sum). The
               simulator prices each as memory traffic
               (core/src/cnn_kernels.cpp; docs/fidelity.md, "Uncalibrated compute").

FLOP sanity checks (printed next to the parameter check when the script runs):

  CNNs, against the multiply-add counts torchvision publishes (x2 for FLOPs):
    ResNet-50     4.09 GMACs  ->  ~8.2 GFLOPs per 224x224 image
    ResNet-101    7.80 GMACs  -> ~15.6 GFLOPs per 224x224 image
    VGG-16       15.47 GMACs  -> ~30.9 GFLOPs per 224x224 image
    Inception-v3  5.71 GMACs  -> ~11.4 GFLOPs per 299x299 image (without the
                  auxiliary classifier, which adds only ~0.01 GFLOPs)
  Transformers, against the usual estimate
    forward ~= 2 * N * n  +  4 * L * n^2 * d
  (N parameters, n tokens, L blocks, d model width; the second term is the
  attention score and context matmuls). That estimate charges 2 FLOPs per
  token to every parameter, including embedding tables that are only looked
  up, so the computed figure is lower where embeddings are a large share of N
  and are not reused as an output projection (BERT-base ratio ~0.79,
  BERT-large ~0.91), and close to it for GPT, whose token embedding doubles
  as the LM head (ratio ~0.98-1.01).
"""

import re
import sys
from collections import namedtuple
from pathlib import Path

TOLERANCE = 0.01  # allowed relative error of computed vs published parameters

OUTPUT_DIR = Path(__file__).resolve().parent.parent / "data" / "models"

Layer = namedtuple("Layer", "name params flops activations input channels window epilogue",
                   defaults=(None, None, None, ()))
Model = namedtuple(
    "Model", "name description source sample published layers reference_flops transformer",
    defaults=(None,))


def transformer_config(architecture, n_layers, d, heads, kv_heads, d_ff, vocab, positions, tokens,
                       experts=1, top_k=1):
    """The public configuration a decoder's layers were computed from (the simulator splits it for
    tensor, pipeline and expert parallelism)."""
    return dict(architecture=architecture, layers=n_layers, hidden=d, heads=heads, kv_heads=kv_heads,
                ffn=d_ff, vocabulary=vocab, positions=positions, sequence_length=tokens,
                experts=experts, top_k=top_k)


# --------------------------------------------------------------------------
# Convolutional networks
# --------------------------------------------------------------------------

def _pair(value):
    return value if isinstance(value, tuple) else (value, value)


def pooled_size(size, kernel, stride, padding=0):
    """Spatial (h, w) after a pooling window (pooling itself is not a layer)."""
    return tuple((s + 2 * padding - kernel) // stride + 1 for s in size)


class ConvNet:
    """Collects conv/linear layers in forward order while tracking shapes."""

    def __init__(self):
        self.layers = []

    def conv(self, name, c_in, c_out, size, kernel, stride=1, padding=0,
             batch_norm=True, epilogue=None):
        """Conv2d, followed by BatchNorm (then the conv has no bias) or not
        (then it has a bias), then by `epilogue` (default: BatchNorm and ReLU,
        or ReLU alone without BatchNorm). Returns the output spatial size (h, w)."""
        kh, kw = _pair(kernel)
        sh, sw = _pair(stride)
        ph, pw = _pair(padding)
        h = (size[0] + 2 * ph - kh) // sh + 1
        w = (size[1] + 2 * pw - kw) // sw + 1
        weights = kh * kw * c_in * c_out
        params = weights + (2 * c_out if batch_norm else c_out)
        if epilogue is None:
            epilogue = ("batchnorm", "relu") if batch_norm else ("relu",)
        self.layers.append(Layer(name, params, 2 * weights * h * w, c_out * h * w,
                                 c_in * size[0] * size[1], c_out, kh * kw, epilogue))
        return (h, w)

    def linear(self, name, n_in, n_out, epilogue=()):
        self.layers.append(Layer(name, n_in * n_out + n_out, 2 * n_in * n_out, n_out, n_in, n_out, 1, epilogue))


def resnet(name, blocks_per_stage, published, reference_gmacs):
    """ResNet v1.5 with bottleneck blocks (torchvision): the stride-2
    downsampling sits in each stage's first 3x3 conv."""
    net = ConvNet()
    size = net.conv("conv1", 3, 64, (224, 224), 7, stride=2, padding=3)
    size = pooled_size(size, 3, 2, padding=1)
    c_in = 64
    for stage, blocks in enumerate(blocks_per_stage, start=1):
        width = 64 * 2 ** (stage - 1)
        c_out = 4 * width
        for block in range(blocks):
            prefix = f"layer{stage}.{block}"
            stride = 2 if block == 0 and stage > 1 else 1
            block_in = size
            net.conv(f"{prefix}.conv1", c_in, width, block_in, 1)
            size = net.conv(f"{prefix}.conv2", width, width, block_in, 3,
                            stride=stride, padding=1)
            # The block's sum with its shortcut, then ReLU, follows conv3's BatchNorm.
            net.conv(f"{prefix}.conv3", width, c_out, size, 1,
                     epilogue=("batchnorm", "add", "relu"))
            if block == 0:
                net.conv(f"{prefix}.downsample", c_in, c_out, block_in, 1,
                         stride=stride, epilogue=("batchnorm",))
            c_in = c_out
    net.linear("fc", c_in, 1000)
    depth = 2 + 3 * sum(blocks_per_stage)
    return Model(
        name=name,
        description=f"ResNet-{depth} v1.5 (torchvision), ImageNet 224x224, 1000 classes",
        source=f"He et al. 2016; parameter count as published by torchvision ({published:,})",
        sample="one 224x224x3 image",
        published=published,
        layers=net.layers,
        reference_flops=2 * reference_gmacs * 1e9,
    )


def vgg16():
    """VGG-16, configuration D, without BatchNorm (torchvision vgg16)."""
    net = ConvNet()
    size = (224, 224)
    c_in = 3
    for stage, (convs, width) in enumerate(
            [(2, 64), (2, 128), (3, 256), (3, 512), (3, 512)], start=1):
        for index in range(1, convs + 1):
            size = net.conv(f"conv{stage}_{index}", c_in, width, size, 3,
                            padding=1, batch_norm=False)
            c_in = width
        size = pooled_size(size, 2, 2)
    net.linear("fc6", c_in * size[0] * size[1], 4096, epilogue=("relu",))
    net.linear("fc7", 4096, 4096, epilogue=("relu",))
    net.linear("fc8", 4096, 1000)
    return Model(
        name="vgg16",
        description="VGG-16 (configuration D, no BatchNorm; torchvision vgg16), "
                    "ImageNet 224x224, 1000 classes",
        source="Simonyan and Zisserman 2015; parameter count as published by "
               "torchvision (138,357,544)",
        sample="one 224x224x3 image",
        published=138357544,
        layers=net.layers,
        reference_flops=2 * 15.47e9,
    )


def inception_a(net, prefix, c_in, size, pool_features):
    net.conv(f"{prefix}.branch1x1", c_in, 64, size, 1)
    net.conv(f"{prefix}.branch5x5_1", c_in, 48, size, 1)
    net.conv(f"{prefix}.branch5x5_2", 48, 64, size, 5, padding=2)
    net.conv(f"{prefix}.branch3x3dbl_1", c_in, 64, size, 1)
    net.conv(f"{prefix}.branch3x3dbl_2", 64, 96, size, 3, padding=1)
    net.conv(f"{prefix}.branch3x3dbl_3", 96, 96, size, 3, padding=1)
    net.conv(f"{prefix}.branch_pool", c_in, pool_features, size, 1)
    return 64 + 64 + 96 + pool_features, size


def inception_b(net, prefix, c_in, size):
    out = net.conv(f"{prefix}.branch3x3", c_in, 384, size, 3, stride=2)
    net.conv(f"{prefix}.branch3x3dbl_1", c_in, 64, size, 1)
    net.conv(f"{prefix}.branch3x3dbl_2", 64, 96, size, 3, padding=1)
    net.conv(f"{prefix}.branch3x3dbl_3", 96, 96, size, 3, stride=2)
    return 384 + 96 + c_in, out  # third branch: max pool, passes c_in through


def inception_c(net, prefix, c_in, size, c7):
    net.conv(f"{prefix}.branch1x1", c_in, 192, size, 1)
    net.conv(f"{prefix}.branch7x7_1", c_in, c7, size, 1)
    net.conv(f"{prefix}.branch7x7_2", c7, c7, size, (1, 7), padding=(0, 3))
    net.conv(f"{prefix}.branch7x7_3", c7, 192, size, (7, 1), padding=(3, 0))
    net.conv(f"{prefix}.branch7x7dbl_1", c_in, c7, size, 1)
    net.conv(f"{prefix}.branch7x7dbl_2", c7, c7, size, (7, 1), padding=(3, 0))
    net.conv(f"{prefix}.branch7x7dbl_3", c7, c7, size, (1, 7), padding=(0, 3))
    net.conv(f"{prefix}.branch7x7dbl_4", c7, c7, size, (7, 1), padding=(3, 0))
    net.conv(f"{prefix}.branch7x7dbl_5", c7, 192, size, (1, 7), padding=(0, 3))
    net.conv(f"{prefix}.branch_pool", c_in, 192, size, 1)
    return 4 * 192, size


def inception_d(net, prefix, c_in, size):
    net.conv(f"{prefix}.branch3x3_1", c_in, 192, size, 1)
    out = net.conv(f"{prefix}.branch3x3_2", 192, 320, size, 3, stride=2)
    net.conv(f"{prefix}.branch7x7x3_1", c_in, 192, size, 1)
    net.conv(f"{prefix}.branch7x7x3_2", 192, 192, size, (1, 7), padding=(0, 3))
    net.conv(f"{prefix}.branch7x7x3_3", 192, 192, size, (7, 1), padding=(3, 0))
    net.conv(f"{prefix}.branch7x7x3_4", 192, 192, size, 3, stride=2)
    return 320 + 192 + c_in, out  # third branch: max pool, passes c_in through


def inception_e(net, prefix, c_in, size):
    net.conv(f"{prefix}.branch1x1", c_in, 320, size, 1)
    net.conv(f"{prefix}.branch3x3_1", c_in, 384, size, 1)
    net.conv(f"{prefix}.branch3x3_2a", 384, 384, size, (1, 3), padding=(0, 1))
    net.conv(f"{prefix}.branch3x3_2b", 384, 384, size, (3, 1), padding=(1, 0))
    net.conv(f"{prefix}.branch3x3dbl_1", c_in, 448, size, 1)
    net.conv(f"{prefix}.branch3x3dbl_2", 448, 384, size, 3, padding=1)
    net.conv(f"{prefix}.branch3x3dbl_3a", 384, 384, size, (1, 3), padding=(0, 1))
    net.conv(f"{prefix}.branch3x3dbl_3b", 384, 384, size, (3, 1), padding=(1, 0))
    net.conv(f"{prefix}.branch_pool", c_in, 192, size, 1)
    return 320 + 2 * 384 + 2 * 384 + 192, size


def inception_aux(net, prefix, c_in, size):
    """Auxiliary classifier on Mixed_6e's output (trained, dropped at inference)."""
    size = pooled_size(size, 5, 3)
    size = net.conv(f"{prefix}.conv0", c_in, 128, size, 1)
    net.conv(f"{prefix}.conv1", 128, 768, size, 5)
    net.linear(f"{prefix}.fc", 768, 1000)


def inception_v3():
    """Inception-v3 as in torchvision, with the auxiliary classifier, because
    it runs in every training step. Layers are in the order torchvision's
    forward() evaluates them; the aux head follows Mixed_6e."""
    net = ConvNet()
    size = net.conv("Conv2d_1a_3x3", 3, 32, (299, 299), 3, stride=2)
    size = net.conv("Conv2d_2a_3x3", 32, 32, size, 3)
    size = net.conv("Conv2d_2b_3x3", 32, 64, size, 3, padding=1)
    size = pooled_size(size, 3, 2)
    size = net.conv("Conv2d_3b_1x1", 64, 80, size, 1)
    size = net.conv("Conv2d_4a_3x3", 80, 192, size, 3)
    size = pooled_size(size, 3, 2)
    c, size = inception_a(net, "Mixed_5b", 192, size, pool_features=32)
    c, size = inception_a(net, "Mixed_5c", c, size, pool_features=64)
    c, size = inception_a(net, "Mixed_5d", c, size, pool_features=64)
    c, size = inception_b(net, "Mixed_6a", c, size)
    c, size = inception_c(net, "Mixed_6b", c, size, c7=128)
    c, size = inception_c(net, "Mixed_6c", c, size, c7=160)
    c, size = inception_c(net, "Mixed_6d", c, size, c7=160)
    c, size = inception_c(net, "Mixed_6e", c, size, c7=192)
    inception_aux(net, "AuxLogits", c, size)
    c, size = inception_d(net, "Mixed_7a", c, size)
    c, size = inception_e(net, "Mixed_7b", c, size)
    c, size = inception_e(net, "Mixed_7c", c, size)
    net.linear("fc", c, 1000)
    return Model(
        name="inception_v3",
        description="Inception-v3 (torchvision, aux_logits=True; the auxiliary "
                    "classifier is included because it runs during training), "
                    "ImageNet 299x299, 1000 classes",
        source="Szegedy et al. 2016; parameter count as published by torchvision "
               "with aux logits (27,161,264; 23,834,568 without)",
        sample="one 299x299x3 image",
        published=27161264,
        layers=net.layers,
        reference_flops=2 * 5.71e9,
    )


# --------------------------------------------------------------------------
# Transformers
# --------------------------------------------------------------------------

def attention_sublayer(name, d, n):
    """Q, K, V and output projections (with biases), the score and context
    matmuls over n tokens (summed over heads: 2*n*n*d MACs), one LayerNorm."""
    params = 4 * (d * d + d) + 2 * d
    flops = 2 * 4 * n * d * d + 2 * 2 * n * n * d
    return Layer(name, params, flops, n * d)


def mlp_sublayer(name, d, d_ff, n):
    """Two linear layers d -> d_ff -> d (with biases) and one LayerNorm."""
    params = 2 * d * d_ff + d_ff + d + 2 * d
    flops = 2 * 2 * n * d * d_ff
    return Layer(name, params, flops, n * d)


def transformer_blocks(n_layers, d, d_ff, n):
    layers = []
    for block in range(n_layers):
        layers.append(attention_sublayer(f"block{block}.attn", d, n))
        layers.append(mlp_sublayer(f"block{block}.mlp", d, d_ff, n))
    return layers


def transformer_reference_flops(published, n_layers, d, n):
    return 2 * published * n + 4 * n_layers * n * n * d


def bert(name, label, n_layers, d, heads, published, tokens=512):
    """BERT encoder (post-LayerNorm) with pooler, as HuggingFace BertModel;
    no masked-LM / next-sentence pretraining heads.
    Embeddings: word (30522 uncased WordPiece) + position (512) + token type
    (2), followed by a LayerNorm. Pooler: dense + tanh on the [CLS] token."""
    vocab, max_positions, token_types = 30522, 512, 2
    d_ff = 4 * d
    layers = [Layer("embeddings", (vocab + max_positions + token_types) * d + 2 * d,
                    0, tokens * d)]
    layers += transformer_blocks(n_layers, d, d_ff, tokens)
    layers.append(Layer("pooler", d * d + d, 2 * d * d, d))
    return Model(
        name=name,
        description=f"{label} uncased, {n_layers} layers, d_model {d}, {heads} heads, "
                    f"d_ff {d_ff}, vocab {vocab}; encoder + pooler (HuggingFace "
                    f"BertModel), no MLM/NSP pretraining heads",
        source=f"Devlin et al. 2019; parameter count of HuggingFace "
               f"{label.lower()}-uncased BertModel with pooler ({published:,})",
        sample=f"one sequence of {tokens} tokens",
        published=published,
        layers=layers,
        reference_flops=transformer_reference_flops(published, n_layers, d, tokens),
    )


def gpt(n_layers, d, n_ctx, vocab, tokens):
    """GPT-2 style decoder (pre-LayerNorm, learned position embeddings, tied
    input/output embeddings). The final LayerNorm and the LM head form the last
    entry; the head's weight is the token embedding, so it adds no params."""
    layers = [Layer("embeddings", (vocab + n_ctx) * d, 0, tokens * d)]
    layers += transformer_blocks(n_layers, d, 4 * d, tokens)
    layers.append(Layer("lm_head", 2 * d, 2 * tokens * d * vocab, tokens * vocab))
    return layers


def gpt2_xl():
    n_layers, d, heads, n_ctx, vocab, published = 48, 1600, 25, 1024, 50257, 1557611200
    return Model(
        name="gpt2_xl",
        description=f"GPT-2 XL, {n_layers} layers, d_model {d}, {heads} heads, "
                    f"d_ff {4 * d}, vocab {vocab}, n_ctx {n_ctx}, tied input/output "
                    f"embeddings (LM head included, no extra params)",
        source=f"Radford et al. 2019; parameter count of HuggingFace gpt2-xl "
               f"({published:,})",
        sample=f"one sequence of {n_ctx} tokens",
        published=published,
        layers=gpt(n_layers, d, n_ctx, vocab, n_ctx),
        reference_flops=transformer_reference_flops(published, n_layers, d, n_ctx),
        transformer=transformer_config("gpt", n_layers, d, heads, heads, 4 * d, vocab, n_ctx, n_ctx),
    )


# GPT-3 paper (Brown et al. 2020), Table 2.1:
# (name, n_params as published, n_layers, d_model, n_heads, d_head)
# n_params is rounded in the paper. For 350M (+1.7%), 1.3B (+1.2%) and 2.7B
# (-1.8%) the exact count these dimensions give differs from it by more than
# TOLERANCE, so the parameter check reports them; the dimensions are kept as
# published rather than adjusted to hit the rounded figure.
GPT3_TABLE = [
    ("gpt3-125m", 125e6, 12, 768, 12, 64),
    ("gpt3-350m", 350e6, 24, 1024, 16, 64),
    ("gpt3-760m", 760e6, 24, 1536, 16, 96),
    ("gpt3-1.3b", 1.3e9, 24, 2048, 24, 128),
    ("gpt3-2.7b", 2.7e9, 32, 2560, 32, 80),
    ("gpt3-6.7b", 6.7e9, 32, 4096, 32, 128),
    ("gpt3-13b", 13.0e9, 40, 5140, 40, 128),  # d_model 5140 as printed (40 x 128 = 5120)
    ("gpt3-175b", 175.0e9, 96, 12288, 96, 128),
]


def gpt3(name, published, n_layers, d, heads, d_head):
    n_ctx, vocab = 2048, 50257
    published = int(published)
    layers = gpt(n_layers, d, n_ctx, vocab, n_ctx)
    computed = sum(layer.params for layer in layers)
    return Model(
        name=name,
        description=f"GPT-3 {name[5:].upper()}, {n_layers} layers, d_model {d}, "
                    f"{heads} heads of {d_head}, d_ff {4 * d}, vocab {vocab}, "
                    f"n_ctx {n_ctx}, tied input/output embeddings (LM head "
                    f"included, no extra params); every layer modelled with dense "
                    f"attention (the paper alternates dense and locally banded "
                    f"sparse layers)",
        source=f"Brown et al. 2020, Table 2.1; published_parameters is the paper's "
               f"rounded n_params, these dimensions give {computed:,}",
        sample=f"one sequence of {n_ctx} tokens",
        published=published,
        layers=layers,
        reference_flops=transformer_reference_flops(published, n_layers, d, n_ctx),
        transformer=transformer_config("gpt", n_layers, d, heads, heads, 4 * d, vocab, n_ctx, n_ctx),
    )


# Megatron-LM GPT models (GPT-2 architecture as gpt() builds it: learned positions, tied embeddings, d_ff 4d),
# vocabulary 51,200 (GPT-2 BPE padded as Megatron-LM pads it) and sequence length 2048, as used in:
#   Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM"
#     (SC21, arXiv 2104.04473), Table 1 (parameters in billions, heads, hidden size, layers) and Section 5.1
#     ("All models use a vocabulary size of 51,200 and a sequence length of 2048"); the same dimensions are in
#     NVIDIA/Megatron-LM examples/sc21/run_table_1.sh (NLS, HS, NAH, --seq-length 2048). GPT-3 175B at this
#     vocabulary has 174.6 billion parameters (Table 2);
#   Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models" (arXiv 2205.05198),
#     Table 3 (22B: 64 heads, hidden 6144, 48 layers; 175B, 530B and 1T as above) and Section 6 (s = 2048,
#     v = 51200).
# published: the paper's parameter count (Table 1; Table 2 for 175B; Korthikanti Table 3's rounded 22B). Table 1
# rounds to 0.1 billion, so 1.7B (1.652 computed, -2.8%) and 3.6B (3.562, -1.1%) are reported by the parameter
# check; the dimensions are kept as published.
# (name, published parameters, layers, hidden, heads)
MEGATRON_GPT_TABLE = [
    ("megatron-gpt-1.7b", 1.7e9, 24, 2304, 24),
    ("megatron-gpt-3.6b", 3.6e9, 30, 3072, 32),
    ("megatron-gpt-7.5b", 7.5e9, 36, 4096, 32),
    ("megatron-gpt-18b", 18.4e9, 40, 6144, 48),
    ("megatron-gpt-22b", 22.0e9, 48, 6144, 64),
    ("megatron-gpt-39b", 39.1e9, 48, 8192, 64),
    ("megatron-gpt-76b", 76.1e9, 60, 10240, 80),
    ("megatron-gpt-145b", 145.6e9, 80, 12288, 96),
    ("megatron-gpt-175b", 174.6e9, 96, 12288, 96),
    ("megatron-gpt-310b", 310.1e9, 96, 16384, 128),
    ("megatron-gpt-530b", 529.6e9, 105, 20480, 128),
    ("megatron-gpt-1t", 1008.0e9, 128, 25600, 160),
]


def megatron_gpt(name, published, n_layers, d, heads):
    n_ctx, vocab = 2048, 51200
    published = int(published)
    layers = gpt(n_layers, d, n_ctx, vocab, n_ctx)
    computed = sum(layer.params for layer in layers)
    label = name[len("megatron-gpt-"):].upper()
    return Model(
        name=name,
        description=f"Megatron-LM GPT {label}, {n_layers} layers, d_model {d}, {heads} heads of {d // heads}, "
                    f"d_ff {4 * d}, vocab {vocab} (GPT-2 BPE padded), n_ctx {n_ctx}, tied input/output "
                    f"embeddings (LM head included, no extra params), dense attention",
        source=f"Narayanan et al. 2021 (arXiv 2104.04473) Table 1 and Section 5.1, and Korthikanti et al. 2022 "
               f"(arXiv 2205.05198) Table 3 and Section 6; published_parameters is the paper's rounded count, "
               f"these dimensions give {computed:,}",
        sample=f"one sequence of {n_ctx} tokens",
        published=published,
        layers=layers,
        reference_flops=transformer_reference_flops(published, n_layers, d, n_ctx),
        transformer=transformer_config("gpt", n_layers, d, heads, heads, 4 * d, vocab, n_ctx, n_ctx),
    )


# Llama-style decoders: pre-RMSNorm (one weight vector of d), no biases, rotary position embeddings (no
# parameters), grouped-query attention (kv_heads key/value heads of d/heads each), a SwiGLU MLP (gate, up
# and down projections), an output head not tied to the token embedding. A mixture-of-experts MLP has
# `experts` such MLPs and a router (d x experts); every expert has parameters (and gradients), each token
# runs through `top_k` of them. Public configurations:
#   Llama 2: Touvron et al. 2023, "Llama 2: Open Foundation and Fine-Tuned Chat Models", Table 1 (sizes,
#     4k context, GQA for 70B) and the config.json of meta-llama/Llama-2-{7b,13b,70b}-hf on Hugging Face;
#   Llama 3: Dubey et al. 2024, "The Llama 3 Herd of Models", Table 3 (layers, model and FFN dimensions,
#     heads, 8 key/value heads, 8k pretraining sequence) and the config.json of meta-llama/Meta-Llama-3-8B,
#     Meta-Llama-3-70B and Llama-3.1-405B (vocabulary 128,256);
#   Mixtral: Jiang et al. 2024, "Mixtral of Experts", Table 1 (dim 4096, 32 layers, 32 heads, 8 kv heads,
#     hidden 14336, 8 experts, top-2, vocabulary 32000, context 32768).
# published: the parameter count Hugging Face reports for each checkpoint, as rounded on its model card.
# (name, label, layers, d, heads, kv_heads, d_ff, vocab, tokens, experts, top_k, published, source)
LLAMA_TABLE = [
    ("llama2-7b", "Llama 2 7B", 32, 4096, 32, 32, 11008, 32000, 4096, 1, 1, 6.74e9, "llama2"),
    ("llama2-13b", "Llama 2 13B", 40, 5120, 40, 40, 13824, 32000, 4096, 1, 1, 13.0e9, "llama2"),
    ("llama2-70b", "Llama 2 70B", 80, 8192, 64, 8, 28672, 32000, 4096, 1, 1, 69.0e9, "llama2"),
    ("llama3-8b", "Llama 3 8B", 32, 4096, 32, 8, 14336, 128256, 8192, 1, 1, 8.03e9, "llama3"),
    ("llama3-70b", "Llama 3 70B", 80, 8192, 64, 8, 28672, 128256, 8192, 1, 1, 70.6e9, "llama3"),
    ("llama3-405b", "Llama 3 405B", 126, 16384, 128, 8, 53248, 128256, 8192, 1, 1, 406e9, "llama3"),
    ("mixtral-8x7b", "Mixtral 8x7B", 32, 4096, 32, 8, 14336, 32000, 4096, 8, 2, 46.7e9, "mixtral"),
]

# Not a public checkpoint: a Mixtral-style mixture of experts scaled down so that the CPU testbed (500 Mbit/s
# links) measures its expert all-to-alls in seconds (bench/accuracy); its published count is its own.
LLAMA_TABLE.append(("moe-testbed", "Testbed MoE", 2, 256, 4, 4, 512, 4096, 128, 4, 2, 5770496, "testbed"))

LLAMA_SOURCES = {
    "llama2": "Touvron et al. 2023, Table 1, and the Hugging Face config.json of the checkpoint",
    "llama3": "Dubey et al. 2024 (The Llama 3 Herd of Models), Table 3, and the Hugging Face config.json",
    "mixtral": "Jiang et al. 2024 (Mixtral of Experts), Table 1, and the Hugging Face config.json",
    "testbed": "not a public model, a Mixtral-style mixture of experts scaled down for the CPU testbed (bench/accuracy)",
}


def llama_attention(name, d, heads, kv_heads, n):
    """RMSNorm, Q and O projections (d x d), K and V (d x kv_dim), no biases; the score and context
    matmuls over n tokens (2*n*n*d MACs summed over the query heads)."""
    kv_dim = d // heads * kv_heads
    projections = 2 * d * d + 2 * d * kv_dim
    return Layer(name, projections + d, 2 * n * projections + 2 * 2 * n * n * d, n * d)


def llama_mlp(name, d, d_ff, n, experts, top_k):
    """RMSNorm and SwiGLU (gate and up d -> d_ff, down d_ff -> d, no biases), `experts` of them with a
    router where experts > 1; each token runs through top_k."""
    expert = 3 * d * d_ff
    router = d * experts if experts > 1 else 0
    return Layer(name, experts * expert + router + d, 2 * n * (top_k * expert + router), n * d)


def llama(name, label, n_layers, d, heads, kv_heads, d_ff, vocab, tokens, experts, top_k, published, source):
    layers = [Layer("embeddings", vocab * d, 0, tokens * d)]
    for block in range(n_layers):
        layers.append(llama_attention(f"block{block}.attn", d, heads, kv_heads, tokens))
        layers.append(llama_mlp(f"block{block}.mlp", d, d_ff, tokens, experts, top_k))
    layers.append(Layer("lm_head", vocab * d + d, 2 * tokens * d * vocab, tokens * vocab))
    computed = sum(layer.params for layer in layers)
    moe = f", {experts} experts of which {top_k} per token" if experts > 1 else ""
    active = computed - (experts - top_k) * n_layers * 3 * d * d_ff
    return Model(
        name=name,
        description=f"{label}, {n_layers} layers, d_model {d}, {heads} heads, {kv_heads} key/value heads, "
                    f"SwiGLU d_ff {d_ff}{moe}, vocab {vocab}, RMSNorm, rotary positions, untied output head",
        source=f"{LLAMA_SOURCES[source]}; published_parameters is the model card's rounded count, these "
               f"dimensions give {computed:,}" + (f" ({active:,} active per token)" if experts > 1 else ""),
        sample=f"one sequence of {tokens} tokens",
        published=int(published),
        layers=layers,
        reference_flops=transformer_reference_flops(active, n_layers, d, tokens),
        transformer=transformer_config("llama", n_layers, d, heads, kv_heads, d_ff, vocab, 0, tokens,
                                       experts, top_k),
    )


def all_models():
    models = [
        resnet("resnet50", [3, 4, 6, 3], 25557032, reference_gmacs=4.09),
        resnet("resnet101", [3, 4, 23, 3], 44549160, reference_gmacs=7.80),
        vgg16(),
        inception_v3(),
        bert("bert_base", "BERT-base", 12, 768, 12, 109482240),
        bert("bert_large", "BERT-large", 24, 1024, 16, 335141888),
        gpt2_xl(),
    ]
    models += [gpt3(*row) for row in GPT3_TABLE]
    models += [megatron_gpt(*row) for row in MEGATRON_GPT_TABLE]
    models += [llama(*row) for row in LLAMA_TABLE]
    return models


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

_PLAIN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9 _.,;()+/='-]*[A-Za-z0-9.)]")
_LAYER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


def plain(value, pattern):
    """All text is written as plain (unquoted) YAML scalars, so that a minimal
    YAML reader suffices; refuse anything that would need quoting."""
    if not pattern.fullmatch(value):
        raise ValueError(f"text needs YAML quoting: {value!r}")
    return value


def to_yaml(model):
    lines = [
        "# Generated by tools/gen_model_zoo.py \u2014 do not edit by hand.",
        "# flops: forward, one sample, 2 per multiply-add; conv/matmul only "
        "(elementwise ops ignored).",
        "# activations: elements of the layer's output tensor for one sample.",
        f"name: {plain(model.name, _LAYER_NAME)}",
        f"description: {plain(model.description, _PLAIN_TEXT)}",
        f"source: {plain(model.source, _PLAIN_TEXT)}",
        f"sample: {plain(model.sample, _PLAIN_TEXT)}",
        f"published_parameters: {model.published}",
    ]
    if model.transformer:
        fields = ", ".join(f"{key}: {value}" for key, value in model.transformer.items())
        lines.append(f"transformer: {{{fields}}}")
    lines.append("layers:  # forward order; backward produces gradients in reverse order")
    for layer in model.layers:
        name = plain(layer.name, _LAYER_NAME)
        kernels = ""
        if layer.input is not None:
            kernels = (f", input: {layer.input}, channels: {layer.channels}, window: {layer.window}, "
                       f"epilogue: [{', '.join(layer.epilogue)}]")
        lines.append(f"  - {{name: {name}, params: {layer.params}, "
                     f"flops: {layer.flops}, activations: {layer.activations}{kernels}}}")
    return "\n".join(lines) + "\n"


def main():
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    header = (f"{'model':<13} {'layers':>6} {'computed params':>16} {'published':>16} "
              f"{'error %':>8}  {'GFLOPs/sample':>13} {'reference':>10} {'ratio':>6}  check")
    print(header)
    print("-" * len(header))
    failures = []
    for model in all_models():
        (OUTPUT_DIR / f"{model.name}.yaml").write_text(to_yaml(model), encoding="utf-8")
        computed = sum(layer.params for layer in model.layers)
        error = (computed - model.published) / model.published
        flops = sum(layer.flops for layer in model.layers)
        ok = abs(error) <= TOLERANCE
        if not ok:
            failures.append(model.name)
        print(f"{model.name:<13} {len(model.layers):>6} {computed:>16,} "
              f"{model.published:>16,} {100 * error:>+8.3f}  {flops / 1e9:>13.2f} "
              f"{model.reference_flops / 1e9:>10.2f} {flops / model.reference_flops:>6.3f}"
              f"  {'ok' if ok else 'FAIL'}")
    print(f"\nwrote {OUTPUT_DIR}")
    if failures:
        print(f"parameter check FAILED (|error| > {100 * TOLERANCE:g}%): "
              f"{', '.join(failures)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

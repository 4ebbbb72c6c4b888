// A transformer's zoo layers, built from its public configuration: parameters and model FLOPs as
// tools/gen_model_zoo.py computes them, and the kernels a Megatron-style implementation runs for each
// block (docs/llm.md, "Compute"). Element counts are per token unless a name says otherwise.
#include "dtsim/model_zoo.hpp"

namespace dtsim {

namespace {

// A dropout mask is one byte per element: half a 16-bit activation.
constexpr double kMaskElements = 0.5;

// FlashAttention's work per block of queries that does not grow with the keys it visits (loading the
// block, the final rescale and output write, the diagonal tile run whole under the causal mask) costs as
// much as the products of this many more tokens of sequence: its rate at sequence length s is
// s / (s + 512) of the long-sequence rate. Fitted to FlashAttention-2's published forward + backward
// TFLOP/s at 512–16k tokens (A100: 487 and 507 for head dimensions 128 and 64; H100: 534 and 549; each
// within 2 % of the six points) and close to cuDNN's H100 kernels (615, docs/hardware-sources.md §7).
constexpr double kFlashOverheadTokens = 512;

// A matrix multiply of `tokens` rows from `in` to `out` features: it reads its input, writes its output
// and reads the in × out weights once. Tensor parallelism splits `out` (column-parallel) or, where
// `splits_depth`, `in` (row-parallel).
Kernel gemm(double tokens, double in, double out, bool splits_depth = false) {
    Kernel kernel{KernelKind::gemm, 2 * tokens * in * out, tokens * (in + out), in * out, 2, true};
    kernel.shape = GemmShape{tokens, out, in};
    kernel.tensor_splits_depth = splits_depth;
    return kernel;
}

Kernel memory(double elements, bool tensor_sharded) { return Kernel{KernelKind::memory, 0, elements, 0, 2, tensor_sharded}; }

Kernel core(double flops, double elements, double backward_factor = 2) {
    return Kernel{KernelKind::attention_core, flops, elements, 0, backward_factor, true};
}

// Scores, softmax (and dropout) and the context product over `n` tokens of `heads` query heads of
// hidden `d` and key/value width `kv`. Standard attention writes the heads·n² scores and reads and
// writes them again in every element-wise pass; FlashAttention keeps them on chip, computes only the
// unmasked half under a causal mask, and recomputes them in backward (five products for two: 2.5×).
std::vector<Kernel> attention_core(double n, double d, double kv, double heads, bool dropout, Attention attention) {
    const double products = 2 * n * n * d;  // QK^T, and again the probabilities times V
    const double scores = heads * n * n;
    if (attention == Attention::flash) {  // two products, half of each
        auto flash = core(products, n * (2 * d + 2 * kv), 2.5);
        flash.overhead_flops = products * kFlashOverheadTokens / n;
        return {flash};
    }
    std::vector<Kernel> kernels{core(products, n * (d + kv) + scores), core(0, 2 * scores)};
    if (dropout) kernels.push_back(core(0, (2 + kMaskElements) * scores));
    kernels.push_back(core(products, scores + n * (kv + d)));
    return kernels;
}

// Per-token kernels over a sequence of `tokens`: the weights are still read once.
std::vector<Kernel> scaled(std::vector<Kernel> kernels, double tokens) {
    for (auto& kernel : kernels) {
        kernel.flops *= tokens;
        kernel.elements *= tokens;
        kernel.shape.rows *= tokens;
    }
    return kernels;
}

}  // namespace

std::vector<ZooLayer> transformer_layers(const TransformerConfig& c, int sequence_length, Attention attention) {
    const double n = sequence_length, d = c.hidden, ffn = c.ffn, vocab = c.vocabulary;
    const bool gpt = c.architecture == "gpt";
    const double kv_dim = gpt ? d : static_cast<double>(c.hidden / c.heads) * c.kv_heads;
    std::vector<ZooLayer> layers;
    layers.push_back({"embeddings", (vocab + c.positions) * d, 0, n * d});
    for (int block = 0; block < c.layers; ++block) {
        const auto prefix = "block" + std::to_string(block);
        const double attention_flops = 2 * 2 * n * n * d;  // QK^T and the context product, over all query heads
        ZooLayer attn, mlp;
        // Normalisation reads and writes the hidden state; a residual add reads two and writes one; GPT's
        // fused bias-dropout-add also writes its mask.
        const double residual = gpt ? 3 + kMaskElements : 3;
        attn.kernels = scaled({memory(2 * d, false), gemm(1, d, d + 2 * kv_dim)}, n);
        if (!gpt) attn.kernels.push_back(memory(2 * n * (d + kv_dim), true));  // rotary embedding of q and k
        for (auto& kernel : attention_core(n, d, kv_dim, c.heads, gpt, attention)) attn.kernels.push_back(kernel);
        for (auto& kernel : scaled({gemm(1, d, d, true), memory(residual * d, false)}, n)) attn.kernels.push_back(kernel);
        if (gpt) {
            attn = ZooLayer{prefix + ".attn", 4 * (d * d + d) + 2 * d, 2 * 4 * n * d * d + attention_flops, n * d, attn.kernels};
            // LayerNorm, fc1, fused bias-GeLU over the ffn features, fc2, bias-dropout-add.
            mlp = ZooLayer{prefix + ".mlp", 2 * d * ffn + ffn + d + 2 * d, 2 * 2 * n * d * ffn, n * d,
                           scaled({memory(2 * d, false), gemm(1, d, ffn), memory(2 * ffn, true), gemm(1, ffn, d, true),
                                   memory(residual * d, false)},
                                  n)};
        } else {
            const double projections = 2 * d * d + 2 * d * kv_dim;
            attn = ZooLayer{prefix + ".attn", projections + d, 2 * n * projections + attention_flops, n * d, attn.kernels};
            // RMSNorm, (router, token permutation), gate and up projections, SwiGLU, down projection, residual add;
            // each token runs top_k experts and every expert's weights are read once; each expert's GEMM
            // has the rows of the tokens routed to it (top_k / experts of them on average).
            const double k = c.top_k, experts = c.experts;
            const double expert = 3 * d * ffn;
            const double router = c.moe() ? d * c.experts : 0;
            auto up = gemm(k, d, 2 * ffn), down = gemm(k, ffn, d, true);
            for (auto* projection : {&up, &down}) {
                projection->weight_elements *= experts;
                projection->shape.rows /= experts;
            }
            std::vector<Kernel> kernels{memory(2 * d, false)};
            if (c.moe()) {
                auto route = gemm(1, d, experts);
                route.tensor_sharded = false;
                kernels.push_back(route);
                kernels.push_back(memory(2 * d * (1 + k), false));
            }
            for (const auto& kernel : {up, memory(3 * ffn * k, true), down, memory(3 * d, false)}) kernels.push_back(kernel);
            mlp = ZooLayer{prefix + ".mlp", c.experts * expert + router + d, 2 * n * (c.top_k * expert + router), n * d,
                           scaled(kernels, n)};
        }
        layers.push_back(std::move(attn));
        layers.push_back(std::move(mlp));
    }
    // The output projection and the cross entropy over the vocabulary (logits read, probabilities written in fp32).
    layers.push_back({"lm_head", gpt ? 2 * d : vocab * d + d, 2 * n * d * vocab, n * vocab,
                      scaled({gemm(1, d, vocab), memory(3 * vocab, true)}, n)});
    return layers;
}

}  // namespace dtsim

#pragma once
// The model zoo (data/models/), or a model file: per-layer parameter counts and forward FLOPs per sample.
#include <optional>
#include <string>
#include <vector>

#include "dtsim/gemm_shape.hpp"
#include "dtsim/name_table.hpp"

namespace dtsim {

/// What a GPU kernel is bound by, and what recomputation and tensor parallelism do to it.
enum class KernelKind {
    gemm,            // a matrix multiply: compute-bound at the GEMM rate unless its operands are small
    attention_core,  // scores, softmax and the context product (selective recomputation redoes these)
    memory,          // element-wise and normalisation kernels: bound by memory bandwidth
};

/// One kernel of a layer's forward pass, per sample (docs/llm.md, "Compute"). Its time is a roofline:
/// max(FLOPs / rate, bytes moved / memory bandwidth), where bytes moved are `elements` per sample (read
/// and written, scaling with the tokens) plus `weight_elements` read once per pass. Backward runs
/// `backward_factor` times the forward's work (2: the input-gradient and weight-gradient products, or
/// reading the saved input and the incoming gradient and writing the outgoing one). Attention's core runs
/// at the attention rate (ComputeRates), every other kernel's FLOPs at the GEMM rate.
struct Kernel {
    KernelKind kind = KernelKind::gemm;
    double flops = 0;
    double elements = 0;
    double weight_elements = 0;
    double backward_factor = 2;
    bool tensor_sharded = true;  // split over a tensor group; false: every rank of it runs it whole
                                 // (normalisations, residual adds) unless sequence parallelism splits them
    double overhead_flops = 0;   // work beyond `flops` at the same rate, in FLOP-equivalents, that no model
                                 // FLOP count includes (FlashAttention's per-query-block work)
    // A GEMM's shape, rows per sample (tokens): its forward multiply, whose backward runs the input-gradient
    // (rows × depth over columns) and weight-gradient (depth × columns over rows) products; no rows: none known.
    GemmShape shape = {};
    bool tensor_splits_depth = false;  // tensor parallelism splits the depth (row-parallel: attention's output
                                       // and the MLP's down projection), else the columns (column-parallel)
    // A convolution's kernel positions (R·S) as an implicit GEMM: its depth is input channels × window, and its
    // input gradient (a convolution back over the window) is rows × depth/window over columns × window; 1: a GEMM.
    double window = 1;
};

/// An element-wise kernel that runs on a CNN layer's output before the next layer reads it
/// (tools/gen_model_zoo.py writes them as a layer's `epilogue`).
enum class Epilogue {
    batchnorm,  // training-mode BatchNorm: a statistics pass, then normalise
    relu,
    add,        // a residual sum with the block's shortcut
};
inline constexpr auto kEpilogueNames = make_name_table(std::pair{Epilogue::batchnorm, "batchnorm"},
                                                       std::pair{Epilogue::relu, "relu"}, std::pair{Epilogue::add, "add"});

struct ZooLayer {
    std::string name;
    double params = 0;
    double forward_flops_per_sample = 0;  // model FLOPs: what MFU counts
    double activations_per_sample = 0;  // output elements, a memory-traffic estimate
    std::vector<Kernel> kernels = {};  // where known (transformer blocks); else the layer is one roofline
};

/// How attention's core runs: `standard` materialises the a·s² scores and runs softmax and dropout over
/// them in memory; `flash` (FlashAttention) keeps them on chip, skips the tiles a causal mask removes
/// and recomputes the scores in backward.
enum class Attention { flash, standard };
inline constexpr auto kAttentionNames =
    make_name_table(std::pair{Attention::flash, "flash"}, std::pair{Attention::standard, "standard"});

/// A decoder-only transformer's public configuration (docs/llm.md, "Models"). `gpt`: GPT-2/3 blocks
/// (LayerNorm, biases, GELU MLP of ffn, learned positions, tied head); `llama`: RMSNorm, no biases,
/// grouped-query attention, SwiGLU MLP of ffn (mixture of `experts`, `top_k` per token), untied head.
struct TransformerConfig {
    std::string architecture;  // gpt | llama
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kv_heads = 0;
    int ffn = 0;
    int vocabulary = 0;
    int positions = 0;        // learned position embeddings (gpt); 0 with rotary positions
    int sequence_length = 0;  // the pre-training sequence the zoo's per-sample figures are for
    int experts = 1;
    int top_k = 1;
    int head_dim() const { return hidden / heads; }
    bool moe() const { return experts > 1; }
};

struct ZooModel {
    std::string name;
    std::string description;
    std::string source;
    std::string sample;  // what one sample is (an image, a sequence of N tokens)
    std::string file;    // the file it was read from (the zoo's or a model file), which a command must not overwrite
    double published_parameters = 0;
    std::vector<ZooLayer> layers;  // forward order; backward produces gradients in reverse
    std::optional<TransformerConfig> transformer;  // decoder-only transformers

    double total_parameters() const;
    double forward_flops_per_sample() const;
};

/// A transformer's layers for sequences of `sequence_length` tokens: embeddings, then per block
/// "blockN.attn" and "blockN.mlp", then "lm_head"; the same parameter and FLOP formulas as
/// tools/gen_model_zoo.py, with each block's kernels for the given attention (transformer_layers.cpp).
std::vector<ZooLayer> transformer_layers(const TransformerConfig& config, int sequence_length, Attention attention);

/// A CNN layer's product as an implicit GEMM: `channels` output channels (its columns), a window of `window`
/// kernel positions (1 for a linear layer); rows per sample and depth follow from its FLOPs and output.
struct ConvolutionShape {
    double channels = 0;
    double window = 1;
};

/// A convolution or linear layer of a CNN as kernels: its product (a GEMM of `flops` per sample that reads
/// `input` and writes `output` elements per sample and its `params` weights once per pass, of rows output /
/// channels per sample, depth flops / (2·output)), then each epilogue kernel over the output as memory traffic
/// (cnn_kernels.cpp; docs/architecture.md, "Compute").
std::vector<Kernel> convolution_kernels(double flops, double params, double input, double output, ConvolutionShape shape,
                                        const std::vector<Epilogue>& epilogue);

/// Loads data/models/<name>.yaml; `where` locates the key that named it, for the error message.
ZooModel load_zoo_model(const std::string& name, const std::string& where);

/// Whether `value` names a file rather than a zoo model: it has a folder, or ends in .yaml, .yml or .json.
bool names_model_file(const std::string& value);

/// A zoo name, or a file: one in the zoo's format (.yaml), or a Hugging Face config.json converted with the
/// zoo's rules. A relative path is looked for beside `base_file` (the scenario; empty for none), then in the
/// working folder.
ZooModel load_model(const std::string& value, const std::string& base_file, const std::string& where);

}  // namespace dtsim

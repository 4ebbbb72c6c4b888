#pragma once
// The model zoo (data/models/), or a model file: per-layer parameter counts and forward FLOPs per sample.
#include <optional>
#include <string>
#include <vector>

namespace dtsim {

struct ZooLayer {
    std::string name;
    double params = 0;
    double forward_flops_per_sample = 0;
    double activations_per_sample = 0;  // output elements, a memory-traffic estimate
};

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
    double published_parameters = 0;
    std::vector<ZooLayer> layers;  // forward order; backward produces gradients in reverse
    std::optional<TransformerConfig> transformer;  // decoder-only transformers

    double total_parameters() const;
    double forward_flops_per_sample() const;
};

/// A transformer's layers for sequences of `sequence_length` tokens: embeddings, then per block
/// "blockN.attn" and "blockN.mlp", then "lm_head"; the same formulas as tools/gen_model_zoo.py.
std::vector<ZooLayer> transformer_layers(const TransformerConfig& config, int sequence_length);

/// Loads data/models/<name>.yaml; `where` locates the key that named it, for the error message.
ZooModel load_zoo_model(const std::string& name, const std::string& where);

/// Whether `value` names a file rather than a zoo model: it has a folder, or ends in .yaml, .yml or .json.
bool names_model_file(const std::string& value);

/// A zoo name, or a file: one in the zoo's format (.yaml), or a Hugging Face config.json converted with the
/// zoo's rules. A relative path is looked for beside `base_file` (the scenario; empty for none), then in the
/// working folder.
ZooModel load_model(const std::string& value, const std::string& base_file, const std::string& where);

}  // namespace dtsim

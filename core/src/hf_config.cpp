#include "hf_config.hpp"

#include <memory>

#include "dtsim/config_node.hpp"
#include "dtsim/data_paths.hpp"

namespace dtsim {
namespace {

// GPT-2's config writes n_layer, n_embd…; transformers maps the common names onto them, so either is read.
int gpt2_or_common(const ConfigNode& doc, const char* gpt2_key, const char* common_key, long long max_value) {
    return static_cast<int>(doc.has(gpt2_key) ? doc.integer(gpt2_key, 1, max_value) : doc.integer(common_key, 1, max_value));
}

TransformerConfig gpt2_config(const ConfigNode& doc) {
    TransformerConfig c;
    c.architecture = "gpt";
    c.layers = gpt2_or_common(doc, "n_layer", "num_hidden_layers", 100000);
    c.hidden = gpt2_or_common(doc, "n_embd", "hidden_size", 1 << 20);
    c.heads = gpt2_or_common(doc, "n_head", "num_attention_heads", 1 << 16);
    c.kv_heads = c.heads;
    // n_inner null (has() is false for null) means GPT-2's 4 × n_embd.
    c.ffn = doc.has("n_inner") ? static_cast<int>(doc.integer("n_inner", 1, 1 << 22)) : 4 * c.hidden;
    c.vocabulary = static_cast<int>(doc.integer("vocab_size", 1, 1 << 24));
    c.positions = gpt2_or_common(doc, "n_positions", "max_position_embeddings", 1 << 24);
    c.sequence_length = c.positions;
    return c;
}

// Llama, Mistral and Mixtral: RMSNorm, rotary positions, grouped-query attention, SwiGLU (experts for Mixtral).
TransformerConfig llama_config(const ConfigNode& doc, bool mixture) {
    TransformerConfig c;
    c.architecture = "llama";
    c.layers = static_cast<int>(doc.integer("num_hidden_layers", 1, 100000));
    c.hidden = static_cast<int>(doc.integer("hidden_size", 1, 1 << 20));
    c.heads = static_cast<int>(doc.integer("num_attention_heads", 1, 1 << 16));
    c.kv_heads = doc.has("num_key_value_heads") ? static_cast<int>(doc.integer("num_key_value_heads", 1, c.heads)) : c.heads;
    if (c.heads % c.kv_heads != 0)
        doc.fail("num_key_value_heads", "must divide num_attention_heads (" + std::to_string(c.heads) + ")");
    c.ffn = static_cast<int>(doc.integer("intermediate_size", 1, 1 << 22));
    c.vocabulary = static_cast<int>(doc.integer("vocab_size", 1, 1 << 24));
    c.sequence_length = static_cast<int>(doc.integer("max_position_embeddings", 1, 1 << 24));
    if (mixture) {
        c.experts = static_cast<int>(doc.integer("num_local_experts", 1, 4096));
        c.top_k = static_cast<int>(doc.integer("num_experts_per_tok", 1, c.experts));
    }
    return c;
}

}  // namespace

ZooModel read_hf_config(const std::filesystem::path& path) {
    const auto source = std::make_shared<DocumentSource>(DocumentSource{path.string(), {}});
    const auto doc = ConfigNode::parse(read_text_file(path), source);
    if (!doc.is_map()) doc.fail("", "expected a Hugging Face config.json object");
    const auto type = doc.choice("model_type", {"llama", "mistral", "mixtral", "gpt2"});
    const auto config = type == "gpt2" ? gpt2_config(doc) : llama_config(doc, type == "mixtral");
    ZooModel model;
    model.name = path.parent_path().filename().string();
    if (model.name.empty() || path.stem() != "config") model.name = path.stem().string();
    model.description = "Hugging Face " + type + " config: " + std::to_string(config.layers) + " layers, hidden " +
                        std::to_string(config.hidden) + ", " + std::to_string(config.heads) + " heads";
    model.source = path.string();
    model.file = path.string();
    model.sample = "one sequence of " + std::to_string(config.sequence_length) + " tokens";
    model.layers = transformer_layers(config, config.sequence_length, Attention::flash);
    model.published_parameters = model.total_parameters();
    model.transformer = config;
    return model;
}

}  // namespace dtsim

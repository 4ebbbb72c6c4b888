#pragma once
// A Hugging Face transformers `config.json` as a zoo model: its keys give a TransformerConfig, whose layers
// follow the zoo's FLOPs and parameter rules (transformer_layers).
#include <filesystem>

#include "dtsim/model_zoo.hpp"

namespace dtsim {

/// Reads a config.json of model_type llama, mistral, mixtral or gpt2. Its sequence is
/// max_position_embeddings (n_positions for gpt2). Errors name the file, line and key.
ZooModel read_hf_config(const std::filesystem::path& path);

}  // namespace dtsim

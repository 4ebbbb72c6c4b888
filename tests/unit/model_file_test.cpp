// Models from files: the zoo's format at a path, and Hugging Face config.json converted with the zoo's rules.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/scenario.hpp"
#include "test_support.hpp"

namespace model_file_test {

using namespace dtsim;

namespace {

// The published config.json of meta-llama/Llama-2-7b-hf, keys it has that dtsim does not read included.
const char* const kLlama2_7b = R"({
  "architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2, "hidden_act": "silu",
  "hidden_size": 4096, "initializer_range": 0.02, "intermediate_size": 11008, "max_position_embeddings": 4096,
  "model_type": "llama", "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 32,
  "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": null, "tie_word_embeddings": false,
  "torch_dtype": "float16", "transformers_version": "4.31.0.dev0", "use_cache": true, "vocab_size": 32000
})";

const char* const kMixtral = R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
  "max_position_embeddings": 32768, "num_attention_heads": 32, "num_hidden_layers": 32, "num_key_value_heads": 8,
  "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 32000})";

// openai-community/gpt2: GPT-2's own key names, n_inner null (4 × n_embd).
const char* const kGpt2 = R"({"activation_function": "gelu_new", "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768,
  "n_head": 12, "n_inner": null, "n_layer": 12, "n_positions": 1024, "vocab_size": 50257})";

std::string write(const test::TempDir& dir, const std::string& name, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(dir.file(name)).parent_path());
    std::ofstream(dir.file(name)) << text;
    return dir.file(name);
}

}  // namespace

TEST_CASE("a Hugging Face config.json gives the zoo's layers, parameters and FLOPs", "[unit][zoo]") {
    test::TempDir dir;
    const auto llama = load_model(write(dir, "llama-2-7b/config.json", kLlama2_7b), "", "test");
    const auto zoo = load_zoo_model("llama2-7b", "test");
    CHECK(llama.name == "llama-2-7b");
    REQUIRE(llama.layers.size() == zoo.layers.size());
    for (std::size_t i = 0; i < zoo.layers.size(); ++i) {
        CHECK(llama.layers[i].params == zoo.layers[i].params);
        CHECK(llama.layers[i].forward_flops_per_sample == zoo.layers[i].forward_flops_per_sample);
    }
    CHECK(load_model(write(dir, "mixtral.json", kMixtral), "", "test").total_parameters() ==
          load_zoo_model("mixtral-8x7b", "test").total_parameters());
    const auto gpt2 = load_model(write(dir, "gpt2.json", kGpt2), "", "test");
    CHECK(gpt2.total_parameters() == 124439808);  // GPT-2 small's published count
    CHECK(gpt2.transformer->ffn == 4 * 768);
}

TEST_CASE("errors in a config.json name the file, line and key", "[unit][zoo]") {
    test::TempDir dir;
    const auto no_hidden = write(dir, "a.json", "{\n  \"model_type\": \"llama\",\n  \"num_hidden_layers\": 2\n}\n");
    CHECK_THROWS_WITH(load_model(no_hidden, "", "test"), Catch::Contains("a.json:") && Catch::Contains("key 'hidden_size'"));
    const auto bert = write(dir, "b.json", "{\"model_type\": \"bert\"}");
    CHECK_THROWS_WITH(load_model(bert, "", "test"), Catch::Contains("key 'model_type'") && Catch::Contains("mixtral"));
    const auto kv = write(dir, "c.json", R"({"model_type": "mistral", "hidden_size": 64, "intermediate_size": 128,
      "max_position_embeddings": 128, "num_attention_heads": 8, "num_hidden_layers": 2, "num_key_value_heads": 3,
      "vocab_size": 100})");
    CHECK_THROWS_WITH(load_model(kv, "", "test"), Catch::Contains("key 'num_key_value_heads'"));
}

TEST_CASE("model.zoo takes a model file beside the scenario, then in the working folder", "[unit][zoo][scenario]") {
    test::TempDir dir;
    write(dir, "models/mine.yaml", read_text_file(data_dir() / "models" / "resnet50.yaml"));
    const auto scenario_file = write(dir, "s.yaml",
                                     "name: s\ncluster: {nodes: 1, gpu: h100-sxm, nic: ib-ndr}\n"
                                     "model: {zoo: ./models/mine.yaml, batch_per_gpu: 8}\n"
                                     "training: {strategy: {kind: allreduce}}\n");
    const auto scenario = load_scenario_file(scenario_file);
    CHECK(scenario.model.zoo->total_parameters() == load_zoo_model("resnet50", "test").total_parameters());
    CHECK_THROWS_WITH(load_scenario_file(scenario_file, {"model.zoo=./models/nope.yaml"}),
                      Catch::Contains("key 'model.zoo'") && Catch::Contains("no such model file './models/nope.yaml'"));
    CHECK_FALSE(names_model_file("llama2-7b"));
    CHECK(names_model_file("config.json"));
    CHECK(names_model_file("./x"));
}

}  // namespace model_file_test

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "dtsim/data_paths.hpp"
#include "dtsim/model_zoo.hpp"

namespace model_zoo_test {

using namespace dtsim;

TEST_CASE("zoo parameter totals are within 1 % of the published counts", "[unit][zoo]") {
    const auto names = list_data_names("models");
    REQUIRE(names.size() >= 15);
    for (const auto& name : names) {
        const auto model = load_zoo_model(name, "test");
        // GPT-3's published sizes (Brown et al. 2020, Table 2.1) are rounded names: its own dimensions give
        // 355.9M for "350M", 1.316B for "1.3B" and 2.652B for "2.7B". Those are checked within 2 %.
        // Megatron-LM's (Narayanan et al. 2021, Table 1) are rounded to 0.1 billion: 1.652B for "1.7", 3.562B
        // for "3.6". Those are checked within 3 %.
        const double tolerance = name.rfind("gpt3-", 0) == 0 ? 0.02 : name.rfind("megatron-gpt-", 0) == 0 ? 0.03 : 0.01;
        CAPTURE(name, model.total_parameters(), model.published_parameters);
        CHECK(std::fabs(model.total_parameters() / model.published_parameters - 1) <= tolerance);
        CHECK(model.forward_flops_per_sample() > 0);
    }
}

TEST_CASE("zoo models have the well-known sizes", "[unit][zoo]") {
    CHECK(load_zoo_model("resnet50", "test").total_parameters() == 25557032);
    CHECK(load_zoo_model("vgg16", "test").total_parameters() == 138357544);
    CHECK(load_zoo_model("bert_large", "test").total_parameters() == Approx(335141888).epsilon(0.01));
    // ResNet-50 forward is about 4.1 GMACs per 224x224 image.
    CHECK(load_zoo_model("resnet50", "test").forward_flops_per_sample() == Approx(8.2e9).epsilon(0.02));
}

TEST_CASE("Llama-style and mixture-of-experts entries follow their public configurations", "[unit][zoo]") {
    // The exact checkpoint sizes (Hugging Face's parameter counts of the public weights).
    CHECK(load_zoo_model("llama2-7b", "test").total_parameters() == 6738415616);
    CHECK(load_zoo_model("llama3-8b", "test").total_parameters() == 8030261248);
    CHECK(load_zoo_model("mixtral-8x7b", "test").total_parameters() == 46702792704);
    struct Config {
        const char* name;
        double layers, d, heads, kv_heads, d_ff, vocab, tokens, experts, top_k;
    };
    const std::vector<Config> configs{{"llama2-13b", 40, 5120, 40, 40, 13824, 32000, 4096, 1, 1},
                                      {"llama2-70b", 80, 8192, 64, 8, 28672, 32000, 4096, 1, 1},
                                      {"llama3-70b", 80, 8192, 64, 8, 28672, 128256, 8192, 1, 1},
                                      {"llama3-405b", 126, 16384, 128, 8, 53248, 128256, 8192, 1, 1},
                                      {"mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000, 4096, 8, 2}};
    for (const auto& c : configs) {
        CAPTURE(c.name);
        const auto model = load_zoo_model(c.name, "test");
        // Per block: Q and O (d x d), K and V (d x d/heads·kv_heads), SwiGLU experts (3 d·d_ff each), a router
        // where there are several experts, two RMSNorm vectors; untied embedding and head, a final norm.
        const double projections = 2 * c.d * c.d + 2 * c.d * (c.d / c.heads * c.kv_heads);
        const double expert = 3 * c.d * c.d_ff;
        const double router = c.experts > 1 ? c.d * c.experts : 0;
        const double block = projections + c.experts * expert + router + 2 * c.d;
        CHECK(model.total_parameters() == c.layers * block + 2 * c.vocab * c.d + c.d);
        // Forward FLOPs: 2 per multiply-add of the projections and the top-k experts for every token, the
        // score and context matmuls over the whole sequence, and the output head; lookups cost nothing.
        const double n = c.tokens;
        const double per_block = 2 * n * (projections + c.top_k * expert + router) + 4 * n * n * c.d;
        CHECK(model.forward_flops_per_sample() == Approx(c.layers * per_block + 2 * n * c.d * c.vocab).epsilon(1e-12));
    }
}

}  // namespace model_zoo_test

// The memory model against the closed forms it comes from: the ZeRO paper's model states and Korthikanti
// et al.'s activations per transformer layer.
#include <catch2/catch.hpp>

#include "dtsim/memory_model.hpp"
#include "dtsim/scenario.hpp"

namespace memory_model_test {

using namespace dtsim;

TEST_CASE("ZeRO model states: the paper's 7.5B-parameter example on 64 GPUs", "[unit][memory]") {
    // Rajbhandari et al. 2020, Figure 1: Ψ = 7.5 B, N_d = 64, K = 12, fp16 weights and gradients.
    const double psi = 7.5e9;
    auto gb = [&](int stage) { return zero_model_states(psi, 64, stage, 2, 2, 12).total() / 1e9; };
    CHECK(gb(0) == Approx(120.0));                // (2 + 2 + K) Ψ
    CHECK(gb(1) == Approx(31.4).margin(0.05));    // 4Ψ + KΨ/N
    CHECK(gb(2) == Approx(16.6).margin(0.05));    // 2Ψ + (2 + K)Ψ/N
    CHECK(gb(3) == Approx(1.9).margin(0.05));     // (2 + 2 + K)Ψ/N
    CHECK(gb(1) == Approx(31.40625));
    CHECK(gb(2) == Approx(16.640625));
    CHECK(gb(3) == Approx(1.875));
    const auto stage2 = zero_model_states(psi, 64, 2, 2, 2, 12);
    CHECK(stage2.weights == Approx(2 * psi));
    CHECK(stage2.gradients == Approx(2 * psi / 64));
    CHECK(stage2.optimizer == Approx(12 * psi / 64));
}

TEST_CASE("an optimizer step's memory traffic per parameter: states both ways, the gradient, the weights", "[unit][memory]") {
    const OptimizerSpec adam;  // fp32 momentum and variance, and an fp32 master copy in mixed precision: K = 12
    // bf16: 2 × 12 + a 2-byte gradient + the 2-byte working copy written; a gradient reduced in fp32 is read as 4.
    CHECK(adam.step_bytes_per_parameter(Precision::bf16, 2) == 28);
    CHECK(adam.step_bytes_per_parameter(Precision::bf16, 4) == 30);
    // fp32: no master copy (K = 8), the weights read and written.
    CHECK(adam.step_bytes_per_parameter(Precision::fp32, 4) == 2 * 8 + 4 + 2 * 4);
}

TEST_CASE("activations per layer follow Korthikanti et al. 2022, Table 2", "[unit][memory]") {
    // GPT-3 175B: s = 2048, b = 1, h = 12288, a = 96, so 5·a·s/h = 80 and s·b·h = 25 165 824.
    const TransformerConfig gpt3{"gpt", 96, 12288, 96, 96, 4 * 12288, 50257, 2048, 2048, 1, 1};
    const double s = 2048, b = 1, h = 12288, sbh = s * b * h;
    CHECK(layer_activation_bytes(gpt3, s, b, 1, false, Recompute::none) == Approx(sbh * (34 + 80)));
    CHECK(layer_activation_bytes(gpt3, s, b, 1, false, Recompute::none) == Approx(2868903936.0));
    // Tensor parallelism alone leaves the layer norms, dropouts and the inputs of the first linear layers whole.
    CHECK(layer_activation_bytes(gpt3, s, b, 8, false, Recompute::none) == Approx(sbh * (10 + 24.0 / 8 + 80.0 / 8)));
    // Sequence parallelism splits the rest too: everything divided by t.
    CHECK(layer_activation_bytes(gpt3, s, b, 8, true, Recompute::none) == Approx(sbh / 8 * (34 + 80)));
    CHECK(layer_activation_bytes(gpt3, s, b, 8, true, Recompute::none) == Approx(358612992.0));
    // Selective recomputation drops the attention core (5·a·s/h).
    CHECK(layer_activation_bytes(gpt3, s, b, 8, true, Recompute::selective) == Approx(sbh / 8 * 34));
    CHECK(layer_activation_bytes(gpt3, s, b, 8, false, Recompute::selective) == Approx(sbh * (10 + 24.0 / 8)));
    // Full recomputation keeps each layer's 16-bit input only.
    CHECK(layer_activation_bytes(gpt3, s, b, 8, false, Recompute::full) == Approx(2 * sbh));
    CHECK(layer_activation_bytes(gpt3, s, b, 8, true, Recompute::full) == Approx(2 * sbh / 8));
}

TEST_CASE("a Llama layer's activations count its SwiGLU, grouped-query attention and no dropout", "[unit][memory]") {
    // Llama 3 405B: h = 16384, f = 53248 = 3.25 h, 128 heads of which 8 key/value, no dropout. Whole on each
    // tensor rank: two RMSNorm inputs (4), the inputs of QKV (2) and of the MLP (2); a t-th: queries (2), keys
    // and values (2 x 2 x 8/128), the output product's input (2), gate, up and SwiGLU outputs (3 x 2 x 3.25),
    // the softmax's output without FlashAttention (2·a·s/h).
    const TransformerConfig llama{"llama", 126, 16384, 128, 8, 53248, 128256, 0, 8192, 1, 1};
    const double s = 8192, sbh = s * 16384, split = 2 + 0.25 + 2 + 19.5;
    CHECK(layer_activation_bytes(llama, s, 1, 8, true, Recompute::selective) == Approx(sbh / 8 * (8 + split)));
    CHECK(layer_activation_bytes(llama, s, 1, 8, false, Recompute::selective) == Approx(sbh * (8 + split / 8)));
    CHECK(layer_activation_bytes(llama, s, 1, 1, false, Recompute::none) == Approx(sbh * (8 + split + 2 * 128 * s / 16384)));
    CHECK(layer_activation_bytes(llama, s, 1, 8, true, Recompute::full) == Approx(2 * sbh / 8));
    // A mixture of experts holds each token's MLP intermediates in each of its top-k experts.
    auto moe = llama;
    moe.experts = 8;
    moe.top_k = 2;
    CHECK(layer_activation_bytes(moe, s, 1, 1, false, Recompute::selective) == Approx(sbh * (8 + split + 19.5)));
}

namespace {

Scenario llama2_7b_on_8_gpus(int zero_stage) {
    return load_scenario_text("name: llama\n"
                              "cluster: {nodes: 1, gpus_per_node: 8, gpu: h100-sxm, nic: ib-ndr}\n"
                              "model: {zoo: llama2-7b, precision: bf16, micro_batch: 1, sequence_length: 4096}\n"
                              "training:\n"
                              "  strategy: {kind: allreduce}\n"
                              "  parallelism: {tensor: 1, pipeline: 1, data: auto}\n"
                              "  pipeline: {microbatches: 4}\n"
                              "  recompute: full\n"
                              "  zero: " + std::to_string(zero_stage) + "\n",
                              "llama.yaml");
}

}  // namespace

TEST_CASE("estimate_memory of Llama 2 7B on 8 GPUs: ZeRO 0 does not fit, ZeRO 3 does", "[unit][memory]") {
    const double psi = 6738415616;  // the model card's dimensions (data/models/llama2-7b.yaml)
    // bf16 weights and gradients, Adam's fp32 momentum, variance and master weights (K = 12); full
    // recomputation keeps 2·s·b·h bytes for each of the 32 layers of the one microbatch 1F1B holds
    // without a pipeline.
    const double activations = 32 * 2.0 * 4096 * 1 * 4096;
    const auto replicated = estimate_memory(llama2_7b_on_8_gpus(0));
    CHECK(replicated.states.weights == Approx(2 * psi));
    CHECK(replicated.states.gradients == Approx(2 * psi));
    CHECK(replicated.states.optimizer == Approx(12 * psi));
    CHECK(replicated.activations == Approx(activations));
    CHECK(replicated.peak() == Approx(16 * psi + activations + 2e9));
    CHECK(replicated.capacity == Approx(80e9));
    CHECK_FALSE(replicated.fits());
    CHECK(describe_fit(replicated.peak(), replicated.capacity) == "does not fit: needs 110.9 GB of 80.0 GB");

    const auto sharded = estimate_memory(llama2_7b_on_8_gpus(3));
    CHECK(sharded.states.total() == Approx(16 * psi / 8));
    CHECK(sharded.activations == Approx(activations));
    CHECK(sharded.peak() == Approx(2 * psi + activations + 2e9));
    CHECK(sharded.fits());
    CHECK(describe_fit(sharded.peak(), sharded.capacity) == "fits: 16.6 of 80.0 GB");
}

namespace {

// Llama 2 7B (32 layers) over 4 pipeline stages, 8 microbatches, full recomputation (2·s·b·h per layer).
MemoryEstimate pipelined_llama2_7b(const std::string& pipeline) {
    return estimate_memory(load_scenario_text("name: llama\n"
                                              "cluster: {nodes: 1, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}\n"
                                              "model: {zoo: llama2-7b, precision: bf16, micro_batch: 1, sequence_length: 4096}\n"
                                              "training:\n"
                                              "  strategy: {kind: allreduce}\n"
                                              "  parallelism: {tensor: 1, pipeline: 4, data: auto}\n"
                                              "  pipeline: {microbatches: 8, " + pipeline + "}\n"
                                              "  recompute: full\n",
                                              "llama.yaml"));
}

}  // namespace

TEST_CASE("the first pipeline stage holds L layers' activations in 1F1B and L(1 + (p-1)/(pv)) interleaved", "[unit][memory]") {
    // Korthikanti et al. 2022 §4.2.3: 1F1B's first stage holds p microbatches of its L/p layers; interleaving
    // v chunks, its 2(p − 1) + (v − 1)p + 1 warm-up chunks of L/(pv) layers.
    const double layer = 2.0 * 4096 * 1 * 4096;
    CHECK(pipelined_llama2_7b("schedule: 1f1b").activations == Approx(32 * layer));
    CHECK(pipelined_llama2_7b("schedule: interleaved-1f1b, virtual_stages: 2").activations == Approx(32 * (1 + 3.0 / 8) * layer));
    CHECK(pipelined_llama2_7b("schedule: interleaved-1f1b, virtual_stages: 4").activations == Approx(32 * (1 + 3.0 / 16) * layer));
    CHECK(pipelined_llama2_7b("schedule: gpipe").activations == Approx(8 * 8 * layer));
}

}  // namespace memory_model_test

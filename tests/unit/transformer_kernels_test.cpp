// A transformer block's kernels against closed forms: the FLOPs they run add up to the model FLOPs (less
// the causal half FlashAttention skips), the memory traffic of a GPT block is the sum of its kernels' reads
// and writes, each kernel's time is its roofline, and tensor parallelism divides what it should.
#include <algorithm>

#include <catch2/catch.hpp>

#include "dtsim/compute_model.hpp"
#include "dtsim/llm_costs.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/scenario.hpp"

namespace transformer_kernels_test {

using namespace dtsim;

namespace {

double kernel_sum(const ZooLayer& layer, double Kernel::*field) {
    double sum = 0;
    for (const auto& kernel : layer.kernels) sum += kernel.*field;
    return sum;
}

bool is_attention(const ZooLayer& layer) { return layer.name.ends_with(".attn"); }

}  // namespace

TEST_CASE("kernel FLOPs add up to the model FLOPs; FlashAttention skips the causal half", "[unit][llm][kernels]") {
    for (const char* name : {"gpt3-175b", "llama3-8b", "mixtral-8x7b"}) {
        const auto config = *load_zoo_model(name, "test").transformer;
        const double n = config.sequence_length, attention_flops = 4 * n * n * config.hidden;
        const auto standard = transformer_layers(config, config.sequence_length, Attention::standard);
        const auto flash = transformer_layers(config, config.sequence_length, Attention::flash);
        REQUIRE(standard.size() == flash.size());
        for (size_t i = 1; i < standard.size(); ++i) {
            CAPTURE(name, standard[i].name);
            CHECK(kernel_sum(standard[i], &Kernel::flops) == Approx(standard[i].forward_flops_per_sample));
            const double skipped = is_attention(flash[i]) ? attention_flops / 2 : 0;
            CHECK(kernel_sum(flash[i], &Kernel::flops) == Approx(flash[i].forward_flops_per_sample - skipped));
        }
    }
}

TEST_CASE("a GPT block moves its activations, its weights and, without FlashAttention, its scores", "[unit][llm][kernels]") {
    const double h = 1024, a = 16, f = 4096, n = 512;
    const TransformerConfig config{"gpt", 1, 1024, 16, 16, 4096, 1000, 512, 512, 1, 1};
    const auto layers = transformer_layers(config, 512, Attention::standard);
    const auto& attn = layers[1];
    const auto& mlp = layers[2];
    // Attention: LayerNorm 2h, QKV h + 3h, scores (reads q and k) 2h, output 2h, projection 2h, bias-dropout-add
    // 3.5h per token; scores a·n² written, softmax 2, dropout 2.5, read by the context product 1.
    CHECK(kernel_sum(attn, &Kernel::elements) == Approx(n * (2 + 4 + 2 + 2 + 2 + 3.5) * h + 6.5 * a * n * n));
    CHECK(kernel_sum(attn, &Kernel::weight_elements) == Approx(4 * h * h));
    // MLP: LayerNorm 2h, fc1 h + f, GeLU 2f, fc2 f + h, bias-dropout-add 3.5h.
    CHECK(kernel_sum(mlp, &Kernel::elements) == Approx(n * (2 * h + h + f + 2 * f + f + h + 3.5 * h)));
    CHECK(kernel_sum(mlp, &Kernel::weight_elements) == Approx(2 * h * f));
    // FlashAttention: no scores in memory.
    const auto flash = transformer_layers(config, 512, Attention::flash);
    CHECK(kernel_sum(flash[1], &Kernel::elements) == Approx(n * (2 + 4 + 4 + 2 + 3.5) * h));
}

TEST_CASE("a kernel takes its roofline, forward and backward", "[unit][llm][kernels]") {
    const ComputeRates rates{100e12, 1e12, 5e-6, 100e12};
    const Kernel product{KernelKind::gemm, 1e9, 1e3, 1e6, 2, true};  // compute-bound: 1e9 FLOPs per sample
    const Kernel norm{KernelKind::memory, 0, 4e6, 0, 2, false};        // memory-bound: 4e6 elements per sample
    const double batch = 4, bytes = 2;
    CHECK(kernel_forward_s(product, batch, bytes, rates) == Approx(4e9 / 100e12));
    CHECK(kernel_forward_s(norm, batch, bytes, rates) == Approx(4 * 4e6 * 2 / 1e12));
    Kernel flash = product;
    flash.backward_factor = 2.5;
    const auto pass = kernel_times({product, norm, flash}, batch, bytes, rates);
    CHECK(pass.forward_s == Approx(2 * 4e-5 + 3.2e-5));
    CHECK(pass.backward_s == Approx(2 * 4e-5 + 2 * 3.2e-5 + 2.5 * 4e-5));
    // A layer with kernels pays the fixed cost once per pass.
    ZooModel model;
    model.layers.push_back(ZooLayer{"block", 1, 0, 1, {product, norm, flash}});
    const auto work = layer_times(model, 4, Precision::bf16, rates);
    CHECK(work[0].forward_s == Approx(pass.forward_s + 5e-6));
    CHECK(work[0].backward_s == Approx(pass.backward_s + 10e-6));
}

TEST_CASE("attention's core runs at the attention rate, FlashAttention's at s / (s + 512) of it", "[unit][llm][kernels]") {
    // A Llama block of hidden d = 256, 4 heads and 4 kv heads over n = 1024 tokens, one sequence, 2-byte elements.
    const double d = 256, kv = 256, n = 1024, bytes = 2;
    const TransformerConfig config{"llama", 1, 256, 4, 4, 512, 1000, 0, 1024, 1, 1};
    const ComputeRates rates{100e12, 1e12, 5e-6, 40e12};
    const auto flash = transformer_layers(config, 1024, Attention::flash);
    const auto& attn = flash.at(1);
    REQUIRE(attn.name == "block0.attn");
    // Compute-bound products at the GEMM rate: QKV (2·n·d·(d + 2kv)) and the output projection (2·n·d²).
    const double gemm_s = (2 * n * d * (d + 2 * kv) + 2 * n * d * d) / 100e12;
    // Memory-bound: RMSNorm 2d, rotary 2(d + kv), residual add 3d elements per token.
    const double memory_s = n * (2 * d + 2 * (d + kv) + 3 * d) * bytes / 1e12;
    // FlashAttention: the causal half of QK^T and PV (2·n²·d) and its per-query-block work, 512 tokens' worth.
    const double core_s = 2 * n * n * d * (1 + 512 / n) / 40e12;
    ZooModel model;
    model.layers = {attn};
    const auto work = layer_times(model, 1, Precision::bf16, rates);
    CHECK(work[0].forward_s == Approx(gemm_s + memory_s + core_s + 5e-6).epsilon(1e-12));
    CHECK(work[0].backward_s == Approx(2 * gemm_s + 2 * memory_s + 2.5 * core_s + 10e-6).epsilon(1e-12));
    // Its achieved rate over the causal FLOPs grows with the sequence towards the attention rate.
    for (int tokens : {512, 2048, 8192}) {
        const auto layers = transformer_layers(config, tokens, Attention::flash);
        for (const auto& kernel : layers.at(1).kernels)
            if (kernel.kind == KernelKind::attention_core)
                CHECK(kernel.flops / kernel_forward_s(kernel, 1, bytes, rates) == Approx(40e12 * tokens / (tokens + 512.0)));
    }
    // Standard attention's products run at the attention rate too, without the overhead.
    const auto standard = transformer_layers(config, 1024, Attention::standard);  // kept: the loop reads into it
    for (const auto& kernel : standard.at(1).kernels)
        if (kernel.kind == KernelKind::attention_core && kernel.flops > 0) {
            CHECK(kernel.overhead_flops == 0);
            CHECK(kernel_forward_s(kernel, 1, bytes, rates) == Approx(std::max(kernel.flops / 40e12, kernel.elements * bytes / 1e12)));
        }
}

TEST_CASE("tensor parallelism halves a block's kernels; without sequence parallelism normalisations stay whole", "[unit][llm][kernels]") {
    const auto block_forward_s = [](int tensor, bool sp) {
        const std::string text = "name: gpt\ncluster: {nodes: 1, gpus_per_node: 2, gpu: h100-sxm, nic: ib-ndr}\n"
                                 "model: {zoo: gpt3-1.3b, precision: bf16, micro_batch: 1}\n"
                                 "training:\n  strategy: {kind: allreduce}\n  parallelism: {tensor: " +
                                 std::to_string(tensor) + ", sequence_parallel: " + (sp ? "true" : "false") + "}\n";
        const auto scenario = load_scenario_text(text, "gpt.yaml");
        const ComputeRates rates{500e12, 2e12, 0, 500e12};
        const auto costs = llm_costs(scenario, rates);  // kept: the stage below is a reference into it
        const auto& stage = costs.virtual_stages.at(0);
        return stage.at(1).forward_s + stage.at(2).forward_s;  // block 0: attention and MLP
    };
    const double whole = block_forward_s(1, false);
    CHECK(block_forward_s(2, true) == Approx(whole / 2));
    CHECK(block_forward_s(2, false) > whole / 2 * 1.001);
    CHECK(block_forward_s(2, false) < whole);
}

}  // namespace transformer_kernels_test

// A GEMM's shape against closed forms: the reference GEMM keeps the preset's efficiency exactly, whole
// waves of whole tiles lose only the reference's own waste, one tile past a full wave costs a second wave,
// a short depth pays each tile's fixed work, backward runs its two products at their own shapes, and
// tensor parallelism narrows the columns of column-parallel GEMMs and the depth of row-parallel ones.
#include <catch2/catch.hpp>

#include "dtsim/compute_model.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/gemm_shape.hpp"
#include "dtsim/llm_costs.hpp"
#include "dtsim/scenario.hpp"

namespace gemm_shape_test {

using namespace dtsim;

namespace {

// 8192² in 256 × 128 tiles is 2048 tiles; on 108 SMs that is 19 waves, 2052 slots.
constexpr double kA100ReferenceUse = 2048.0 / 2052.0;
constexpr double kReferenceDepthUse = 8192.0 / (8192.0 + 256.0);

// A compute-bound GEMM of `shape` (rows per sample), nothing else to time.
Kernel shaped_gemm(GemmShape shape) {
    Kernel kernel{KernelKind::gemm, 2 * shape.rows * shape.columns * shape.depth, 0, 0, 2, true};
    kernel.shape = shape;
    return kernel;
}

}  // namespace

TEST_CASE("the reference GEMM keeps the preset's efficiency on every GPU", "[unit][gemm]") {
    for (int sms : {80, 108, 132, 148}) CHECK(gemm_shape_factor(kReferenceGemm, sms) == 1.0);
    CHECK(gemm_tile_utilisation(kReferenceGemm, 108) == Approx(kA100ReferenceUse * kReferenceDepthUse).epsilon(1e-12));
    // No SM count (a CPU preset) or no shape: the rate as it is.
    CHECK(gemm_shape_factor(GemmShape{100, 100, 100}, 0) == 1.0);
    CHECK(gemm_shape_factor(GemmShape{}, 108) == 1.0);
}

TEST_CASE("whole waves of whole tiles lose nothing but the reference's own waste", "[unit][gemm]") {
    // 108 tiles of 256 × 128 (rows 256·12, columns 128·9): one full wave, at the reference depth.
    CHECK(gemm_shape_factor(GemmShape{256 * 12, 128 * 9, 8192}, 108) == Approx(1 / kA100ReferenceUse).epsilon(1e-12));
    // Four full waves in the other orientation (128 × 256 tiles: 27 × 16 = 432 = 4 · 108).
    CHECK(gemm_shape_factor(GemmShape{128 * 27, 256 * 16, 8192}, 108) == Approx(1 / kA100ReferenceUse).epsilon(1e-12));
    // A short depth pays each tile's fixed work: depth / (depth + 256) against the reference's.
    CHECK(gemm_shape_factor(GemmShape{256 * 12, 128 * 9, 768}, 108) ==
          Approx(768.0 / 1024.0 / kReferenceDepthUse / kA100ReferenceUse).epsilon(1e-12));
}

TEST_CASE("one tile more than a full wave costs a second wave", "[unit][gemm]") {
    const ComputeRates rates{100e12, 1e30, 0, 100e12, 108};
    // 109 tiles (rows 256·109, one 128-column tile) take as long as 216, two full waves.
    const double one_over = kernel_forward_s(shaped_gemm(GemmShape{256 * 109, 128, 8192}), 1, 2, rates);
    const double two_full = kernel_forward_s(shaped_gemm(GemmShape{256 * 216, 128, 8192}), 1, 2, rates);
    CHECK(one_over == Approx(two_full).epsilon(1e-12));
    // 108 tiles take half as long.
    CHECK(kernel_forward_s(shaped_gemm(GemmShape{256 * 108, 128, 8192}), 1, 2, rates) == Approx(two_full / 2).epsilon(1e-12));
    // The batch multiplies the rows: two samples of 256·54 rows are the 108-tile GEMM.
    const auto half = shaped_gemm(GemmShape{256 * 108 / 2, 128, 8192});
    CHECK(kernel_forward_s(half, 2, 2, rates) == Approx(two_full / 2).epsilon(1e-12));
}

TEST_CASE("a dimension shorter than a tile runs in a tile cut to it, in steps of 16", "[unit][gemm]") {
    // One output column over 2048 rows on 132 SMs: 2048/128 = 16 tiles of 128 × 16, split in ⌊132/16⌋ = 8
    // slices of depth 1024 (the better orientation than 8 tiles of 256 × 16 in 16 slices of 512): 8 · 2048
    // useful outputs of 132 · 128 · 16 slots, each slice paying the fixed depth once.
    const double use = 8 * 2048.0 / (132 * 128 * 16) * 1024 / (1024 + kGemmTileFixedDepth);
    CHECK(gemm_tile_utilisation(GemmShape{2048, 1, 8192}, 132) == Approx(use).epsilon(1e-12));
    CHECK(gemm_shape_factor(GemmShape{2048, 1, 8192}, 132) ==
          Approx(use / gemm_tile_utilisation(kReferenceGemm, 132)).epsilon(1e-12));
}

TEST_CASE("fewer tiles than SMs split the depth over the idle SMs", "[unit][gemm]") {
    // A weight gradient of 256 × 256 outputs over 2^20 rows on 108 SMs: 2 tiles of 256 × 128, 54 slices each,
    // one full wave, each slice over 2^20 / 54 of the depth.
    const double depth = 1 << 20, slice = depth / 54;
    CHECK(gemm_tile_utilisation(GemmShape{256, 256, depth}, 108) == Approx(slice / (slice + kGemmTileFixedDepth)).epsilon(1e-12));
    // As many tiles as SMs or more: no split, whatever the depth.
    CHECK(gemm_tile_utilisation(GemmShape{256 * 12, 128 * 9, depth}, 108) ==
          Approx(depth / (depth + kGemmTileFixedDepth)).epsilon(1e-12));
    // A split never loses against running the few tiles alone: 3 tiles → 36 slices.
    const double alone = 3.0 / 108 * depth / (depth + kGemmTileFixedDepth);
    CHECK(gemm_tile_utilisation(GemmShape{768, 128, depth}, 108) > 30 * alone);
}

TEST_CASE("a shaped GEMM's backward runs the input- and weight-gradient products at their own shapes", "[unit][gemm]") {
    const ComputeRates rates{100e12, 1e30, 0, 100e12, 108};
    const GemmShape forward{2048, 1024, 4096};
    const auto kernel = shaped_gemm(forward);
    const double flops = kernel.flops;
    const auto at = [&](GemmShape shape) { return flops / (100e12 * gemm_shape_factor(shape, 108)); };
    CHECK(kernel_forward_s(kernel, 1, 2, rates) == Approx(at(forward)).epsilon(1e-12));
    CHECK(kernel_backward_s(kernel, 1, 2, rates) ==
          Approx(at(GemmShape{2048, 4096, 1024}) + at(GemmShape{4096, 1024, 2048})).epsilon(1e-12));
    // Without an SM count the backward is twice the forward, as for any kernel.
    const ComputeRates flat{100e12, 1e30, 0, 100e12, 0};
    CHECK(kernel_backward_s(kernel, 1, 2, flat) == Approx(2 * kernel_forward_s(kernel, 1, 2, flat)));
}

TEST_CASE("tensor parallelism narrows column-parallel GEMMs' columns and row-parallel GEMMs' depth", "[unit][gemm][llm]") {
    // GPT-3 1.3B (hidden 2048, ffn 8192) at t = 8, one sequence of 2048 tokens: fc1 is 2048 × 1024 over
    // depth 2048, fc2 2048 × 2048 over depth 1024. Memory is free, so the MLP is its two GEMMs.
    const std::string text = "name: gpt\ncluster: {nodes: 1, gpus_per_node: 8, gpu: a100-sxm, nic: ib-hdr}\n"
                             "model: {zoo: gpt3-1.3b, precision: bf16, micro_batch: 1}\n"
                             "training:\n  strategy: {kind: allreduce}\n  parallelism: {tensor: 8, sequence_parallel: true}\n";
    const auto scenario = load_scenario_text(text, "gpt.yaml");
    CHECK(CostModel(scenario).compute().streaming_multiprocessors == 108);
    const double rate = 200e12;
    const auto costs = llm_costs(scenario, ComputeRates{rate, 1e30, 0, rate, 108});
    const double s = 2048, h = 2048, f = 8192 / 8;
    const double gemm_flops = 2 * s * h * f;
    const double fc1_s = gemm_flops / (rate * gemm_shape_factor(GemmShape{s, f, h}, 108));
    const double fc2_s = gemm_flops / (rate * gemm_shape_factor(GemmShape{s, h, f}, 108));
    REQUIRE(costs.virtual_stages.at(0).at(2).name == "block0.mlp");
    CHECK(costs.virtual_stages.at(0).at(2).forward_s == Approx(fc1_s + fc2_s).epsilon(1e-9));
    CHECK(fc2_s > fc1_s);  // the shorter depth
}

}  // namespace gemm_shape_test

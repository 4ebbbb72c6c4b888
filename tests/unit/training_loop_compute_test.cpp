// Training-loop features that change the per-GPU compute: batch size, precision, activation
// checkpointing and gradient accumulation, as the scenario loader turns them into layer times.
#include <catch2/catch.hpp>

#include "dtsim/compute_model.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/hardware.hpp"
#include "dtsim/model_zoo.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/run_metrics.hpp"

namespace training_loop_compute_test {

using namespace dtsim;

namespace {

Scenario zoo_scenario(const std::string& zoo, int batch, const std::string& extra_model_keys = "",
                      const std::string& profile = "") {
    const std::string text = "name: loop\n" + (profile.empty() ? "" : "profile: " + profile + "\n") +
                             "cluster: {nodes: 1, gpu: h100-sxm, nic: ib-ndr}\n"
                             "model: {zoo: " + zoo + ", batch_per_gpu: " + std::to_string(batch) + extra_model_keys +
                             "}\ntraining: {strategy: {kind: allreduce}}\n";
    return load_scenario_text(text, "loop.yaml");
}

double step_s(const Scenario& scenario) {
    const CostModel costs(scenario);
    return costs.forward_s() + costs.backward_s();
}

}  // namespace

TEST_CASE("a preset's layer time is the GEMM curve with the launch overhead as its intercept", "[unit][compute]") {
    ZooModel model;
    model.layers = {{"fc", 1e6, 2e9, 1000}};
    const ComputeRates rates{1e12, 1e12, kKernelLaunchOverheadS};
    for (int batch : {1, 8, 64}) {
        const auto layers = layer_times(model, batch, Precision::fp32, rates);
        // Compute-bound here: memory moves (batch × 1000 + 1e6) × 4 bytes at 1 TB/s, far less than the FLOPs take.
        const double expected = batch * 2e9 / 1e12 + 5e-6;
        CHECK(layers[0].forward_s == Approx(expected).epsilon(1e-12));
        CHECK(layers[0].backward_s == Approx(2 * expected).epsilon(1e-12));
    }
    // The scenario loader uses exactly these rates for a preset: peak × GEMM efficiency, 5 µs, and its SMs for
    // the convolutions' shapes.
    const auto scenario = zoo_scenario("resnet50", 16, ", precision: bf16");
    const auto gpu = load_gpu_preset("h100-sxm", "test");
    const double gemm = gpu.peak_for(Precision::bf16, "test") * gpu.gemm_efficiency;
    const ComputeRates preset{gemm, gpu.memory_bytes_per_second * gpu.memory_efficiency, 5e-6,
                              gemm * gpu.attention_efficiency / gpu.gemm_efficiency, gpu.streaming_multiprocessors};
    const auto expected = layer_times(load_zoo_model("resnet50", "test"), 16, Precision::bf16, preset);
    const CostModel costs(scenario);
    const auto& layers = costs.layers();
    REQUIRE(layers.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) CHECK(layers[i].forward_s == expected[i].forward_s);
}

TEST_CASE("time per sample falls with the batch until the GPU saturates, never rising", "[unit][compute]") {
    const auto profile = GENERATE(std::string(""), std::string("dgx-h100.datasheet"));
    const auto zoo = GENERATE(std::string("resnet50"), std::string("vgg16"), std::string("gpt3-125m"));
    CAPTURE(profile, zoo);
    double previous = 0;
    double first = 0;
    int batch = 1;
    for (; batch <= 4096; batch *= 2) {
        const double per_sample = step_s(zoo_scenario(zoo, batch, ", precision: fp16", profile)) / batch;
        if (batch == 1) first = per_sample;
        if (batch > 1) CHECK(per_sample <= previous * (1 + 1e-12));
        previous = per_sample;
    }
    // Small batches under-use the GPU: batch 1 costs markedly more per sample than the saturated batch.
    CHECK(first > 1.05 * previous);
}

TEST_CASE("mixed precision changes compute time and gradient bytes", "[unit][compute]") {
    const auto fp32 = zoo_scenario("resnet50", 64, ", precision: fp32");
    const auto fp16 = zoo_scenario("resnet50", 64, ", precision: fp16");
    const auto bf16 = zoo_scenario("resnet50", 64, ", precision: bf16");
    const auto zoo = load_zoo_model("resnet50", "test");
    CHECK(CostModel(fp32).gradient_bytes() == Approx(4 * zoo.total_parameters()));
    CHECK(CostModel(fp16).gradient_bytes() == Approx(2 * zoo.total_parameters()));
    CHECK(CostModel(bf16).gradient_bytes() == Approx(2 * zoo.total_parameters()));
    // H100: 989 TFLOPS in fp16 Tensor Cores against 67 in fp32 (§6.1), and half the bytes moved: the
    // memory-bound kernels gain 2×, the compute-bound ones up to the peaks' ratio, so the step gains between.
    CHECK(step_s(fp16) < step_s(fp32) / 2);
    CHECK(step_s(fp16) > step_s(fp32) * 67 / 989);
    CHECK(step_s(bf16) == Approx(step_s(fp16)));
    // With a profile, the precision picks its GEMM fit.
    const auto fitted32 = zoo_scenario("resnet50", 64, ", precision: fp32", "dgx-h100.datasheet");
    const auto fitted16 = zoo_scenario("resnet50", 64, ", precision: fp16", "dgx-h100.datasheet");
    CHECK(CostModel(fitted16).compute().flops_per_second == Approx(791.2e12));
    CHECK(CostModel(fitted32).compute().flops_per_second == Approx(53.6e12));
    CHECK(step_s(fitted16) < step_s(fitted32));
}

TEST_CASE("activation checkpointing recomputes a fraction of the forward in backward", "[unit][compute]") {
    const std::string direct = "name: ckpt\ncluster: {nodes: 1, gpu: h100-sxm, nic: ib-ndr}\n"
                               "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 8, "
                               "layers: 10}\ntraining: {strategy: {kind: allreduce}}\n";
    const auto value = GENERATE(std::string("false"), std::string("0.25"), std::string("true"), std::string("1"));
    CAPTURE(value);
    const double c = value == "false" ? 0 : value == "0.25" ? 0.25 : 1;
    const auto scenario = load_scenario_text(direct, "ckpt.yaml", {"model.activation_checkpointing=" + value});
    CHECK(scenario.model.recompute_fraction == c);
    const CostModel costs(scenario);
    CHECK(costs.forward_s() == Approx(0.030));
    CHECK(costs.backward_s() == Approx(0.060 + c * 0.030));
    for (const auto& layer : costs.layers()) CHECK(layer.backward_s == Approx(0.006 + c * 0.003));

    // A zoo model: every layer's backward is twice its forward plus the recomputed share.
    const auto plain = zoo_scenario("bert_large", 8);
    const auto checkpointed = zoo_scenario("bert_large", 8, ", activation_checkpointing: " + value);
    const CostModel plain_costs(plain), checkpointed_costs(checkpointed);
    const auto& plain_layers = plain_costs.layers();
    for (size_t i = 0; i < plain_layers.size(); ++i)
        CHECK(checkpointed_costs.layers()[i].backward_s ==
              Approx(plain_layers[i].backward_s + c * plain_layers[i].forward_s).epsilon(1e-12));
}

TEST_CASE("gradient accumulation counts every micro-batch's samples and compute", "[unit][compute]") {
    const std::string text = "name: accumulate\ncluster: {nodes: 1, gpu: h100-sxm, nic: ib-ndr}\n"
                             "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 8}\n"
                             "training: {strategy: {kind: allreduce}}\n";
    CHECK(load_scenario_text(text, "a.yaml").training.accumulation_steps == 1);
    const auto scenario = load_scenario_text(text, "a.yaml", {"training.accumulation_steps=4"});
    CHECK(scenario.training.accumulation_steps == 4);
    CHECK(scenario.samples_per_gpu_iteration() == 32);
    CHECK(CostModel(scenario).single_gpu_iteration_s() == Approx(4 * 0.090));
}

}  // namespace training_loop_compute_test

// Closed forms of the LLM layouts with the ideal network and links so fast that communication costs
// nothing: pipeline bubbles, tensor-parallel collective counts, ZeRO-3's traffic, and a degenerate layout
// that is plain data parallelism. The model is a uniform test transformer (tiny vocabulary, so that the
// embeddings and output head add almost nothing to the first and last stage).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "dtsim/data_paths.hpp"
#include "dtsim/model_zoo.hpp"
#include "test_support.hpp"

namespace llm_closed_form_test {

using namespace dtsim;

namespace {

constexpr int kBlocks = 16;

// A data folder with the repository's hardware and one uniform transformer, "uniform-test".
class UniformModelData {
public:
    UniformModelData() {
        const auto data = test::source_dir() / "data";
        std::filesystem::create_directory(dir_.path() / "models");
        std::filesystem::create_directory_symlink(data / "hardware", dir_.path() / "hardware");
        std::filesystem::create_directory_symlink(data / "profiles", dir_.path() / "profiles");
        TransformerConfig config{"gpt", kBlocks, 8192, 64, 64, 32768, 1, 1, 2048, 1, 1};
        std::ofstream out(dir_.path() / "models" / "uniform-test.yaml");
        out << "name: uniform-test\ndescription: test\nsource: test\nsample: one sequence of 2048 tokens\n"
               "published_parameters: 1\ntransformer: {architecture: gpt, layers: " << kBlocks << ", hidden: 8192, heads: 64, kv_heads: 64, "
               "ffn: 32768, vocabulary: 1, positions: 1, sequence_length: 2048}\nlayers:\n";
        for (const auto& layer : transformer_layers(config, 2048, Attention::standard))
            out << "  - {name: " << layer.name << ", params: " << layer.params << ", flops: " << layer.forward_flops_per_sample
                << ", activations: " << layer.activations_per_sample << "}\n";
        out.close();
        setenv("DTSIM_DATA_DIR", dir_.path().c_str(), 1);
    }
    ~UniformModelData() { unsetenv("DTSIM_DATA_DIR"); }

private:
    test::TempDir dir_;
};

std::string scenario_text(int gpus, const std::string& model_extra, const std::string& training, const std::string& fidelity,
                          int iterations = 1) {
    return "name: llm\ncluster: {nodes: " + std::to_string(gpus) +
           ", gpus_per_node: 1, gpu: h100-sxm, intra_node: {bandwidth: 100Tbps, latency: 0us},"
           " nic: {bandwidth: 100Tbps, latency: 0us}, network_model: ideal}\n"
           "model: {zoo: uniform-test, precision: bf16" + model_extra + "}\n"
           "training:\n  iterations: " + std::to_string(iterations) + "\n  fidelity: " + fidelity + "\n  strategy: {kind: allreduce, bucket: 1GB}\n" + training;
}

Run simulate(const std::string& text) { return test::simulate_in_child(load_scenario_text(text, "llm.yaml")); }

// Over every iteration, or over `iteration` only.
double total(const Run& run, int rank, const std::string& name, bool bytes = false, int iteration = -1) {
    double sum = 0;
    for (const auto& span : run.spans)
        if (span.rank == rank && span.name == name && (iteration < 0 || span.iteration == iteration))
            sum += bytes ? span.bytes : span.end_s - span.start_s;
    return sum;
}

int count(const Run& run, int rank, const std::string& name) {
    int n = 0;
    for (const auto& span : run.spans) n += span.rank == rank && span.name == name;
    return n;
}

}  // namespace

TEST_CASE("pipeline bubbles match (P-1)/(m+P-1), and (P-1)/(v·m+P-1) interleaved", "[integration][llm][closed-form]") {
    const UniformModelData data;
    const auto [schedule, stages, microbatches, chunks] = GENERATE(table<std::string, int, int, int>(
        {{"gpipe", 4, 8, 1}, {"1f1b", 4, 8, 1}, {"1f1b", 2, 5, 1}, {"interleaved-1f1b", 2, 4, 2}, {"interleaved-1f1b", 4, 8, 2}, {"interleaved-1f1b", 4, 16, 4}}));
    CAPTURE(schedule, stages, microbatches, chunks);
    const auto run = simulate(scenario_text(stages, ", micro_batch: 1",
                                            "  parallelism: {pipeline: " + std::to_string(stages) + "}\n  pipeline: {schedule: " +
                                                schedule + ", virtual_stages: " + std::to_string(chunks) +
                                                ", microbatches: " + std::to_string(microbatches) + "}\n",
                                            "step", 2));
    // The second iteration (the summary's): a middle stage's passes, each microbatch's forward and backward
    // over its share of the blocks. The first iteration has no previous one whose end overlaps its start.
    const int stage = 1, second = 1;
    const double pass_s = (total(run, stage, "forward", false, second) + total(run, stage, "backward", false, second)) / microbatches / chunks;
    const double iteration = run.summary.iteration_time_s - total(run, stage, "optimizer", false, second);
    const double expected = (chunks * microbatches + stages - 1) * pass_s;
    CHECK(iteration == Approx(expected).epsilon(0.005));
    // Every stage waits for its neighbours as long: a later stage starts later and ends earlier. (The first
    // stage's embeddings and the last one's output head make them slightly slower than the others, which
    // the others then wait for: within 0.2 % of the iteration.)
    const double bubble = (stages - 1.0) / (chunks * microbatches + stages - 1.0);
    for (int s = 0; s < stages; ++s) {
        CAPTURE(s);
        CHECK(total(run, s, "pipeline bubble", false, second) / iteration == Approx(bubble).margin(0.002).epsilon(0));
    }
}

TEST_CASE("tensor parallelism runs 4 collectives per layer and microbatch, 2 with each pass", "[integration][llm][closed-form]") {
    const UniformModelData data;
    const auto sp = GENERATE(false, true);
    // Full recomputation runs each layer's forward again in backward, its collectives with it: 6.
    const auto recompute = GENERATE(as<std::string>{}, "none", "full");
    CAPTURE(sp, recompute);
    const auto run = simulate(scenario_text(4, ", micro_batch: 1",
                                            std::string("  parallelism: {tensor: 2, pipeline: 2, sequence_parallel: ") +
                                                (sp ? "true" : "false") + "}\n  pipeline: {microbatches: 4}\n  recompute: " +
                                                recompute + "\n",
                                            "step"));
    const int expected = (recompute == "full" ? 6 : 4) * (kBlocks / 2) * 4;
    for (int rank = 0; rank < 4; ++rank) CHECK(count(run, rank, sp ? "tp reduce-scatter" : "tp allreduce") == expected);
}

TEST_CASE("ZeRO-3 moves 3Ψ per rank and iteration, plain data parallelism 2Ψ", "[integration][llm][closed-form]") {
    const UniformModelData data;
    const auto fidelity = GENERATE(std::string("step"), std::string("flow"));
    const auto zero0 = simulate(scenario_text(4, ", micro_batch: 1", "  zero: 0\n", fidelity));
    const auto zero3 = simulate(scenario_text(4, ", micro_batch: 1", "  zero: 3\n", fidelity));
    const double psi = load_zoo_model("uniform-test", "test").total_parameters() * 2;  // bf16 bytes
    for (int rank = 0; rank < 4; ++rank) {
        // An all-reduce is a reduce-scatter and an all-gather of its bytes.
        CHECK(2 * total(zero0, rank, "dp allreduce", true) == Approx(2 * psi));
        CHECK(total(zero3, rank, "dp allgather", true) + total(zero3, rank, "dp reduce-scatter", true) == Approx(3 * psi));
    }
}

TEST_CASE("gradients reduced in fp32 move twice their bf16 bytes, every microbatch from ZeRO-2 on; gathers stay bf16", "[integration][llm][closed-form]") {
    const UniformModelData data;
    const auto fidelity = GENERATE(std::string("step"), std::string("flow"));
    const auto in_fp32 = [&](const std::string& training) {
        auto text = scenario_text(4, ", micro_batch: 1", training, fidelity);
        text.replace(text.find("bucket: 1GB}"), 12, "bucket: 1GB, reduce_precision: fp32}");
        return simulate(text);
    };
    const auto zero0 = in_fp32("  zero: 0\n");
    const auto zero2 = in_fp32("  zero: 2\n  pipeline: {microbatches: 3}\n");
    const auto zero3 = in_fp32("  zero: 3\n");
    const double psi = load_zoo_model("uniform-test", "test").total_parameters() * 2;  // bf16 bytes
    for (int rank = 0; rank < 4; ++rank) {
        CHECK(total(zero0, rank, "dp allreduce", true) == Approx(2 * psi));
        CHECK(total(zero2, rank, "dp reduce-scatter", true) == Approx(3 * 2 * psi));
        CHECK(total(zero2, rank, "dp allgather", true) == Approx(psi));
        CHECK(total(zero3, rank, "dp reduce-scatter", true) == Approx(2 * psi));
        CHECK(total(zero3, rank, "dp allgather", true) == Approx(2 * psi));
    }
}

TEST_CASE("a layout of one stage and one tensor rank is data parallelism plus its optimizer step", "[integration][llm][closed-form]") {
    const UniformModelData data;
    const auto fidelity = GENERATE(std::string("step"), std::string("flow"));
    auto plain = scenario_text(4, ", batch_per_gpu: 1", "  accumulation_steps: 3\n", fidelity);
    // With real links: the data-parallel all-reduces take time and overlap the last backward.
    const std::string fast_links = "{bandwidth: 100Tbps, latency: 0us}";
    const std::string real_links = "{bandwidth: 100Gbps, latency: 5us}";
    for (auto at = plain.find(fast_links); at != std::string::npos; at = plain.find(fast_links))
        plain.replace(at, fast_links.size(), real_links);
    auto layout = plain;
    layout.replace(layout.find("  accumulation_steps: 3\n"), 24, "  parallelism: {tensor: 1, pipeline: 1}\n  pipeline: {microbatches: 3}\n");
    const auto dp = simulate(plain);
    const auto llm = simulate(layout);
    // Equal but for SimGrid's clock, which rounds every event to the nanosecond (surf/precision).
    CHECK(llm.summary.iteration_time_s - total(llm, 0, "optimizer") == Approx(dp.summary.iteration_time_s).margin(1e-7).epsilon(0));
}

}  // namespace llm_closed_form_test

// How LLM layouts respond to what should change them: a slow stage, expert imbalance, prefetching, and the
// flow fidelity's one rank per tensor group against every rank in step fidelity.
#include <catch2/catch.hpp>

#include <string>

#include "test_support.hpp"

using namespace dtsim;

namespace {

std::string layout(const std::string& model, const std::string& training, const std::string& fidelity = "step") {
    return "name: llm\ncluster: {nodes: 4, gpus_per_node: 2, gpu: h100-sxm, intra_node: nvlink4, nic: ib-hdr, "
           "network_model: simgrid}\n"
           "model: {zoo: " + model + ", precision: bf16, micro_batch: 1, sequence_length: 1024}\n"
           "training:\n  iterations: 2\n  fidelity: " + fidelity + "\n  strategy: {kind: allreduce, bucket: 25MB}\n" + training;
}

double iteration_s(const std::string& text) {
    return test::simulate_in_child(load_scenario_text(text, "llm.yaml")).summary.iteration_time_s;
}

const std::string kLayout = "  parallelism: {tensor: 2, pipeline: 2}\n  pipeline: {microbatches: 4}\n";

}  // namespace

TEST_CASE("a slow rank slows its whole pipeline", "[integration][llm]") {
    const double even = iteration_s(layout("gpt3-1.3b", kLayout));
    const double slow = iteration_s(layout("gpt3-1.3b", kLayout + "  stragglers: {slowdown: [{ranks: [5], factor: 2}]}\n"));
    CAPTURE(even, slow);
    CHECK(slow > 1.3 * even);
}

TEST_CASE("uneven expert loads slow a mixture of experts", "[integration][llm]") {
    const std::string moe = "  parallelism: {expert: 4, pipeline: 2}\n  pipeline: {microbatches: 2}\n";
    const double balanced = iteration_s(layout("moe-testbed", moe));
    const double uneven = iteration_s(layout("moe-testbed", moe + "  expert_imbalance: 0.5\n"));
    CAPTURE(balanced, uneven);
    CHECK(uneven > balanced);
}

TEST_CASE("ZeRO-3 without prefetch waits for every layer's gather", "[integration][llm]") {
    const std::string zero3 = "  zero: 3\n  pipeline: {microbatches: 2}\n";
    const double prefetch = iteration_s(layout("gpt3-350m", zero3));
    auto serial = layout("gpt3-350m", zero3);
    serial.replace(serial.find("bucket: 25MB}"), 13, "bucket: 25MB, prefetch: false}");
    const double no_prefetch = iteration_s(serial);
    CAPTURE(prefetch, no_prefetch);
    CHECK(no_prefetch > prefetch);
}

TEST_CASE("flow fidelity's one rank per tensor group agrees with every rank simulated", "[integration][llm]") {
    const auto training = GENERATE(std::string("  parallelism: {tensor: 2, pipeline: 2}\n  pipeline: {microbatches: 4}\n  zero: 1\n"),
                                   std::string("  parallelism: {tensor: 2, sequence_parallel: true}\n  pipeline: {microbatches: 2}\n  zero: 3\n"));
    const double step = iteration_s(layout("gpt3-1.3b", training, "step"));
    const double flow = iteration_s(layout("gpt3-1.3b", training, "flow"));
    CAPTURE(training, step, flow);
    CHECK(flow == Approx(step).epsilon(0.03));
}

TEST_CASE("a layout that does not fit says so", "[integration][llm]") {
    const auto run = test::simulate_in_child(load_scenario_text(layout("gpt3-13b", "  pipeline: {microbatches: 1}\n"), "llm.yaml"));
    CHECK_FALSE(run.summary.fits);
    CHECK(run.summary.memory_per_gpu_bytes > run.summary.memory_capacity_bytes);
}

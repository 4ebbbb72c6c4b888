// How LLM layouts respond to what should change them: a slow stage, expert imbalance, prefetching, and the
// flow fidelity's one rank per tensor group against every rank in step fidelity.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "dtsim/sim/actors.hpp"
#include "test_support.hpp"

namespace llm_behaviour_test {

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

TEST_CASE("a rank at half speed slows its whole pipeline by its added compute", "[integration][llm]") {
    // Rank 5 is in stage 2 of four; with many microbatches its stage sets the pace: of the compute it adds,
    // only what its own pipeline bubble had room for is hidden.
    const std::string pipeline = "  parallelism: {tensor: 2, pipeline: 4}\n  pipeline: {microbatches: 16}\n";
    const auto even = test::simulate_in_child(load_scenario_text(layout("gpt3-1.3b", pipeline), "llm.yaml"));
    const double slow = iteration_s(layout("gpt3-1.3b", pipeline + "  stragglers: {slowdown: [{ranks: [5], factor: 2}]}\n"));
    double added = 0, bubble = 0;  // rank 5's compute in the measured iteration, which it now takes twice
    for (const auto& span : even.spans) {
        if (span.rank != 5 || span.iteration != 1) continue;
        if (span.lane == Lane::compute) added += span.end_s - span.start_s;
        if (span.name == "pipeline bubble") bubble += span.end_s - span.start_s;
    }
    const double slower = slow - even.summary.iteration_time_s;
    CAPTURE(even.summary.iteration_time_s, slow, added, bubble);
    CHECK(slower >= added - bubble);
    CHECK(slower <= added);
}

TEST_CASE("uneven expert loads slow a mixture of experts", "[integration][llm]") {
    const std::string moe = "  parallelism: {expert: 4, pipeline: 2}\n  pipeline: {microbatches: 2}\n";
    const double balanced = iteration_s(layout("mixtral-8x7b", moe));
    const double uneven = iteration_s(layout("mixtral-8x7b", moe + "  expert_imbalance: 0.5\n"));
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
    // Two GPUs share each node's NIC: the simulated rank's flows between nodes carry its partner's bytes too.
    const auto algorithm = GENERATE(std::string("ring"), std::string("nccl"));
    auto with_algorithm = [&](std::string text) {
        return text.replace(text.find("{kind: allreduce, "), 18, "{kind: allreduce, algorithm: " + algorithm + ", ");
    };
    const double step = iteration_s(with_algorithm(layout("gpt3-1.3b", training, "step")));
    const double flow = iteration_s(with_algorithm(layout("gpt3-1.3b", training, "flow")));
    CAPTURE(training, algorithm, step, flow);
    CHECK(flow == Approx(step).epsilon(0.03));
}

TEST_CASE("flow fidelity's copies of a stage's node-local collectives end when every node's flows would", "[integration][llm]") {
    // Hybrid FSDP, interleaved 1F1B and context parallelism on 4 nodes of 8 GPUs, 2 per stage: the gathers and
    // reduce-scatters over a node's shard group and the context exchanges run on each stage's first node only.
    // A link degradation that leaves the whole bandwidth (fraction 1) changes no link but sends every flow.
    auto scenario = [](const std::string& stragglers) {
        return load_scenario_text(
            "name: llm\ncluster: {nodes: 4, gpus_per_node: 8, gpu: h100-sxm, intra_node: nvlink4, nic: {preset: ib-ndr, count: 8}, "
            "fabric: {topology: rail-optimized}}\n"
            "model: {zoo: gpt3-350m, precision: bf16, micro_batch: 1, sequence_length: 1024}\n"
            "training:\n  iterations: 2\n  fidelity: flow\n  strategy: {kind: fsdp, sharding: hybrid, bucket: 25MB}\n"
            "  parallelism: {tensor: 2, context: 2, pipeline: 2, sequence_parallel: true}\n"
            "  pipeline: {schedule: interleaved-1f1b, virtual_stages: 2, microbatches: 4}\n" + stragglers,
            "llm.yaml");
    };
    const auto copied = scenario("");
    const auto every_flow = scenario("  stragglers: {link_degradation: [{rank: 9, fraction: 1}]}\n");
    REQUIRE(sim::stage_nodes_alike(copied));
    REQUIRE_FALSE(sim::stage_nodes_alike(every_flow));
    const double a = test::simulate_in_child(copied).summary.iteration_time_s;
    const double b = test::simulate_in_child(every_flow).summary.iteration_time_s;
    CAPTURE(a, b);
    CHECK(std::abs(a - b) <= 1e-9 * b);
}

TEST_CASE("a layout that does not fit says so", "[integration][llm]") {
    const auto run = test::simulate_in_child(load_scenario_text(layout("gpt3-13b", "  pipeline: {microbatches: 1}\n"), "llm.yaml"));
    CHECK_FALSE(run.summary.fits);
    CHECK(run.summary.memory_per_gpu_bytes > run.summary.memory_capacity_bytes);
}

}  // namespace llm_behaviour_test

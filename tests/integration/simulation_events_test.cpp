// The message estimate a large run prints (core/src/simulation_events.cpp) against what small simulations
// send, counted as SimGrid starts their communications: equal to the closed forms for the data-parallel
// strategies, and of the right order for the LLM layouts. The footprint's spans are a lower bound.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "dtsim/cost_model.hpp"
#include "dtsim/simulation_events.hpp"
#include "dtsim/simulation_footprint.hpp"
#include "test_support.hpp"

namespace simulation_events_test {

using namespace dtsim;

namespace {

struct Counted {
    double estimated = 0;
    test::SimulationActivity simulated;
};

Counted count(const std::string& text) {
    const auto scenario = load_scenario_text(text, "events.yaml");
    Counted counted{estimate_events(scenario, CostModel(scenario)).messages, test::simulate_activity_in_child(scenario)};
    CHECK(estimate_footprint(scenario).spans <= counted.simulated.spans);
    return counted;
}

// `nodes` × `per_node` GPUs, a 100 MB model in `buckets` buckets of equal layers, two iterations.
std::string data_parallel(int nodes, int per_node, const std::string& strategy, const std::string& fidelity, int buckets = 1,
                          const std::string& extra = "") {
    return "name: events\ncluster: {nodes: " + std::to_string(nodes) + ", gpus_per_node: " + std::to_string(per_node) +
           ", gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr, network_model: ideal}\n"
           "model: {gradient_bytes: 100MB, forward_time: 1ms, backward_time: 2ms, batch_per_gpu: 1, layers: " +
           std::to_string(buckets) + "}\ntraining:\n  iterations: 2\n  fidelity: " + fidelity + "\n  strategy: " + strategy +
           "\n" + extra;
}

}  // namespace

TEST_CASE("the data-parallel strategies send the messages of their closed forms", "[integration][events]") {
    const auto [strategy, fidelity, nodes, per_node, per_iteration] = GENERATE(table<std::string, std::string, int, int, double>({
        {"{kind: allreduce, algorithm: ring, bucket: 1GB}", "step", 4, 1, 2 * 4 * 3},
        {"{kind: allreduce, algorithm: ring, bucket: 1GB}", "flow", 4, 1, 4},
        {"{kind: allreduce, algorithm: tree, bucket: 1GB}", "step", 5, 1, 4 * 4},
        {"{kind: allreduce, algorithm: halving-doubling, bucket: 1GB}", "step", 6, 1, 2 * 4 * 2 + 2 * 2},
        {"{kind: allreduce, algorithm: direct, bucket: 1GB}", "flow", 4, 1, 2 * 4 * 3},
        {"{kind: allreduce, algorithm: hierarchical, bucket: 1GB}", "step", 2, 3, 6 * (2 * 2 + 2 * 1)},
        {"{kind: allreduce, algorithm: hierarchical, bucket: 1GB}", "flow", 2, 3, 6 * 3},
        {"{kind: parameter-server, servers: 3, placement: dedicated, bucket: 1GB}", "step", 4, 1, 4 * 3 * 2},
        {"{kind: parameter-server, servers: 3, placement: dedicated, sharding: round-robin, bucket: 1GB}", "step", 4, 1, 4 * 2},
    }));
    CAPTURE(strategy, fidelity, nodes, per_node);
    const auto counted = count(data_parallel(nodes, per_node, strategy, fidelity));
    CHECK(counted.estimated == 2 * per_iteration);
    CHECK(counted.simulated.messages == counted.estimated);
}

TEST_CASE("every bucket and compression's second factor adds its collective", "[integration][events]") {
    // Four layers of 25 MB in 25 MB buckets: four buckets of a ring all-reduce over 3 ranks, 12 messages each.
    auto counted = count(data_parallel(3, 1, "{kind: allreduce, algorithm: ring, bucket: 25MB}", "step", 4));
    CHECK(counted.estimated == 2 * 4 * 12);
    CHECK(counted.simulated.messages == counted.estimated);
    counted = count(data_parallel(3, 1, "{kind: allreduce, algorithm: ring, bucket: 25MB}", "step", 4,
                                  "  compression: {kind: powersgd, rank: 4}\n"));
    CHECK(counted.estimated == 2 * 4 * 24);
    CHECK(counted.simulated.messages == counted.estimated);
    // Top-k pairs are all-gathered: n - 1 steps.
    counted = count(data_parallel(3, 1, "{kind: allreduce, algorithm: ring, bucket: 25MB}", "step", 4,
                                  "  compression: {kind: topk, ratio: 0.01}\n"));
    CHECK(counted.estimated == 2 * 4 * 6);
    CHECK(counted.simulated.messages == counted.estimated);
}

TEST_CASE("an LLM layout's estimate is what it sends", "[integration][events][llm]") {
    // A small mixture of experts, as a Hugging Face config, for the expert all-to-alls.
    test::TempDir dir;
    std::ofstream(dir.file("moe.json")) << R"({"model_type": "mixtral", "num_hidden_layers": 4, "hidden_size": 512,
        "num_attention_heads": 8, "num_key_value_heads": 8, "intermediate_size": 1024, "vocab_size": 1000,
        "max_position_embeddings": 512, "num_local_experts": 4, "num_experts_per_tok": 2})";
    const auto [zoo, layout, fidelity] = GENERATE(table<std::string, std::string, std::string>({
        {"gpt3-125m", "  parallelism: {tensor: 2, pipeline: 2, data: auto}\n  pipeline: {schedule: 1f1b}\n", "step"},
        {"gpt3-125m", "  parallelism: {tensor: 2, pipeline: 2, data: auto}\n  pipeline: {schedule: interleaved-1f1b, virtual_stages: 2}\n"
                      "  recompute: full\n", "step"},
        {"gpt3-125m", "  parallelism: {tensor: 2, pipeline: 2, data: auto, sequence_parallel: true}\n  zero: 1\n", "flow"},
        {"gpt3-125m", "  parallelism: {tensor: 1, pipeline: 1, data: auto}\n  zero: 3\n", "step"},
        {"gpt3-125m", "  parallelism: {tensor: 1, pipeline: 2, context: 2, data: auto}\n  zero: 2\n", "step"},
        {"gpt3-125m", "  parallelism: {tensor: 2, pipeline: 1, data: auto}\n", "flow"},
        {"moe.json", "  parallelism: {tensor: 1, pipeline: 1, expert: 2, data: auto}\n  zero: 1\n", "step"},
    }));
    const auto model = zoo == "moe.json" ? dir.file(zoo) : zoo;
    CAPTURE(model, layout, fidelity);
    const auto counted = count("name: events\ncluster: {nodes: 2, gpus_per_node: 4, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr, "
                               "network_model: ideal}\nmodel: {zoo: " + model + ", micro_batch: 1, precision: bf16}\ntraining:\n"
                               "  iterations: 2\n  fidelity: " + fidelity + "\n  global_batch: 8\n" + layout +
                               "  strategy: {kind: allreduce, algorithm: ring, bucket: 25MB}\n");
    CHECK(counted.simulated.messages > 0);
    CHECK(counted.estimated == counted.simulated.messages);
}

TEST_CASE("hybrid FSDP reduces within the node and across nodes", "[integration][events][llm]") {
    // Ring collectives: every step a message, as the estimate counts them. NCCL's: one flow per member and
    // channel (a tree's two), which the estimate counts per channel and NIC: of the right order.
    const auto [algorithm, exact] = GENERATE(table<std::string, bool>({{"ring", true}, {"nccl", false}}));
    CAPTURE(algorithm);
    const auto counted = count("name: events\ncluster: {nodes: 2, gpus_per_node: 4, gpu: h100-sxm, intra_node: nvlink4, nic: ib-ndr, "
                               "network_model: ideal}\nmodel: {zoo: gpt3-125m, micro_batch: 1, precision: bf16}\ntraining:\n"
                               "  iterations: 2\n  fidelity: step\n  global_batch: 16\n  parallelism: {data: auto}\n"
                               "  strategy: {kind: fsdp, algorithm: " + algorithm + ", bucket: 25MB, sharding: hybrid}\n");
    CHECK(counted.simulated.messages > 0);
    if (exact) CHECK(counted.estimated == counted.simulated.messages);
    CHECK(counted.estimated <= 2 * counted.simulated.messages);
    CHECK(counted.estimated >= counted.simulated.messages / 2);
}

TEST_CASE("striped parameter servers send fewer flows than the estimate, never more", "[integration][events]") {
    // In flow fidelity a node's GPUs push as one endpoint: 2 endpoints × 3 shards × push and pull per iteration,
    // or one flow each way per endpoint where the servers are striped.
    const auto counted = count(data_parallel(2, 4, "{kind: parameter-server, servers: 3, placement: dedicated, bucket: 1GB}", "flow"));
    CHECK(counted.estimated == 2 * 2 * 3 * 2);
    CHECK(counted.simulated.messages <= counted.estimated);
    CHECK(counted.simulated.messages >= 2 * 2 * 2);
}

}  // namespace simulation_events_test

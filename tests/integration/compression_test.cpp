// training.compression: bytes on the wire, communication pattern and encode/decode costs.
#include <catch2/catch.hpp>

#include "dtsim/cost_model.hpp"
#include "dtsim/sim/compression.hpp"
#include "test_support.hpp"

namespace compression_test {

using namespace dtsim;

namespace {

constexpr int kNodes = 4;
constexpr double kGradientBytes = 100e6;  // fp32: 25 M elements, one bucket

Scenario scenario_with(const std::string& compression) {
    auto yaml = test::closed_form_scenario(kNodes, "{kind: allreduce, algorithm: ring, bucket: 1GB}", "step", kGradientBytes,
                                           "100Gbps", "5us");
    yaml += "  compression: " + compression + "\n";
    return load_scenario_text(yaml, "compression.yaml");
}

double communicated_bytes(const Run& run) {
    double bytes = 0;
    for (const auto& span : run.spans)
        if (span.rank == 0 && span.lane == Lane::comm) bytes += span.bytes;
    return bytes;
}

}  // namespace

TEST_CASE("dense compression at ratio r sends r times fewer bytes", "[integration][compression]") {
    const auto none = test::simulate_in_child(scenario_with("{kind: none}"));
    const auto fp16 = test::simulate_in_child(scenario_with("{kind: fp16}"));
    const auto int8 = test::simulate_in_child(scenario_with("{kind: int8}"));
    CHECK(communicated_bytes(none) == Approx(kGradientBytes));
    CHECK(communicated_bytes(none) / communicated_bytes(fp16) == Approx(2));
    CHECK(communicated_bytes(none) / communicated_bytes(int8) == Approx(4).epsilon(1e-6));  // + one 4-byte scale
    // On 100 Gb/s the smaller all-reduce outweighs the encode and decode passes.
    CHECK(int8.summary.iteration_time_s < none.summary.iteration_time_s);
}

TEST_CASE("top-k gradients are all-gathered, indices included: closed form", "[integration][compression]") {
    const auto scenario = scenario_with("{kind: topk, ratio: 0.01}");
    const auto bucket = sim::compress_bucket(scenario, CostModel(scenario), kGradientBytes);
    // 1 % of 25 M fp32 elements, each with an int32 index.
    CHECK(bucket.sparse);
    CHECK(bucket.first_bytes == Approx(0.01 * 25e6 * 8));
    const auto run = test::simulate_in_child(scenario);
    const double link = 100e9 / 8, latency = 5e-6;
    // Ring all-gather: n-1 steps, each passing one rank's pairs to the next.
    const double expected = bucket.encode_s + (kNodes - 1) * (latency + bucket.first_bytes / link) + bucket.decode_s;
    CHECK(run.summary.iteration_time_s == Approx(expected).epsilon(1e-9));
    bool gathered = false;
    for (const auto& span : run.spans) gathered = gathered || span.name == "allgather";
    CHECK(gathered);
}

TEST_CASE("PowerSGD all-reduces two low-rank factors", "[integration][compression]") {
    const auto scenario = scenario_with("{kind: powersgd, rank: 4}");
    const auto run = test::simulate_in_child(scenario);
    int allreduces = 0;
    for (const auto& span : run.spans) allreduces += span.rank == 0 && span.name == "allreduce";
    CHECK(allreduces == 2);
    const auto bucket = sim::compress_bucket(scenario, CostModel(scenario), kGradientBytes);
    CHECK(bucket.first_bytes == Approx(5000 * 4 * 4));  // m = √(25 M) = 5000, rank 4, fp32
    CHECK(bucket.second_bytes == bucket.first_bytes);
    CHECK(bucket.encode_s > 0);
    CHECK(bucket.decode_s > 0);
}

}  // namespace compression_test

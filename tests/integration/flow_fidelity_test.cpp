// Flow fidelity sends a ring phase as one flow per rank. On a ring whose links differ (NVLink inside a
// node, a NIC between nodes) a rank next to fast links only would finish its flows early, where the
// algorithm, every rank's result needing every rank's data, ends on every rank within one step of the
// slowest: step fidelity shows it, and flow fidelity must not spread the ends wider.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace flow_fidelity_test {

using namespace dtsim;

namespace {

// Two nodes of three GPUs, the ring 0-1-2 | 3-4-5 crossing the NIC twice; one bucket, zero compute.
Run simulate(const std::string& algorithm, const std::string& fidelity) {
    const std::string text = R"(name: mixed-links
cluster:
  nodes: 2
  gpus_per_node: 3
  gpu: h100-sxm
  intra_node: nvlink4
  nic: ib-ndr
  fabric: {topology: star}
  network_model: ideal
model: {gradient_bytes: 100MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}
training:
  iterations: 1
  fidelity: )" + fidelity + "\n  strategy: {kind: allreduce, algorithm: " + algorithm + ", bucket: 1GB}\n";
    return test::simulate_in_child(load_scenario_text(text, "mixed-links.yaml"));
}

// When each rank's all-reduce of the bucket ended.
std::vector<double> allreduce_ends(const Run& run) {
    std::vector<double> ends;
    for (const auto& span : run.spans)
        if (span.lane == Lane::comm && span.name == "allreduce") ends.push_back(span.end_s);
    return ends;
}

double spread(const std::vector<double>& values) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return *high - *low;
}

}  // namespace

TEST_CASE("in flow fidelity the members of a ring all-reduce end no further apart than in step fidelity", "[integration][collectives]") {
    const auto algorithm = GENERATE(as<std::string>{}, "ring", "hierarchical");
    CAPTURE(algorithm);
    const auto step = allreduce_ends(simulate(algorithm, "step"));
    const auto flow = allreduce_ends(simulate(algorithm, "flow"));
    REQUIRE(step.size() == 6);
    REQUIRE(flow.size() == 6);
    CAPTURE(step, flow);
    CHECK(spread(flow) <= spread(step) + 1e-12);
    // Both end when the slowest link has carried its share.
    CHECK(*std::max_element(flow.begin(), flow.end()) == Approx(*std::max_element(step.begin(), step.end())).epsilon(0.01));
}

}  // namespace flow_fidelity_test

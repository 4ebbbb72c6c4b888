#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "test_support.hpp"

namespace training_behaviour_test {

using namespace dtsim;

namespace {

const char* kComputeScenario = R"(name: overlap
cluster:
  nodes: 8
  gpu: h100-sxm
  nic: {bandwidth: 100Gbps, latency: 5us}
model: {gradient_bytes: 100MB, forward_time: 20ms, backward_time: 40ms, batch_per_gpu: 32, layers: 20}
training:
  iterations: 4
  strategy: {kind: allreduce, algorithm: ring, bucket: 25MB, overlap: true}
)";

}  // namespace

TEST_CASE("overlapping communication with backward shortens the iteration", "[integration][overlap]") {
    const auto strategy = GENERATE(std::string("{kind: allreduce, algorithm: ring, bucket: 25MB"),
                                   std::string("{kind: parameter-server, servers: 2, bucket: 25MB"));
    CAPTURE(strategy);
    const auto on = test::simulate_in_child(load_scenario_text(kComputeScenario, "overlap.yaml",
                                                               {"training.strategy=" + strategy + ", overlap: true}"}));
    const auto off = test::simulate_in_child(load_scenario_text(kComputeScenario, "overlap.yaml",
                                                                {"training.strategy=" + strategy + ", overlap: false}"}));
    CHECK(on.summary.iteration_time_s < off.summary.iteration_time_s);
    const double compute = 0.060;
    CHECK(on.summary.compute_time_s == Approx(compute).epsilon(1e-9));
    // Never faster than the compute alone or the communication alone.
    CHECK(on.summary.iteration_time_s >= std::max(compute, on.summary.comm_time_s) * (1 - 1e-9));
    // Without overlap nothing hides: compute then communication, one after the other.
    CHECK(off.summary.iteration_time_s == Approx(compute + off.summary.comm_time_s).epsilon(1e-6));
}

TEST_CASE("the timeline accounts for every rank, bucket and iteration", "[integration][timeline]") {
    const auto run = test::simulate_in_child(load_scenario_text(kComputeScenario, "overlap.yaml"));
    const int ranks = 8, buckets = 4, iterations = 4;
    int forward = 0, backward = 0, allreduce = 0;
    for (const auto& span : run.spans) {
        CHECK(span.end_s >= span.start_s);
        if (span.name == "forward") ++forward;
        if (span.name == "backward") ++backward;
        if (span.name == "allreduce") {
            ++allreduce;
            CHECK(span.bytes == Approx(25e6));
        }
    }
    CHECK(forward == ranks * iterations);
    CHECK(backward == ranks * iterations * buckets);
    CHECK(allreduce == ranks * iterations * buckets);
    REQUIRE(run.iterations.size() == 4);
    // Iterations after the first are identical in a deterministic, jitter-free run.
    CHECK(run.iterations[3].time_s == Approx(run.iterations[2].time_s).epsilon(1e-9));
    CHECK(run.summary.speedup == Approx(8 * 0.060 / run.summary.iteration_time_s).epsilon(1e-12));
}

TEST_CASE("same scenario and seed give byte-identical JSON", "[integration][determinism]") {
    test::TempDir dir;
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    const auto a = test::run_dtsim({"simulate", scenario, "--quiet", "--set", "cluster.nodes=4", "--json", dir.file("a.json")});
    const auto b = test::run_dtsim({"simulate", scenario, "--quiet", "--set", "cluster.nodes=4", "--json", dir.file("b.json")});
    REQUIRE(a.exit_code == 0);
    REQUIRE(b.exit_code == 0);
    std::ifstream fa(dir.file("a.json")), fb(dir.file("b.json"));
    const std::string ja((std::istreambuf_iterator<char>(fa)), {}), jb((std::istreambuf_iterator<char>(fb)), {});
    CHECK(!ja.empty());
    CHECK(ja == jb);
}

}  // namespace training_behaviour_test

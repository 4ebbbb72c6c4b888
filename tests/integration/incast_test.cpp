// A profile whose all-to-all kept less than a perfectly shared port makes ports that take flows started
// together (a synchronous parameter server's pushes, a direct all-reduce's phases) run at that share;
// asynchronous workers, and rings (one sender per port), keep the whole port.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "dtsim/profile.hpp"
#include "test_support.hpp"

namespace incast_test {

using namespace dtsim;

namespace {

constexpr double kLatency = 20e-6;
constexpr double kBandwidth = 50e6;
constexpr double kBytes = 8e6;
constexpr double kKept = 0.8;  // what a port keeps of its rate with 4 senders

// Ping-pongs of exactly kLatency + bytes / kBandwidth; with `incast`, an all-to-all over 5 ranks on 5 nodes
// at kKept of a perfectly shared port's rate.
Profile profile(bool incast) {
    auto out = test::pingpong_profile("incast", LinkClass::inter_node, {{0, kLatency, kBandwidth}});
    if (!incast) return out;
    NetworkFit alltoall = out.network.front();
    alltoall.op = NetworkOp::alltoall;
    alltoall.ranks = 5;
    alltoall.nodes = 5;
    alltoall.model.segments = {{0, kLatency, kBandwidth * 5 / 4 * kKept}};
    out.network.push_back(alltoall);
    return out;
}

// One iteration of zero compute over 4 single-GPU nodes, one bucket.
double iteration_s(const test::TempDir& dir, bool incast, const std::string& strategy) {
    std::ofstream(dir.file("profile.json")) << profile_to_json(profile(incast));
    std::ofstream(dir.file("s.yaml")) << "name: incast\nprofile: profile.json\n"
                                         "cluster: {nodes: 4, gpus_per_node: 1, gpu: h100-sxm}\n"
                                         "model: {gradient_bytes: 8MB, forward_time: 0s, backward_time: 0s, batch_per_gpu: 1, layers: 1}\n"
                                         "training:\n  iterations: 1\n  fidelity: step\n  strategy: " << strategy << "\n";
    const auto result = test::run_dtsim({"simulate", dir.file("s.yaml"), "--quiet", "--json", dir.file("run.json")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    std::ifstream in(dir.file("run.json"));
    return nlohmann::json::parse(in)["iteration_time_s"].get<double>();
}

const std::string kServer = "{kind: parameter-server, servers: 1, placement: dedicated, bucket: 1GB, aggregation_bandwidth: unlimited";

}  // namespace

TEST_CASE("a synchronous parameter server takes its workers' pushes at what the calibrated port keeps",
          "[integration][profile][incast]") {
    test::TempDir dir;
    // 4 pushes of 8 MB start together into the server's port, kept at 80 %; the replies leave it to one
    // worker each, at the whole rate.
    const double pushes = 4 * kBytes / (kBandwidth * kKept), replies = 4 * kBytes / kBandwidth;
    CHECK(iteration_s(dir, false, kServer + ", sync: sync}") == Approx(2 * replies + 2 * kLatency).epsilon(1e-9));
    CHECK(iteration_s(dir, true, kServer + ", sync: sync}") == Approx(pushes + replies + 2 * kLatency).epsilon(1e-9));
}

TEST_CASE("a direct all-reduce's receiving ports take their senders at what the calibrated port keeps",
          "[integration][profile][incast]") {
    test::TempDir dir;
    // Each phase: every rank sends a 2 MB share to each of the 3 others at once, and each port takes 3
    // senders. The profile calibrated 4 senders (80 %); 3 lie between 1 (100 %) and 4: 86.7 %.
    const double kept_by_three = 1 - (1 - kKept) * 2 / 3;
    const std::string direct = "{kind: allreduce, algorithm: direct, bucket: 1GB}";
    CHECK(iteration_s(dir, false, direct) == Approx(2 * (kLatency + 3 * 2e6 / kBandwidth)).epsilon(1e-9));
    CHECK(iteration_s(dir, true, direct) == Approx(2 * (kLatency + 3 * 2e6 / (kBandwidth * kept_by_three))).epsilon(1e-9));
}

TEST_CASE("asynchronous workers and rings keep the whole port under a calibrated incast", "[integration][profile][incast]") {
    test::TempDir dir;
    for (const std::string& strategy : {kServer + ", sync: async}", kServer + ", sync: ssp, staleness: 1}",
                                       std::string("{kind: allreduce, algorithm: ring, bucket: 1GB}")}) {
        CAPTURE(strategy);
        CHECK(iteration_s(dir, true, strategy) == Approx(iteration_s(dir, false, strategy)).epsilon(1e-12));
    }
}

}  // namespace incast_test

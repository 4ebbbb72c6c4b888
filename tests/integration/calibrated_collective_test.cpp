// A profile that timed a collective over the very group a ring runs on makes that collective cost what was
// measured, alone; other group sizes, and measurements faster than the point-to-point replay, keep the replay.
// A profile that timed a two-way exchange with one peer makes such exchanges (halving-doubling's) cost it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "dtsim/profile.hpp"
#include "test_support.hpp"

namespace calibrated_collective_test {

using namespace dtsim;

namespace {

constexpr double kLatency = 20e-6;
constexpr double kBandwidth = 50e6;
constexpr double kBucket = 2e6;

// Inter-node ping-pongs of exactly kLatency + bytes / kBandwidth, and a 4-rank all-reduce timed at 1 MB and
// 4 MB (the 2 MB bucket lies between them).
Profile calibrated_profile(double seconds_1mb, double seconds_4mb) {
    auto profile = test::pingpong_profile("calibrated-allreduce", LinkClass::inter_node, {{0, kLatency, kBandwidth}});
    NetworkFit allreduce;
    allreduce.op = NetworkOp::allreduce;
    allreduce.mode = TimingMode::latency;
    allreduce.link_class = LinkClass::inter_node;
    allreduce.ranks = 4;
    allreduce.nodes = 4;
    allreduce.model.segments = {{0, 1e-3, 1e6}};  // deliberately off: the measured points decide inside their range
    allreduce.measured = {{1e6, seconds_1mb}, {4e6, seconds_4mb}};
    profile.network.push_back(allreduce);
    return profile;
}

// The communication time of one iteration of a 2 MB all-reduce over `nodes` single-GPU nodes.
double allreduce_comm_s(const test::TempDir& dir, const Profile& profile, int nodes, const std::string& algorithm = "ring") {
    std::ofstream(dir.file("profile.json")) << profile_to_json(profile);
    std::ofstream(dir.file("s.yaml")) << "name: calibrated-ring\nprofile: profile.json\n"
                                         "cluster: {nodes: " << nodes << ", gpus_per_node: 1, gpu: h100-sxm}\n"
                                         "model: {gradient_bytes: 2MB, forward_time: 1ms, backward_time: 1ms, batch_per_gpu: 1, layers: 1}\n"
                                         "training:\n  iterations: 1\n  strategy: {kind: allreduce, algorithm: " << algorithm
                                      << ", bucket: 4MB, overlap: false}\n";
    const auto result = test::run_dtsim({"simulate", dir.file("s.yaml"), "--quiet", "--json", dir.file("run.json")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    std::ifstream in(dir.file("run.json"));
    return nlohmann::json::parse(in)["comm_time_s"].get<double>();
}

double replay_s(int nodes) {
    const int steps = 2 * (nodes - 1);
    return steps * (kLatency + kBucket / nodes / kBandwidth);
}

}  // namespace

TEST_CASE("a ring all-reduce over a calibrated group costs the measured time, interpolated between sizes", "[integration][profile]") {
    test::TempDir dir;
    // Measured slower than the replay (6 steps of 20 us + 0.5 MB at 50 MB/s = 60.12 ms): 80 ms at 1 MB,
    // 200 ms at 4 MB, so 120 ms at 2 MB.
    REQUIRE(replay_s(4) == Approx(0.06012));
    CHECK(allreduce_comm_s(dir, calibrated_profile(0.08, 0.2), 4) == Approx(0.12).epsilon(1e-9));
    // A measurement faster than the replay does not speed the links up.
    CHECK(allreduce_comm_s(dir, calibrated_profile(0.01, 0.04), 4) == Approx(replay_s(4)).epsilon(1e-9));
    // Eight ranks were never calibrated: the replay.
    CHECK(allreduce_comm_s(dir, calibrated_profile(0.08, 0.2), 8) == Approx(replay_s(8)).epsilon(1e-9));
}

TEST_CASE("an exchange both ways with one peer costs what the profile's pair exchange took beyond its ring step",
          "[integration][profile]") {
    // The ring step (send/recv among 4 ranks) costs exactly the link; the pair exchange twice as much at the
    // 0.5 MB and 1 MB halving-doubling steps over 4 nodes send (measured points).
    auto profile = calibrated_profile(0.01, 0.04);  // the all-reduce fit is a ring's: halving-doubling ignores it
    NetworkFit ring_step = profile.network.front();
    ring_step.op = NetworkOp::sendrecv;
    ring_step.ranks = 4;
    ring_step.nodes = 4;
    profile.network.push_back(ring_step);
    const double half_step = kLatency + 0.5e6 / kBandwidth, full_step = kLatency + 1e6 / kBandwidth;
    // Halving 1 MB then 0.5 MB, doubling 0.5 MB then 1 MB: 60.08 ms replayed.
    const double replayed = 2 * (half_step + full_step);
    test::TempDir dir;
    CHECK(allreduce_comm_s(dir, profile, 4, "halving-doubling") == Approx(replayed).epsilon(1e-9));
    NetworkFit exchange = ring_step;
    exchange.op = NetworkOp::exchange;
    exchange.ranks = 2;
    exchange.nodes = 2;
    exchange.measured = {{0.5e6, 2 * half_step}, {1e6, 2 * full_step}};
    profile.network.push_back(exchange);
    CHECK(allreduce_comm_s(dir, profile, 4, "halving-doubling") == Approx(2 * replayed).epsilon(1e-9));
    // A ring's neighbours differ: its steps are not pair exchanges.
    CHECK(allreduce_comm_s(dir, profile, 8) == Approx(replay_s(8)).epsilon(1e-9));
}

}  // namespace calibrated_collective_test

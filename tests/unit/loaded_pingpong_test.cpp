// The loaded ping-pong: its plan items, its fit, the round trips a profile gives from it, and that it never
// prices a link.
#include <catch2/catch.hpp>

#include <set>
#include <sstream>

#include "dtsim/calibrate/fit_verdict.hpp"
#include "dtsim/calibrate/plan.hpp"
#include "dtsim/calibrate/profile_fitter.hpp"
#include "dtsim/calibrate/samples.hpp"
#include "dtsim/profile.hpp"
#include "profile_report.hpp"
#include "test_support.hpp"

namespace loaded_pingpong_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

std::vector<PlanItem> loaded_items(const std::vector<int>& node_of_rank, std::vector<CalibrationOp> ops = {}, bool gpu = false) {
    PlanOptions options;
    options.quick = true;
    options.gpu = gpu;
    options.ops = std::move(ops);
    std::vector<PlanItem> out;
    for (const auto& item : make_plan(options, node_of_rank))
        if (item.op == CalibrationOp{NetworkOp::loaded_pingpong}) out.push_back(item);
    return out;
}

// A latency-mode inter_node fit of `op` over `ranks` ranks, one segment, measured at 8 B and 64 KiB.
NetworkFit ping_pong_fit(NetworkOp op, int ranks, double alpha_s, double bytes_per_second) {
    NetworkFit fit{op, TimingMode::latency, LinkClass::inter_node, ranks, ranks, {{{0, alpha_s, bytes_per_second}}},
                   {4, 0.9, 0.01, 0.02}, {}};
    for (double bytes : {8.0, 65536.0}) fit.measured.emplace_back(bytes, alpha_s * 1.01 + bytes / bytes_per_second);
    return fit;
}

// A calibration's idle ping-pong between two nodes.
Profile idle_profile() {
    Profile profile;
    profile.name = "three-nodes";
    profile.source = "measured";
    profile.environment_json = "{}";
    profile.network.push_back(ping_pong_fit(NetworkOp::pingpong, 2, 50e-6, 6e7));
    return profile;
}

Sample sample(const std::string& op, int ranks, double bytes, double seconds) {
    std::ostringstream line;
    line.precision(17);
    line << R"({"key":")" << op << "/" << bytes << R"(","op":")" << op << R"(","mode":"latency","link_class":"inter_node","ranks":)"
         << ranks << R"(,"nodes":)" << ranks << R"(,"bytes":)" << bytes << R"(,"time_s":)" << seconds << R"(,"iteration_times_s":[)"
         << seconds << R"(],"backend":"mpi"})";
    return sample_from_json_line(line.str(), "test", 1);
}

}  // namespace

TEST_CASE("calibrate::make_plan: the loaded ping-pong between three nodes", "[unit][calibrate]") {
    const auto five = loaded_items({0, 1, 2, 3, 4});
    REQUIRE(five.size() == 4);
    std::set<double> sizes;
    for (const auto& item : five) {
        CHECK(item.kind == ItemKind::point_to_point);
        CHECK(item.mode == TimingMode::latency);
        CHECK(item.link_class == LinkClass::inter_node);
        CHECK(item.ranks == 3);
        // The idle ping-pong's pair, the second streaming to the next node's rank.
        CHECK(item.members == std::vector<int>{0, 1, 2});
        sizes.insert(item.bytes);
    }
    CHECK(sizes == std::set<double>{8, 1024, 16384, 65536});  // small messages, whatever the sweep
    CHECK(five.front().key() == "loaded_pingpong/latency/inter_node/8");
    // Two ranks per node: the first rank of three distinct nodes.
    const std::vector<int> two_per_node{0, 0, 1, 1, 2, 2};
    for (const auto& item : loaded_items(two_per_node)) {
        CHECK(item.members == std::vector<int>{0, 2, 4});
        std::set<int> nodes;
        for (int rank : item.members) nodes.insert(two_per_node[static_cast<size_t>(rank)]);
        CHECK(nodes.size() == 3);
    }
    // Two nodes have no third to stream; one node has no link between nodes.
    CHECK(loaded_items({0, 1}).empty());
    CHECK(loaded_items({0, 0, 1, 1}).empty());
    CHECK(loaded_items({0, 0, 0}).empty());
    // --ops: only when asked for, alone if asked for alone (what `--resume --ops loaded_pingpong` adds).
    CHECK(loaded_items({0, 1, 2}, {NetworkOp::pingpong}).empty());
    PlanOptions alone;
    alone.ops = {NetworkOp::loaded_pingpong};
    const auto plan = make_plan(alone, {0, 1, 2});
    CHECK(plan.size() == 4);
    for (const auto& item : plan) CHECK(item.op == CalibrationOp{NetworkOp::loaded_pingpong});
    // On GPUs the plan leaves it out and says so.
    CHECK(loaded_items({0, 1, 2}, {}, true).empty());
    PlanOptions gpu;
    gpu.gpu = true;
    CHECK(loaded_pingpong_skipped(gpu));
    const auto said = left_out_of_plan(gpu);
    REQUIRE(said.size() == 2);  // the codec samples too
    CHECK_THAT(said[1], Catch::Contains("loaded_pingpong"));
    gpu.ops = {ComputeOp::gemm};
    CHECK(left_out_of_plan(gpu).empty());  // not asked for: nothing to say
}

TEST_CASE("the loaded round trip is twice the loaded ping-pong's one-way time at its smallest size", "[unit][profile]") {
    auto profile = idle_profile();
    CHECK_FALSE(profile.loaded_round_trip_s());
    REQUIRE(profile.idle_round_trip_s());
    CHECK(*profile.idle_round_trip_s() == 2 * profile.network[0].measured.front().second);

    const auto without = profile.link_cost(LinkClass::inter_node);
    profile.network.push_back(ping_pong_fit(NetworkOp::loaded_pingpong, 3, 20e-3, 1e9));
    REQUIRE(profile.loaded_round_trip_s());
    CHECK(*profile.loaded_round_trip_s() == 2 * profile.network[1].measured.front().second);
    CHECK(*profile.loaded_round_trip_s() == Approx(2 * 20e-3 * 1.01).epsilon(1e-6));

    // Never a link's cost: the same fit and link cost with it as without, of every kind the simulator asks for.
    REQUIRE(without);
    CHECK(profile.point_to_point(LinkClass::inter_node) == &profile.network[0]);
    CHECK(profile.point_to_point(LinkClass::inter_node, 3) == &profile.network[0]);
    const auto with = profile.link_cost(LinkClass::inter_node);
    REQUIRE(with);
    CHECK(with->latency_s == without->latency_s);
    CHECK(with->bytes_per_second == without->bytes_per_second);
    CHECK(with->fitted_s(1e6) == without->fitted_s(1e6));
    CHECK(profile.ring_step_costs(LinkClass::inter_node).empty());
    CHECK_FALSE(profile.pair_exchange(LinkClass::inter_node));

    // Alone, it still prices nothing: a profile without a point-to-point fit has no link.
    Profile loaded_only;
    loaded_only.network.push_back(profile.network[1]);
    CHECK(loaded_only.point_to_point(LinkClass::inter_node) == nullptr);
    CHECK_FALSE(loaded_only.idle_round_trip_s());
    CHECK(loaded_only.loaded_round_trip_s());

    // Without measured points (a hand-written profile), the model at 0 bytes.
    loaded_only.network[0].measured.clear();
    CHECK(*loaded_only.loaded_round_trip_s() == 2 * 20e-3);

    // It round-trips through JSON, and the report says both round trips.
    const auto reloaded = profile_from_json(profile_to_json(profile), "loaded.json");
    REQUIRE(reloaded.network.size() == 2);
    CHECK(reloaded.network[1].op == NetworkOp::loaded_pingpong);
    CHECK(reloaded.network[1].ranks == 3);
    CHECK(reloaded.loaded_round_trip_s() == profile.loaded_round_trip_s());
    std::ostringstream report;
    cli::print_profile_report(report, reloaded);
    CHECK_THAT(report.str(), Catch::Contains("40.400 ms behind a full queue (loaded_pingpong)") && Catch::Contains("over idle links (pingpong)"));
}

TEST_CASE("fit_profile fits the loaded ping-pong's samples as its own op, and rates a flat large fit good", "[unit][profile]") {
    std::vector<Sample> samples;
    for (double bytes : {8.0, 1024.0, 16384.0, 65536.0}) {
        samples.push_back(sample("pingpong", 2, bytes, 50e-6 + bytes / 6e7));
        samples.push_back(sample("loaded_pingpong", 3, bytes, 20e-3 + bytes / 6e7));
    }
    const auto profile = fit_profile(samples, "{}", "fitted");
    REQUIRE(profile.network.size() == 2);
    const auto& loaded = profile.network[0];  // listed by name: loaded_pingpong before pingpong
    CHECK(loaded.op == NetworkOp::loaded_pingpong);
    CHECK(loaded.mode == TimingMode::latency);
    CHECK(loaded.link_class == LinkClass::inter_node);
    CHECK(loaded.ranks == 3);
    CHECK(loaded.nodes == 3);
    CHECK(loaded.measured.size() == 4);
    CHECK(*profile.loaded_round_trip_s() == Approx(2 * (20e-3 + 8 / 6e7)).epsilon(1e-12));
    CHECK(*profile.idle_round_trip_s() == Approx(2 * (50e-6 + 8 / 6e7)).epsilon(1e-12));
    CHECK(profile.point_to_point(LinkClass::inter_node) == &profile.network[1]);
    // Milliseconds of latency where the idle ping-pong takes microseconds are the queue, not stalls: no other
    // rank count of the same op to hold it against.
    const auto verdicts = judge_network_fits(profile);
    CHECK(verdicts[0].rating == FitRating::good);
    CHECK(verdicts[0].reasons.empty());
}

}  // namespace loaded_pingpong_test

// The incast curve: its interpolation, and its derivation from a profile's all-to-all over one rank per node.
#include <catch2/catch.hpp>

#include "dtsim/incast.hpp"
#include "dtsim/profile.hpp"

namespace incast_test {

using namespace dtsim;

namespace {

constexpr double kLink = 50e6;

NetworkFit fit(NetworkOp op, int ranks, int nodes, double bytes_per_second) {
    NetworkFit out;
    out.op = op;
    out.mode = TimingMode::latency;
    out.link_class = LinkClass::inter_node;
    out.ranks = ranks;
    out.nodes = nodes;
    out.model.segments = {{0, 20e-6, 1e9}, {65536, -1e-4, bytes_per_second}};
    return out;
}

}  // namespace

TEST_CASE("an incast curve is 1 for one sender, linear between calibrated counts, flat beyond", "[unit][incast]") {
    const IncastCurve curve{{{3, 0.8}, {5, 0.6}}};
    CHECK(curve.efficiency(0) == 1);
    CHECK(curve.efficiency(1) == 1);
    CHECK(curve.efficiency(2) == Approx(0.9));
    CHECK(curve.efficiency(3) == Approx(0.8));
    CHECK(curve.efficiency(4) == Approx(0.7));
    CHECK(curve.efficiency(5) == Approx(0.6));
    CHECK(curve.efficiency(1000) == Approx(0.6));
    CHECK(IncastCurve{}.efficiency(64) == 1);
}

TEST_CASE("a profile's incast is its all-to-all's rate against a perfectly shared port", "[unit][incast]") {
    Profile profile;
    profile.network.push_back(fit(NetworkOp::pingpong, 2, 2, kLink));
    // 4 ranks on 4 nodes: 3 senders per port; perfectly shared it would run at 4/3 the link's rate.
    profile.network.push_back(fit(NetworkOp::alltoall, 4, 4, kLink * 4 / 3 * 0.75));
    // 5 on 5 measured faster than a perfect port: capped at 1.
    profile.network.push_back(fit(NetworkOp::alltoall, 5, 5, kLink * 5 / 4 * 1.1));
    // Neither two ranks (one sender), nor two ranks per node, nor a back-to-back fit says anything about it.
    profile.network.push_back(fit(NetworkOp::alltoall, 2, 2, kLink));
    profile.network.push_back(fit(NetworkOp::alltoall, 4, 2, kLink / 2));
    auto back_to_back = fit(NetworkOp::alltoall, 3, 3, kLink / 2);
    back_to_back.mode = TimingMode::throughput;
    profile.network.push_back(back_to_back);
    const auto curve = inter_node_incast(profile);
    REQUIRE(curve.points.size() == 2);
    CHECK(curve.points[0].first == 3);
    CHECK(curve.points[0].second == Approx(0.75));
    CHECK(curve.points[1].first == 4);
    CHECK(curve.points[1].second == 1);
    // Without an inter-node link to compare with, nothing.
    profile.network.erase(profile.network.begin());
    CHECK(inter_node_incast(profile).empty());
}

}  // namespace incast_test

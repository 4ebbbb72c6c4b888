// The calibration plan's point-to-point items: who takes part in each.
#include <catch2/catch.hpp>

#include "dtsim/calibrate/plan.hpp"

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

// The members of the first item of `op` between nodes, for ranks laid out as `node_of_rank`.
std::vector<int> members_of(const std::string& op, const std::vector<int>& node_of_rank) {
    PlanOptions options;
    options.ops = {op};
    for (const auto& item : make_plan(options, node_of_rank))
        if (item.op == op && item.link_class == LinkClass::inter_node) return item.members;
    return {};
}

}  // namespace

TEST_CASE("calibrate::make_plan: who takes part in each point-to-point item", "[unit][calibrate]") {
    const std::vector<int> five_nodes{0, 1, 2, 3, 4};
    CHECK(members_of("pingpong", five_nodes) == std::vector<int>{0, 1});
    CHECK(members_of("sendrecv", five_nodes) == std::vector<int>{0, 1, 2, 3, 4});
    // Every rank of the class, in pairs at once (the runtime leaves the odd one out waiting).
    CHECK(members_of("exchange", five_nodes) == std::vector<int>{0, 1, 2, 3, 4});
    // Two ranks per node: the first of each node.
    CHECK(members_of("exchange", {0, 0, 1, 1, 2, 2}) == std::vector<int>{0, 2, 4});
    // A class of two exchanges as its ring step does: no exchange item.
    CHECK(members_of("exchange", {0, 1}).empty());
}

// The calibration plan's point-to-point items: who takes part in each.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "dtsim/calibrate/plan.hpp"
#include "dtsim/calibrate/samples.hpp"

namespace plan_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

// The members of the first item of `op` between nodes, for ranks laid out as `node_of_rank`.
std::vector<int> members_of(NetworkOp op, const std::vector<int>& node_of_rank) {
    PlanOptions options;
    options.ops = {op};
    for (const auto& item : make_plan(options, node_of_rank))
        if (item.op == CalibrationOp{op} && item.link_class == LinkClass::inter_node) return item.members;
    return {};
}

}  // namespace

TEST_CASE("calibrate::make_plan: who takes part in each point-to-point item", "[unit][calibrate]") {
    const std::vector<int> five_nodes{0, 1, 2, 3, 4};
    CHECK(members_of(NetworkOp::pingpong, five_nodes) == std::vector<int>{0, 1});
    CHECK(members_of(NetworkOp::sendrecv, five_nodes) == std::vector<int>{0, 1, 2, 3, 4});
    // Every rank of the class, in pairs at once (the runtime leaves the odd one out waiting).
    CHECK(members_of(NetworkOp::exchange, five_nodes) == std::vector<int>{0, 1, 2, 3, 4});
    // Two ranks per node: the first of each node.
    CHECK(members_of(NetworkOp::exchange, {0, 0, 1, 1, 2, 2}) == std::vector<int>{0, 2, 4});
    // A class of two exchanges as its ring step does: no exchange item.
    CHECK(members_of(NetworkOp::exchange, {0, 1}).empty());
}

TEST_CASE("calibrate::make_plan: ring steps of the smaller collective groups", "[unit][calibrate]") {
    // Rings of sendrecv among the class's ranks of each collective group: keyed by their size.
    auto rings = [](const std::vector<int>& node_of_rank, bool quick) {
        PlanOptions options;
        options.quick = quick;
        options.ops = {NetworkOp::sendrecv};
        options.max_bytes = 64;
        std::map<std::pair<LinkClass, std::vector<int>>, std::vector<std::string>> out;
        for (const auto& item : make_plan(options, node_of_rank)) {
            CHECK(item.ranks == static_cast<int>(item.members.size()));
            out[{item.link_class, item.members}].push_back(item.key());
        }
        return out;
    };
    // 4 nodes: groups of 2 and 4 ranks; between nodes, rings of all 4 and of the first 2.
    const auto four = rings({0, 1, 2, 3}, false);
    REQUIRE(four.size() == 2);
    const auto& whole = four.at({LinkClass::inter_node, {0, 1, 2, 3}});
    const auto& pair = four.at({LinkClass::inter_node, {0, 1}});
    CHECK(whole.size() == pair.size());  // both modes, every size
    CHECK(std::find(whole.begin(), whole.end(), "sendrecv/throughput/inter_node/64") != whole.end());  // the older key
    CHECK(std::find(pair.begin(), pair.end(), "sendrecv/throughput/inter_node/2r/64") != pair.end());
    CHECK(std::find(pair.begin(), pair.end(), "sendrecv/latency/inter_node/2r/8") != pair.end());
    // --quick calibrates the whole world only: no smaller rings.
    CHECK(rings({0, 1, 2, 3}, true).size() == 1);
    // 5 nodes: groups of 2, 4 and 5: rings of 2, 4 and 5.
    CHECK(rings({0, 1, 2, 3, 4}, false).size() == 3);
    // 2 nodes of 2: the group of 2 is one node, whose ring is the whole intra-node class: nothing more.
    const auto two_by_two = rings({0, 0, 1, 1}, false);
    CHECK(two_by_two.size() == 2);
    CHECK(two_by_two.count({LinkClass::intra_node, {0, 1}}) == 1);
    CHECK(two_by_two.count({LinkClass::inter_node, {0, 2}}) == 1);
}

TEST_CASE("calibrate::make_plan: GEMMs in fp32 on a CPU, in every training precision on a GPU", "[unit][calibrate]") {
    auto dtypes_of = [](bool gpu) {
        PlanOptions options;
        options.ops = {ComputeOp::gemm};
        options.gpu = gpu;
        std::map<std::string, int> count;
        for (const auto& item : make_plan(options, {0})) ++count[item.dtype];
        return count;
    };
    const auto cpu = dtypes_of(false), gpu = dtypes_of(true);
    CHECK(cpu.size() == 1);
    CHECK(cpu.count("float32") == 1);
    REQUIRE(gpu.size() == 4);
    for (const auto& name : kGemmDtypeNames.names()) CHECK(gpu.at(std::string(name)) == gpu.at("float32"));
    CHECK(kGemmDtypeNames.parse("tfloat32") == Precision::tf32);
}

}  // namespace plan_test

#include <catch2/catch.hpp>
#include <cmath>

#include "dtsim/run_comparison.hpp"

using namespace dtsim;

TEST_CASE("core::compare_phases: relative error of predicted against measured per phase", "[core][compare]") {
    RunSummary predicted, measured;
    predicted.iteration_time_s = 0.12;
    measured.iteration_time_s = 0.10;
    predicted.compute_time_s = 0.08;
    measured.compute_time_s = 0.08;
    predicted.wait_time_s = 0.01;
    const auto rows = compare_phases(predicted, measured);
    REQUIRE(rows.size() == 5);
    CHECK(rows[0].phase == "iteration");
    CHECK(rows[0].relative_error() == Approx(0.2));
    CHECK(rows[1].relative_error() == 0);
    CHECK(rows[2].relative_error() == 0);  // both zero
    CHECK(rows[4].phase == "wait");
    CHECK(std::isinf(rows[4].relative_error()));
}

TEST_CASE("core::scaling_family: only the cluster size may differ within a family", "[core][compare]") {
    const std::string a = "name: s\ncluster: {nodes: 2, gpus_per_node: 8, nic: ib-ndr}\ntraining: {strategy: {kind: allreduce}}\n";
    const std::string b = "name: s\ncluster: {nodes: 16, gpus_per_node: 4, nic: ib-ndr}\ntraining: {strategy: {kind: allreduce}}\n";
    const std::string c = "name: s\ncluster: {nodes: 2, gpus_per_node: 8, nic: ib-hdr}\ntraining: {strategy: {kind: allreduce}}\n";
    CHECK(scaling_family("s", a) == scaling_family("s", b));
    CHECK(scaling_family("s", a) != scaling_family("s", c));
    CHECK(scaling_family("t", a) != scaling_family("s", a));
    CHECK(scaling_family("imported", "{not: [yaml") == "imported");
}

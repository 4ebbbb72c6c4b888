// The ranges of physical quantities (core/src/physical_limits.cpp), as the scenario loader enforces them,
// and the estimate of what a simulation needs (core/src/simulation_footprint.cpp, simulation_events.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "dtsim/physical_limits.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/simulation_footprint.hpp"
#include "test_support.hpp"

namespace physical_limits_test {

using namespace dtsim;

namespace {

const std::string kBase = test::quick_scenario("limits");  // 2 nodes of 1 GPU, 2 iterations

std::string nic_with(const std::string& bandwidth, const std::string& latency = "5us") {
    return "cluster.nic={bandwidth: " + bandwidth + ", latency: " + latency + "}";
}

std::string error_of(const std::string& assignment, const std::string& other = "name=limits") {
    return test::scenario_load_error(kBase, "scenario.yaml", {assignment, other});
}

}  // namespace

TEST_CASE("each quantity's range holds its ends and refuses what lies beyond or is not finite", "[unit][limits]") {
    for (auto quantity : {Quantity::size, Quantity::bandwidth, Quantity::fitted_bandwidth, Quantity::latency,
                          Quantity::duration, Quantity::flop_rate}) {
        const auto& range = range_of(quantity);
        CAPTURE(range.name);
        CHECK(range.min < range.max);
        CHECK_FALSE(out_of_range(quantity, range.min));
        CHECK_FALSE(out_of_range(quantity, range.max));
        CHECK(out_of_range(quantity, std::nextafter(range.max, INFINITY)));
        CHECK(out_of_range(quantity, INFINITY));
        CHECK(out_of_range(quantity, NAN));
        if (range.min > 0) CHECK(out_of_range(quantity, std::nextafter(range.min, 0.0)));
        CHECK(*out_of_range(quantity, -1) == "expected a " + std::string(range.name) + " " + std::string(range.text));
    }
    CHECK(range_of(Quantity::bandwidth).min == 1e3 / 8);  // 1 kbit/s
    CHECK(range_of(Quantity::bandwidth).max == 1e15 / 8);
    CHECK(range_of(Quantity::latency).max == 10);
    CHECK(range_of(Quantity::duration).max == 365.25 * 24 * 3600);
}

TEST_CASE("a scenario's quantities are refused outside their range, at their key", "[unit][limits]") {
    CHECK(error_of(nic_with("1kbps")).empty());
    CHECK(error_of(nic_with("100Tbps")).empty());
    CHECK(error_of(nic_with("100Gbps", "10s")).empty());
    CHECK(error_of("model.forward_time=8766h").empty());

    CHECK_THAT(error_of(nic_with("999bps")),
               Catch::Contains("key 'cluster.nic.bandwidth': expected a bandwidth from 1 kbit/s to 1 Pbit/s, got '999bps'"));
    CHECK_THAT(error_of(nic_with("1001Tbps")), Catch::Contains("expected a bandwidth from 1 kbit/s"));
    CHECK_THAT(error_of(nic_with("100Gbps", "10.5s")),
               Catch::Contains("key 'cluster.nic.latency': expected a latency from 0 to 10 s, got '10.5s'"));
    CHECK_THAT(error_of("model.backward_time=8767h"),
               Catch::Contains("key 'model.backward_time': expected a duration from 0 to 1 year (8766 h), got '8767h'"));
    CHECK_THAT(error_of("training.strategy.bucket=1001TB"), Catch::Contains("expected a size from 0 to 1 PB"));
    CHECK_THAT(error_of("cluster.intra_node={bandwidth: 1e-318bps, latency: 1us}"), Catch::Contains("cluster.intra_node.bandwidth"));
}

TEST_CASE("the footprint counts hosts and timeline spans at the measured rates", "[unit][limits]") {
    auto scenario = load_scenario_text(kBase, "scenario.yaml");
    auto footprint = estimate_footprint(scenario);
    CHECK(footprint.hosts == 2);
    CHECK(footprint.spans == 2 * 2 * 2);  // a forward and a backward per rank and iteration
    CHECK(footprint.platform_bytes == 32e6 + 2 * 12 * 1024.0);
    CHECK(footprint.timeline_bytes == 72.0 * footprint.spans);
    CHECK(footprint.bytes() == footprint.platform_bytes + footprint.timeline_bytes);

    // Dedicated parameter servers are hosts too; microbatches multiply the spans.
    scenario = load_scenario_text(kBase, "scenario.yaml",
                                  {"training.strategy={kind: parameter-server, servers: 3, placement: dedicated}",
                                   "training.accumulation_steps=4"});
    footprint = estimate_footprint(scenario);
    CHECK(footprint.hosts == 5);
    CHECK(footprint.spans == 2 * 2 * 4 * 2);
    CHECK(describe(footprint).rfind("at least ", 0) == 0);
}

TEST_CASE("a scenario that cannot fit in this machine's memory is refused when it loads", "[unit][limits]") {
    REQUIRE(physical_memory_bytes() > 0);
    // 2^30 GPUs at 12 KiB each need 13 TB: beyond any machine these tests run on.
    CHECK_THAT(error_of("cluster={nodes: 1048576, gpus_per_node: 1024, gpu: h100-sxm, nic: {bandwidth: 100Gbps, latency: 5us}}"),
               Catch::Contains("key 'cluster.nodes': simulating it needs at least") &&
                   Catch::Contains("more than this machine's"));
    // 1024 GPUs recording 2 × 1024 spans in each of 10^6 iterations: 150 TB of timeline.
    CHECK_THAT(error_of("training={iterations: 1000000, accumulation_steps: 1024, strategy: {kind: allreduce}}", "cluster.nodes=1024"),
               Catch::Contains("key 'training.iterations': simulating it needs at least") &&
                   Catch::Contains("fewer iterations"));
}

TEST_CASE("a large run's estimate is said before it starts, a small one's is not", "[unit][limits]") {
    CHECK_FALSE(large_run_note(load_scenario_text(kBase, "scenario.yaml")));
    // 16 384 hosts at 12 KiB: above 128 MB with the fixed 32 MB; a step-fidelity ring all-reduce of 4 buckets
    // sends 2n(n-1) messages per bucket, 2.15 G in each of the 2 iterations.
    auto note = large_run_note(load_scenario_text(kBase, "scenario.yaml", {"cluster.nodes=16384"}));
    REQUIRE(note);
    CHECK(*note == "a large run: simulating it needs at least 238 MB (16.4 k hosts, 65.5 k timeline spans) of memory and "
                   "sends about 4.29 G messages (2.15 G per iteration)");
    // 2048 hosts fit in 57 MB, but their 67 M messages take minutes; 512 hosts send 4.2 M.
    note = large_run_note(load_scenario_text(kBase, "scenario.yaml", {"cluster.nodes=2048"}));
    REQUIRE(note);
    CHECK_THAT(*note, Catch::Contains("sends about 67.1 M messages (33.5 M per iteration)"));
    CHECK_FALSE(large_run_note(load_scenario_text(kBase, "scenario.yaml", {"cluster.nodes=512"})));
}

}  // namespace physical_limits_test

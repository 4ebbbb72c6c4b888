// Striped parameter servers (platform.hpp, stripes_parameter_servers): in flow fidelity, by-size-sharded
// servers are simulated as one group with one flow per push or pull. With one GPU per node, step fidelity
// simulates the same endpoints with a flow per server, so the two must agree exactly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "dtsim/sim/platform.hpp"
#include "test_support.hpp"

namespace striped_servers_test {

using namespace dtsim;

namespace {

// 6 single-GPU nodes on a 10 Gbit/s star (the network matters), 3 dedicated servers that take time to
// sum, 4 buckets, the default (TCP) network model.
const std::string kSingleGpuNodes =
    "cluster: {nodes: 6, gpus_per_node: 1, gpu: h100-sxm, nic: {bandwidth: 10Gbps, latency: 5us}, fabric: {topology: star}}\n";

Scenario striping_scenario(const std::string& fidelity, const std::string& strategy, const std::string& extra = "",
                           const std::string& cluster = kSingleGpuNodes) {
    const std::string yaml =
        "name: striped-servers\n" + cluster +
        "model: {gradient_bytes: 40MB, forward_time: 10ms, backward_time: 20ms, batch_per_gpu: 32, layers: 4}\n"
        "training:\n  iterations: 4\n  fidelity: " + fidelity + "\n"
        "  strategy: {kind: parameter-server, servers: 3, bucket: 10MB, aggregation_bandwidth: 20GB/s, " + strategy + "}\n" + extra;
    return load_scenario_text(yaml, "striped-servers.yaml");
}

using SpanKey = std::tuple<int, int, std::string, int, int, double, double, double>;

std::vector<SpanKey> sorted_spans(const Run& run) {
    std::vector<SpanKey> keys;
    for (const auto& s : run.spans) keys.emplace_back(s.rank, static_cast<int>(s.lane), s.name, s.iteration, s.index, s.start_s, s.end_s, s.bytes);
    std::sort(keys.begin(), keys.end());
    return keys;
}

void check_same_run(const std::string& strategy, const std::string& extra = "", const std::string& cluster = kSingleGpuNodes) {
    const auto per_server = striping_scenario("step", strategy, extra, cluster);
    const auto striped = striping_scenario("flow", strategy, extra, cluster);
    REQUIRE_FALSE(sim::stripes_parameter_servers(per_server));
    REQUIRE(sim::stripes_parameter_servers(striped));
    const auto a = test::simulate_in_child(per_server);
    const auto b = test::simulate_in_child(striped);
    CHECK(b.summary.iteration_time_s == Approx(a.summary.iteration_time_s).epsilon(1e-12));
    CHECK(b.summary.wait_time_s == Approx(a.summary.wait_time_s).epsilon(1e-9));
    CHECK(b.summary.staleness_mean == a.summary.staleness_mean);
    CHECK(b.summary.staleness_max == a.summary.staleness_max);
    // Server 0's sender answers for the group: it must see every server's clock when it sends.
    CHECK(b.summary.staleness_clocks_mean == a.summary.staleness_clocks_mean);
    CHECK(b.summary.staleness_clocks_max == a.summary.staleness_clocks_max);
    CHECK(b.summary.server_link_utilisation == Approx(a.summary.server_link_utilisation).epsilon(1e-12));
    // Every span of every worker and server, the servers' aggregation and sends included.
    const auto spans_a = sorted_spans(a), spans_b = sorted_spans(b);
    REQUIRE(spans_a.size() == spans_b.size());
    for (size_t i = 0; i < spans_a.size(); ++i) {
        CAPTURE(i, std::get<0>(spans_a[i]), std::get<2>(spans_a[i]));
        CHECK(std::get<0>(spans_b[i]) == std::get<0>(spans_a[i]));
        CHECK(std::get<2>(spans_b[i]) == std::get<2>(spans_a[i]));
        CHECK(std::get<5>(spans_b[i]) == Approx(std::get<5>(spans_a[i])).margin(1e-12));
        CHECK(std::get<6>(spans_b[i]) == Approx(std::get<6>(spans_a[i])).margin(1e-12));
        CHECK(std::get<7>(spans_b[i]) == std::get<7>(spans_a[i]));
    }
}

}  // namespace

TEST_CASE("striped servers: sync rounds equal per-server flows", "[integration][parameter-server]") {
    check_same_run("sync: sync");
}

TEST_CASE("striped servers: async with a straggler and jitter equals per-server flows", "[integration][parameter-server]") {
    check_same_run("sync: async",
                   "  stragglers: {slowdown: [{ranks: [2], factor: 1.7}], jitter: {distribution: lognormal, sigma: 0.2}}\n");
}

TEST_CASE("striped servers: SSP with fp16 compression equals per-server flows", "[integration][parameter-server]") {
    check_same_run("sync: ssp, staleness: 1", "  compression: {kind: fp16}\n");
    // A straggler keeps the others at the bound, where a held reply is let go by the slowest push.
    check_same_run("sync: ssp, staleness: 1", "  stragglers: {slowdown: [{ranks: [2], factor: 2}]}\n");
}

TEST_CASE("striped servers: every NIC of a multi-NIC node has its own port to the group", "[integration][parameter-server]") {
    // One GPU per NIC: flow fidelity's endpoints are single GPUs, as step fidelity's are.
    check_same_run("sync: async", "",
                   "cluster: {nodes: 3, gpus_per_node: 2, gpu: h100-sxm, nic: {count: 2, bandwidth: 10Gbps, latency: 5us},"
                   " fabric: {topology: star}}\n");
}

TEST_CASE("servers are striped only where the group is exact", "[integration][parameter-server]") {
    const auto base = striping_scenario("flow", "sync: async");
    CHECK(sim::stripes_parameter_servers(base));
    auto with = [&](const std::string& strategy, const std::string& extra = "") {
        return sim::stripes_parameter_servers(striping_scenario("flow", strategy, extra));
    };
    CHECK_FALSE(with("sync: async, sharding: round-robin"));
    CHECK_FALSE(with("sync: async, placement: colocated"));
    CHECK_FALSE(with("sync: sync, backup_workers: 1"));
        CHECK_FALSE(with("sync: async", "  stragglers: {link_degradation: [{node: 1, fraction: 0.5}]}\n"));
    auto fabric = [&](const std::string& topology) {
        auto scenario = load_scenario_text(
            "name: s\ncluster: {nodes: 8, gpus_per_node: 1, gpu: h100-sxm, nic: ib-ndr, fabric: " + topology + "}\n"
            "model: {gradient_bytes: 40MB, forward_time: 10ms, backward_time: 20ms, batch_per_gpu: 8, layers: 4}\n"
            "training: {fidelity: flow, strategy: {kind: parameter-server, servers: 2, sync: async}}\n",
            "s.yaml");
        return sim::stripes_parameter_servers(scenario);
    };
    CHECK(fabric("{topology: fat-tree, radix: 4}"));
    CHECK_FALSE(fabric("{topology: fat-tree, radix: 4, oversubscription: 2}"));
    CHECK_FALSE(fabric("{topology: torus, dimensions: [5, 2]}"));
}

}  // namespace striped_servers_test

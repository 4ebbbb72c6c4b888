// Parameter-server synchronisation modes: sync, async (Downpour) and stale-synchronous (SSP).
#include <catch2/catch.hpp>

#include "test_support.hpp"

using namespace dtsim;

namespace {

// 8 identical workers, 2 dedicated servers, compute that dominates, 4 buckets, 5 iterations.
Run simulate_ps(const std::string& mode, const std::string& aggregation = "unlimited", int iterations = 5) {
    const std::string yaml =
        "name: ps-modes\n"
        "cluster: {nodes: 8, gpus_per_node: 1, gpu: h100-sxm, nic: {bandwidth: 100Gbps, latency: 5us},"
        " fabric: {topology: star}, network_model: ideal}\n"
        "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32, layers: 4}\n"
        "training:\n  iterations: " + std::to_string(iterations) + "\n  fidelity: step\n"
        "  strategy: {kind: parameter-server, servers: 2, bucket: 25MB, aggregation_bandwidth: " + aggregation + ", " + mode + "}\n";
    return test::simulate_in_child(load_scenario_text(yaml, "ps-modes.yaml"));
}

}  // namespace

TEST_CASE("SSP with staleness 0 trains at the synchronous rate", "[integration][parameter-server]") {
    const auto sync = simulate_ps("sync: sync");
    const auto ssp0 = simulate_ps("sync: ssp, staleness: 0");
    CHECK(ssp0.summary.iteration_time_s == Approx(sync.summary.iteration_time_s).epsilon(1e-9));
    CHECK(ssp0.summary.samples_per_s == Approx(sync.summary.samples_per_s).epsilon(1e-9));
    // When summing costs time, a synchronous server sends nothing until the last shard is summed; SSP
    // answers each worker as soon as its own shard is applied, so it is never slower.
    const auto sync_costly = simulate_ps("sync: sync", "2GB/s");
    const auto ssp0_costly = simulate_ps("sync: ssp, staleness: 0", "2GB/s");
    CHECK(ssp0_costly.summary.iteration_time_s <= sync_costly.summary.iteration_time_s * (1 + 1e-9));
}

TEST_CASE("async with identical workers matches sync when the servers are not the bottleneck",
          "[integration][parameter-server]") {
    const auto sync = simulate_ps("sync: sync");
    const auto async = simulate_ps("sync: async");
    CHECK(async.summary.samples_per_s == Approx(sync.summary.samples_per_s).epsilon(1e-9));
    // Every worker trains at its own rate; identical workers have the same one.
    CHECK(async.summary.worker_samples_per_s_min == Approx(async.summary.worker_samples_per_s_max).epsilon(1e-9));
    CHECK(async.summary.samples_per_s == Approx(8 * async.summary.worker_samples_per_s_min).epsilon(1e-9));
}

TEST_CASE("staleness: sync applies fresh gradients, async ones that missed the other workers' updates",
          "[integration][parameter-server]") {
    const auto sync = simulate_ps("sync: sync");
    CHECK(sync.summary.staleness_max == 0);
    // A worker's gradient is applied after the gradients of other workers that reached the server since
    // the worker pulled: with 8 workers, at most the 7 of this round and the 7 of the last (2(n-1)), and
    // per round the 8 gaps add up to at most 8·7 (each worker pulled at least its own update).
    const auto async = simulate_ps("sync: async");
    CHECK(async.summary.staleness_mean > 0);
    CHECK(async.summary.staleness_mean <= 7);
    CHECK(async.summary.staleness_max <= 14);
    CHECK(async.summary.staleness_p50 <= async.summary.staleness_p99);
    CHECK(async.summary.staleness_p99 <= async.summary.staleness_max);
}

TEST_CASE("SSP waits are their own span kind, and the bound is respected", "[integration][parameter-server]") {
    const auto run = simulate_ps("sync: ssp, staleness: 0", "2GB/s");
    bool waited_on_servers = false;
    for (const auto& span : run.spans)
        if (span.lane == Lane::wait) {
            CHECK(span.end_s > span.start_s);
            waited_on_servers = waited_on_servers || span.name == "wait: servers";
        }
    CHECK(waited_on_servers);
    CHECK(run.summary.wait_time_s > 0);
    CHECK(run.summary.wait_share == Approx(run.summary.wait_time_s / run.summary.iteration_time_s));
    CHECK(run.summary.server_link_utilisation > 0);
    CHECK(run.summary.server_link_utilisation <= 1);
}

TEST_CASE("round-robin sharding puts whole buckets on one server each", "[integration][parameter-server]") {
    const auto run = simulate_ps("sync: sync, sharding: round-robin", "20GB/s");
    // 4 buckets over 2 servers: each server aggregates 2 whole buckets from 8 workers per iteration.
    for (int server = 0; server < 2; ++server) {
        double aggregated = 0;
        for (const auto& span : run.spans)
            if (span.rank == 8 + server && span.name == "aggregate" && span.iteration == 1) aggregated += span.bytes;
        CHECK(aggregated == Approx(8 * 50e6));
    }
}

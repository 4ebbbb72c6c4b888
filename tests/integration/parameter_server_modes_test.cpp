// Parameter-server synchronisation modes: sync, async (Downpour) and stale-synchronous (SSP).
#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace parameter_server_modes_test {

using namespace dtsim;

namespace {

// 8 workers (identical unless `stragglers` says otherwise), 2 dedicated servers, compute that dominates,
// 4 buckets, 5 iterations.
Run simulate_ps(const std::string& mode, const std::string& aggregation = "unlimited", const std::string& stragglers = "{}",
                const std::string& fidelity = "step") {
    const std::string yaml =
        "name: ps-modes\n"
        "cluster: {nodes: 8, gpus_per_node: 1, gpu: h100-sxm, nic: {bandwidth: 100Gbps, latency: 5us},"
        " fabric: {topology: star}, network_model: ideal}\n"
        "model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32, layers: 4}\n"
        "training:\n  iterations: 5\n  fidelity: " + fidelity + "\n  stragglers: " + stragglers + "\n"
        "  strategy: {kind: parameter-server, servers: 2, bucket: 25MB, aggregation_bandwidth: " + aggregation + ", " + mode + "}\n";
    return test::simulate_in_child(load_scenario_text(yaml, "ps-modes.yaml"));
}

}  // namespace

TEST_CASE("SSP with staleness 0 is synchronous training", "[integration][parameter-server]") {
    // A worker at clock c reads every update of clocks <= c - 1: it waits for the slowest worker's push
    // as a synchronous round does, with or without a straggler and whatever summing costs.
    for (const std::string stragglers : {"{}", "{slowdown: [{ranks: [3], factor: 1.5}]}"}) {
        for (const std::string aggregation : {"unlimited", "2GB/s"}) {
            CAPTURE(stragglers, aggregation);
            const auto sync = simulate_ps("sync: sync", aggregation, stragglers);
            const auto ssp0 = simulate_ps("sync: ssp, staleness: 0", aggregation, stragglers);
            CHECK(ssp0.summary.iteration_time_s == Approx(sync.summary.iteration_time_s).epsilon(1e-9));
            CHECK(ssp0.summary.samples_per_s == Approx(sync.summary.samples_per_s).epsilon(1e-9));
            REQUIRE(ssp0.iterations.size() == sync.iterations.size());
            for (size_t i = 0; i < sync.iterations.size(); ++i)
                CHECK(ssp0.iterations[i].time_s == Approx(sync.iterations[i].time_s).epsilon(1e-9));
            // Every gradient was computed on parameters holding every earlier clock's updates.
            CHECK(ssp0.summary.staleness_clocks_max == 0);
        }
    }
}

TEST_CASE("SSP(s) reads miss at most s clocks; async reads are not bounded", "[integration][parameter-server]") {
    const std::string straggler = "{slowdown: [{ranks: [3], factor: 2}]}";
    const auto sync = simulate_ps("sync: sync", "unlimited", straggler);
    const auto async = simulate_ps("sync: async", "unlimited", straggler);
    CHECK(async.summary.staleness_clocks_max >= 2);  // the fast workers run away from rank 3
    double previous_rate = sync.summary.samples_per_s;
    for (int s : {1, 2}) {
        CAPTURE(s);
        const auto ssp = simulate_ps("sync: ssp, staleness: " + std::to_string(s), "unlimited", straggler);
        CHECK(ssp.summary.staleness_clocks_max == s);  // the straggler keeps the others at the bound
        CHECK(ssp.summary.staleness_clocks_mean > 0);
        // A looser bound lets the fast workers train more; never more than without one.
        CHECK(ssp.summary.samples_per_s > previous_rate);
        CHECK(ssp.summary.samples_per_s <= async.summary.samples_per_s * (1 + 1e-9));
        previous_rate = ssp.summary.samples_per_s;
    }
}

TEST_CASE("striped servers keep SSP's bound: server 0's sender sees every server's clock", "[integration][parameter-server]") {
    // In flow fidelity the 2 servers are one striped group (sim::stripes_parameter_servers); this case once
    // recorded reads 2 clocks stale under SSP(1).
    const auto run = simulate_ps("sync: ssp, staleness: 1", "unlimited", "{slowdown: [{ranks: [3], factor: 1.5}]}", "flow");
    CHECK(run.summary.staleness_clocks_max == 1);
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

TEST_CASE("SSP waits for the servers are their own span kind", "[integration][parameter-server]") {
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

}  // namespace parameter_server_modes_test

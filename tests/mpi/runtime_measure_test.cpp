// dtsim-runtime measure for real under mpirun on loopback: every implemented strategy completes and is
// stored as a measured run with per-rank timelines, parameter-server sums are exact on real data, and
// scenarios the runtime cannot execute are refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include "measure_support.hpp"

namespace runtime_measure_test {

using namespace dtsim;
using test::measure;

namespace {

// Two workers, a small model given by direct times, 1 MB buckets: a run takes well under a second.
std::string tiny_scenario(const std::string& strategy_yaml, int nodes = 2, int gpus_per_node = 1) {
    return "name: tiny-measured\n"
           "cluster: {nodes: " + std::to_string(nodes) + ", gpus_per_node: " + std::to_string(gpus_per_node) +
           ", gpu: h100-sxm, nic: {bandwidth: 10Gbps, latency: 5us}}\n"
           "model: {gradient_bytes: 3MB, forward_time: 2ms, backward_time: 4ms, batch_per_gpu: 8, layers: 6}\n"
           "training:\n  iterations: 3\n  strategy: " + strategy_yaml + "\n";
}

}  // namespace

TEST_CASE("a measured run completes for each implemented strategy and stores iterations and per-rank spans", "[mpi][measure]") {
    const struct {
        const char* strategy;
        int ranks;
        int servers;
        const char* comm_span;
        int clock_bound = 0;  // async/ssp: the most clocks a read may miss; -1: unbounded
    } cases[] = {
        {"{kind: allreduce, algorithm: ring, bucket: 1MB, overlap: true}", 2, 0, "allreduce"},
        {"{kind: allreduce, algorithm: ring, bucket: 1MB, overlap: false}", 2, 0, "allreduce"},
        {"{kind: parameter-server, servers: 1, placement: dedicated, sync: sync, bucket: 1MB}", 3, 1, "push"},
        {"{kind: parameter-server, servers: 1, placement: dedicated, sync: async, bucket: 1MB}", 3, 1, "pull", -1},
        {"{kind: parameter-server, servers: 2, placement: dedicated, sync: ssp, staleness: 1, bucket: 1MB}", 4, 2, "pull", 1},
        {"{kind: parameter-server, servers: 1, placement: dedicated, sync: ssp, staleness: 0, bucket: 1MB}", 3, 1, "pull", 0},
    };
    for (const auto& c : cases) {
        CAPTURE(c.strategy);
        const auto m = measure(c.ranks, tiny_scenario(c.strategy));
        CAPTURE(m.result.output);
        REQUIRE(m.result.exit_code == 0);
        const auto& run = m.run;
        CHECK(run.kind == RunKind::measured);
        REQUIRE(run.iterations.size() == 3);
        REQUIRE(run.ranks.size() == static_cast<size_t>(2 + c.servers));
        CHECK(run.summary.gpus == 2);
        CHECK(run.summary.iteration_time_s > 0);
        // Compute is at least the model's 6 ms per iteration (busy-waited), on every worker.
        CHECK(run.summary.compute_time_s >= 0.006 * 0.999);
        for (int rank = 0; rank < 2 + c.servers; ++rank) {
            CAPTURE(rank);
            const bool server = rank >= 2;
            const auto has = [&](const char* name) {
                return std::any_of(run.spans.begin(), run.spans.end(), [&](const Span& s) { return s.rank == rank && s.name == name; });
            };
            CHECK(has(server ? "aggregate" : "forward"));
            CHECK(has(server ? "send" : c.comm_span));
        }
        const std::string strategy = c.strategy;
        if (strategy.find("async") != std::string::npos || strategy.find("ssp") != std::string::npos) {
            // Both workers pulled version 0 of every shard, so whichever pushes second in iteration 0 is stale.
            CHECK(run.summary.staleness_max >= 1);
            CHECK(run.summary.worker_samples_per_s_min > 0);
        }
        // SSP(s): a read at clock c misses at most the updates of clocks c - s .. c - 1.
        if (c.clock_bound >= 0) CHECK(run.summary.staleness_clocks_max <= c.clock_bound);
        // The clocks are aligned at the start: every span lies inside the run's wall time.
        double wall_end = 0;
        for (const auto& it : run.iterations) wall_end += it.time_s;
        for (const auto& s : run.spans) {
            CAPTURE(s.rank, s.name, s.iteration, s.start_s, s.end_s, wall_end);
            CHECK(s.start_s >= -1e-4);
            CHECK(s.end_s >= s.start_s);
            // A server's sends complete as its workers receive them; it notes that a moment later.
            CHECK(s.end_s <= wall_end + (s.rank >= 2 ? 0.05 : 1e-6));
        }
    }
}

TEST_CASE("after every synchronous iteration each worker holds the exact sum of all workers' gradients", "[mpi][measure]") {
    for (const char* strategy : {"{kind: parameter-server, servers: 2, placement: dedicated, sync: sync, bucket: 1MB}",
                                 "{kind: parameter-server, servers: 2, placement: dedicated, sync: sync, bucket: 1MB, "
                                 "sharding: round-robin}",
                                 "{kind: allreduce, algorithm: ring, bucket: 1MB}",
                                 "{kind: allreduce, algorithm: ring, bucket: 1MB}\n  compression: {kind: fp16}"}) {
        CAPTURE(strategy);
        const bool ps = std::string(strategy).find("parameter-server") != std::string::npos;
        const auto m = measure(ps ? 5 : 3, tiny_scenario(strategy, 3), {"--verify"});
        CAPTURE(m.result.output);
        CHECK(m.result.exit_code == 0);
        CHECK(m.result.output.find("every synchronised gradient equals the exact sum") != std::string::npos);
        if (std::string(strategy).find("fp16") != std::string::npos) {  // half the bytes on the wire, casts as compute
            const auto allreduce = std::find_if(m.run.spans.begin(), m.run.spans.end(), [](const Span& s) { return s.name == "allreduce"; });
            REQUIRE(allreduce != m.run.spans.end());
            CHECK(allreduce->bytes == Approx(0.5e6));
            CHECK(std::any_of(m.run.spans.begin(), m.run.spans.end(), [](const Span& s) { return s.name == "encode"; }));
        }
        // A pull's wait for the servers' sums ends where its transfer starts: they never overlap.
        for (const auto& wait : m.run.spans) {
            if (wait.lane != Lane::wait) continue;
            CHECK(wait.name == "wait: servers");
            const auto pull = std::find_if(m.run.spans.begin(), m.run.spans.end(), [&](const Span& s) {
                return s.name == "pull" && s.rank == wait.rank && s.iteration == wait.iteration && s.index == wait.index;
            });
            REQUIRE(pull != m.run.spans.end());
            CHECK(pull->start_s == wait.end_s);
        }
    }
}

TEST_CASE("sleeping compute and sleeping waits keep the sums exact and the modelled compute times", "[mpi][measure]") {
    // What bench/accuracy runs on the oversubscribed testbed: every wait polls and sleeps, compute sleeps.
    const std::vector<std::string> polite{"--verify", "--compute", "sleep", "--poll-interval", "20us"};
    for (const char* strategy : {"{kind: allreduce, algorithm: ring, bucket: 1MB}",
                                 "{kind: parameter-server, servers: 2, placement: dedicated, sync: sync, bucket: 1MB}",
                                 "{kind: parameter-server, servers: 2, placement: dedicated, sync: ssp, staleness: 1, bucket: 1MB}"}) {
        CAPTURE(strategy);
        const bool ps = std::string(strategy).find("parameter-server") != std::string::npos;
        const auto m = measure(ps ? 5 : 3, tiny_scenario(strategy, 3), polite);
        CAPTURE(m.result.output);
        REQUIRE(m.result.exit_code == 0);
        REQUIRE(m.run.iterations.size() == 3);
        // A sleep to a deadline is never shorter than asked: forward 2 ms and backward 4 ms per iteration.
        CHECK(m.run.summary.compute_time_s >= 0.006 * 0.999);
        if (std::string(strategy).find("ssp") == std::string::npos)
            CHECK(m.result.output.find("every synchronised gradient equals the exact sum") != std::string::npos);
    }
    const auto refused = measure(2, tiny_scenario("{kind: allreduce, algorithm: ring}"), {"--poll-interval", "5"});
    CHECK(refused.result.exit_code == 2);
    CHECK_THAT(refused.result.output, Catch::Contains("--poll-interval: expected a duration from 0 to 10ms such as 20us, got '5'"));
}

TEST_CASE("tree, halving-doubling and direct all-reduce give every worker the exact sum", "[mpi][measure]") {
    // 2, 4: powers of two; 3, 5: halving-doubling folds ranks in, the trees are uneven. 1 MB buckets of a
    // 3 MB model: three all-reduces per iteration, each timed as one "allreduce" span per worker.
    for (const char* algorithm : {"tree", "halving-doubling", "direct"})
        for (int workers : {2, 3, 4, 5}) {
            CAPTURE(algorithm, workers);
            const std::string strategy = std::string("{kind: allreduce, algorithm: ") + algorithm + ", bucket: 1MB}";
            const auto m = measure(workers, tiny_scenario(strategy, workers), {"--verify"});
            CAPTURE(m.result.output);
            REQUIRE(m.result.exit_code == 0);
            CHECK_THAT(m.result.output, Catch::Contains("every synchronised gradient equals the exact sum"));
            CHECK(m.run.strategy == std::string("allreduce/") + algorithm);
            const auto allreduces = std::count_if(m.run.spans.begin(), m.run.spans.end(),
                                                  [](const Span& s) { return s.name == "allreduce"; });
            CHECK(allreduces == 3 * 3 * workers);
        }
    // fp16 sums through the tree: small integers stay exact in half precision.
    const auto half = measure(3, tiny_scenario("{kind: allreduce, algorithm: tree, bucket: 1MB}", 3) + "  compression: {kind: fp16}\n",
                              {"--verify"});
    CAPTURE(half.result.output);
    REQUIRE(half.result.exit_code == 0);
    CHECK_THAT(half.result.output, Catch::Contains("every synchronised gradient equals the exact sum"));
}

TEST_CASE("without a GPU, measure --backend nccl says so once and exits 5, storing nothing", "[mpi][measure]") {
    for (const char* algorithm : {"ring", "tree"}) {
        const auto m = measure(2, tiny_scenario(std::string("{kind: allreduce, algorithm: ") + algorithm + "}"), {"--backend", "nccl"});
        CAPTURE(m.result.output);
        CHECK(m.result.exit_code == 5);
        CHECK_THAT(m.result.output, Catch::Contains("no CUDA device found"));
        CHECK(m.result.output.find("no CUDA device found") == m.result.output.rfind("no CUDA device found"));
        CHECK(m.result.output.find("stored as run") == std::string::npos);
    }
}

TEST_CASE("what --backend nccl does not measure is refused before looking for a GPU", "[mpi][measure]") {
    const struct {
        std::string yaml;
        std::vector<std::string> extra;
        const char* expected;
    } cases[] = {
        {tiny_scenario("{kind: parameter-server, servers: 1}"), {}, "training.strategy.kind: parameter servers are not measured with --backend nccl yet"},
        {tiny_scenario("{kind: allreduce, algorithm: hierarchical}"), {}, "hierarchical all-reduce is not measured with --backend nccl (NCCL runs ring, tree or its own choice: nccl)"},
        {tiny_scenario("{kind: allreduce, algorithm: ring}") + "  compression: {kind: fp16}\n", {}, "training.compression: fp16 is not measured with --backend nccl yet"},
        {tiny_scenario("{kind: allreduce, algorithm: ring}"), {"--compute", "sleep"}, "--compute sleep: with --backend nccl the modelled times hold the GPU"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> extra{"--backend", "nccl"};
        extra.insert(extra.end(), c.extra.begin(), c.extra.end());
        const auto m = measure(c.yaml.find("parameter-server") != std::string::npos ? 3 : 2, c.yaml, extra);
        CAPTURE(m.result.output);
        CHECK(m.result.exit_code == 2);
        CHECK_THAT(m.result.output, Catch::Contains(c.expected));
        CHECK(m.result.output.find("no CUDA device") == std::string::npos);
    }
}

TEST_CASE("a scenario the runtime cannot execute is refused with one clear message and exit 2", "[mpi][measure]") {
    const struct {
        std::string yaml;
        const char* expected;
    } cases[] = {
        {tiny_scenario("{kind: allreduce, algorithm: ring}", 1024), "the scenario needs 1024 ranks (1024 workers"},
        {tiny_scenario("{kind: parameter-server, servers: 1, placement: colocated}"), "training.strategy.placement: colocated servers are not measured yet"},
        {tiny_scenario("{kind: parameter-server, servers: 1}") + "  compression: {kind: fp16}\n",
         "training.compression: fp16 with parameter servers is not measured yet"},
        {tiny_scenario("{kind: allreduce, algorithm: tree}") + "  compression: {kind: int8}\n",
         "training.compression: int8 with tree all-reduce is not measured yet (int8 is measured with ring)"},
        {tiny_scenario("{kind: allreduce, algorithm: hierarchical}") + "  compression: {kind: int8}\n",
         "training.compression: int8 with hierarchical all-reduce is not measured yet"},
        {tiny_scenario("{kind: parameter-server, servers: 1, local_aggregation: true}", 1, 2),
         "training.strategy.local_aggregation: GPUs that sum their gradients before pushing are not measured yet"},
    };
    for (const auto& c : cases) {
        const auto m = measure(2, c.yaml);
        CAPTURE(m.result.output);
        CHECK(m.result.exit_code == 2);
        CHECK(m.result.output.find(c.expected) != std::string::npos);
        CHECK(std::count(m.result.output.begin(), m.result.output.end(), '\n') >= 1);
        CHECK(m.result.output.find("dtsim-runtime: error:") == m.result.output.rfind("dtsim-runtime: error:"));  // said once
    }
}

TEST_CASE("top-k compression all-gathers the kept (index, value) pairs of every worker", "[mpi][measure]") {
    auto yaml = tiny_scenario("{kind: allreduce, algorithm: ring, bucket: 1MB}");
    yaml += "  compression: {kind: topk, ratio: 0.01}\n";
    const auto m = measure(2, yaml, {"--verify"});
    CAPTURE(m.result.output);
    REQUIRE(m.result.exit_code == 0);
    CHECK(m.result.output.find("aggregation check   not made") != std::string::npos);
    int gathers = 0;
    for (const auto& s : m.run.spans) {
        if (s.name != "allgather") continue;
        CHECK(s.bytes == 2500 * 8);  // 1% of a 1 MB bucket's 250 000 fp32 elements, 4-byte index + 4-byte value
        ++gathers;
    }
    CHECK(gathers == 2 * 3 * 3);  // 2 workers × 3 iterations × 3 buckets
}

TEST_CASE("hierarchical all-reduce over the scenario's nodes gives every worker the exact sum", "[mpi][measure]") {
    for (const auto& [nodes, compression] : {std::pair{2, ""}, std::pair{3, "  compression: {kind: fp16}\n"}}) {
        auto yaml = tiny_scenario("{kind: allreduce, algorithm: hierarchical, bucket: 1MB}", nodes) + compression;
        yaml.replace(yaml.find("gpus_per_node: 1"), 16, "gpus_per_node: 2");
        const auto m = measure(2 * nodes, yaml, {"--verify"});
        CAPTURE(yaml, m.result.output);
        REQUIRE(m.result.exit_code == 0);
        CHECK(m.result.output.find("every synchronised gradient equals the exact sum") != std::string::npos);
        CHECK(m.run.strategy == "allreduce/hierarchical");
        CHECK(m.run.ranks.back().node == nodes - 1);
    }
}

TEST_CASE("int8 compression sums every worker's gradients within its quantization error", "[mpi][measure]") {
    const auto yaml = tiny_scenario("{kind: allreduce, algorithm: ring, bucket: 1MB}", 3) + "  compression: {kind: int8}\n";
    const auto m = measure(3, yaml, {"--verify"});
    CAPTURE(m.result.output);
    REQUIRE(m.result.exit_code == 0);
    CHECK(m.result.output.find("within int8's quantization error of the exact sum") != std::string::npos);
    const auto allreduce = std::find_if(m.run.spans.begin(), m.run.spans.end(), [](const Span& s) { return s.name == "allreduce"; });
    REQUIRE(allreduce != m.run.spans.end());
    CHECK(allreduce->bytes == 250000 + 4);  // one byte per fp32 element and a scale, as the simulator counts it
}

TEST_CASE("PowerSGD all-reduces its two low-rank factors", "[mpi][measure]") {
    const auto yaml = tiny_scenario("{kind: allreduce, algorithm: ring, bucket: 1MB}") + "  compression: {kind: powersgd, rank: 2}\n";
    const auto m = measure(2, yaml);
    CAPTURE(m.result.output);
    REQUIRE(m.result.exit_code == 0);
    int factors = 0;
    for (const auto& s : m.run.spans) {
        if (s.name != "allreduce") continue;
        CHECK(s.bytes == 4.0 * 500 * 2);  // m = ceil(sqrt(250 000)) = 500 rows, rank 2, fp32
        ++factors;
    }
    CHECK(factors == 2 * 3 * 3 * 2);  // 2 workers × 3 iterations × 3 buckets × (P and Q)
}

TEST_CASE("with --compute gemm a zoo model's layers run as real GEMMs of their FLOPs", "[mpi][measure]") {
    const std::string yaml = "name: gemm-compute\n"
                             "cluster: {nodes: 2, gpus_per_node: 1, gpu: h100-sxm, nic: {bandwidth: 10Gbps, latency: 5us}}\n"
                             "model: {zoo: resnet50, batch_per_gpu: 1, precision: fp32}\n"
                             "training: {iterations: 2, strategy: {kind: allreduce, algorithm: ring, bucket: 25MB}}\n";
    const auto m = measure(2, yaml, {"--compute", "gemm"});
    CAPTURE(m.result.output);
    REQUIRE(m.result.exit_code == 0);
    // ResNet-50 is ~4.1 GFLOP forward per image, 3× that per iteration: far more than a core does in 50 ms,
    // and far more than the 0.5 ms the H100 roofline predicts, so the time is the device's own.
    CHECK(m.run.summary.compute_time_s > 0.05);
    CHECK(m.run.summary.compute_time_s > 20 * m.run.summary.single_gpu_iteration_time_s);
    const auto backward = std::count_if(m.run.spans.begin(), m.run.spans.end(), [](const Span& s) {
        return s.rank == 0 && s.iteration == 1 && s.name == "backward";
    });
    CHECK(backward >= 2);  // ~100 MB of gradients in 25 MB buckets: one span per bucket

    const auto refused = measure(2, tiny_scenario("{kind: allreduce}"), {"--compute", "gemm"});
    CHECK(refused.result.exit_code == 2);
    CHECK(refused.result.output.find("--compute gemm needs a zoo model") != std::string::npos);
}

TEST_CASE("a straggler's compute is slowed in the measured run by the scenario's factor", "[mpi][measure]") {
    auto yaml = tiny_scenario("{kind: allreduce, algorithm: ring, bucket: 1MB}");
    yaml += "  stragglers: {slowdown: [{ranks: [1], factor: 5}]}\n";
    const auto m = measure(2, yaml);
    CAPTURE(m.result.output);
    REQUIRE(m.result.exit_code == 0);
    // Busy-waiting never takes less than asked: rank 1's forward is at least 5 × 2 ms, every iteration.
    int forwards = 0;
    for (const auto& s : m.run.spans) {
        if (s.name != "forward") continue;
        CAPTURE(s.rank, s.iteration);
        CHECK(s.end_s - s.start_s >= (s.rank == 1 ? 0.010 : 0.002) * 0.999);
        forwards += s.rank == 1;
    }
    CHECK(forwards == 3);
}

}  // namespace runtime_measure_test

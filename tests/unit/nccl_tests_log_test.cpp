// nccl-tests logs as calibration samples: hand-written logs (tests/data/nccl_tests/) of collectives whose times
// follow a closed form are read back to those times and bus bandwidths, and fitted back to its α and β.
#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "dtsim/calibrate/nccl_tests_profile.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/nccl_call_costs.hpp"
#include "test_support.hpp"

namespace nccl_tests_log_test {

using namespace dtsim;
using namespace dtsim::calibrate;

namespace {

std::string log_path(const std::string& name) { return (test::source_dir() / "tests" / "data" / "nccl_tests" / name).string(); }

// all_reduce_perf_1node.log: 4 GPUs of one node, a ring of 2(n-1) steps of S/n, each 5 µs + S/n / 100 GB/s.
constexpr int kRanks = 4;
constexpr double kStepLatency = 5e-6;
constexpr double kLinkRate = 100e9;
double ring_allreduce_s(double bytes) { return 2 * (kRanks - 1) * (kStepLatency + bytes / kRanks / kLinkRate); }

// 2nodes_all_gather_perf.log: 2 nodes × 2 GPUs, 40 µs + S (n-1)/n / 20 GB/s.
double allgather_s(double bytes) { return 40e-6 + bytes * 3 / 4 / 20e9; }

const NetworkFit& fit_of(const Profile& profile, NetworkOp op, LinkClass link_class) {
    for (const auto& fit : profile.network)
        if (fit.op == op && fit.link_class == link_class) return fit;
    FAIL("no " << to_string(op) << " fit of " << to_string(link_class));
    throw;
}

// A one-node all_reduce_perf header over `ranks` ranks, then `rows`.
std::string allreduce_log(int ranks, const std::string& rows, const std::string& columns = "") {
    std::string text = "# Collective test starting: all_reduce_perf\n"
                       "# nThread 1 nGpus 1 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 "
                       "validation: 1 graph: 0\n#\n# Using devices\n";
    for (int r = 0; r < ranks; ++r)
        text += "#  Rank  " + std::to_string(r) + " Group  0 Pid  100" + std::to_string(r) + " on     node-a device  " +
                std::to_string(r) + " [0000:07:00] NVIDIA A100-SXM4-80GB\n";
    text += columns.empty() ? "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                            : columns;
    return text + rows;
}

// 1 MB over 4 ranks in 100 µs: algbw 10.49, busbw 15.73.
const std::string kGoodRow = "     1048576        262144     float     sum      -1   100.00   10.49   15.73       0   100.00   10.49   15.73       0\n";

std::string refusal(const std::string& text) {
    try {
        parse_nccl_tests_log(text, "bad.log");
    } catch (const InputError& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("an all_reduce_perf log reads as the closed form's samples, both placements", "[nccl_tests]") {
    const auto runs = read_nccl_tests_log(log_path("all_reduce_perf_1node.log"));
    REQUIRE(runs.size() == 1);
    const auto& run = runs[0];
    CHECK(run.op == NetworkOp::allreduce);
    CHECK(run.ranks == kRanks);
    CHECK(run.hosts == std::vector<std::string>{"gpu-node-1"});
    CHECK(run.device == "NVIDIA H100 80GB HBM3");
    REQUIRE(run.samples.size() == 2 * 11);
    for (const auto& s : run.samples) {
        INFO(s.key);
        CHECK(s.link_class == LinkClass::intra_node);
        CHECK(s.mode == TimingMode::throughput);
        CHECK(s.ranks == kRanks);
        CHECK(s.nodes == 1);
        CHECK(s.dtype == "float32");
        CHECK(s.iterations == 20);
        // Printed to 0.01 µs (0.1 µs above 10 ms).
        CHECK(s.time_s == Approx(ring_allreduce_s(s.bytes)).margin(0.06e-6));
        // busbw = algbw · 2(n-1)/n, which for the ring is the link's rate once the latency is amortised.
        CHECK(bus_bandwidth_gbps(s) == Approx(s.bytes / ring_allreduce_s(s.bytes) * 2 * (kRanks - 1) / kRanks / 1e9).epsilon(1e-3));
    }
    CHECK(bus_bandwidth_gbps(run.samples.back()) == Approx(kLinkRate / 1e9).epsilon(0.01));
}

TEST_CASE("an older all_gather_perf log over two nodes: program from the file name, mixed link class", "[nccl_tests]") {
    const auto runs = read_nccl_tests_log(log_path("2nodes_all_gather_perf.log"));
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].op == NetworkOp::allgather);
    CHECK(runs[0].hosts == std::vector<std::string>{"gpu-node-1", "gpu-node-2"});
    REQUIRE(runs[0].samples.size() == 2 * 7);
    for (const auto& s : runs[0].samples) {
        INFO(s.key);
        CHECK(s.link_class == LinkClass::mixed);
        CHECK(s.nodes == 2);
        CHECK(s.time_s == Approx(allgather_s(s.bytes)).margin(0.006e-6));
        CHECK(bus_bandwidth_gbps(s) == Approx(s.bytes / allgather_s(s.bytes) * 3 / 4 / 1e9).epsilon(1e-3));
    }
}

TEST_CASE("a profile fitted from nccl-tests logs recovers the closed form's alpha and beta", "[nccl_tests]") {
    const auto profile = fit_nccl_tests_logs({log_path("all_reduce_perf_1node.log"), log_path("2nodes_all_gather_perf.log")}, "logs");
    const auto& allreduce = fit_of(profile, NetworkOp::allreduce, LinkClass::intra_node);
    // The printed times' rounding may split the line into segments; each still lies on it.
    CHECK(allreduce.model.segments.front().alpha_s == Approx(2 * (kRanks - 1) * kStepLatency).epsilon(0.01));
    CHECK(allreduce.model.segments.back().bytes_per_second == Approx(kLinkRate * kRanks / (2 * (kRanks - 1))).epsilon(0.01));
    for (double bytes = 1024; bytes <= 1 << 30; bytes *= 2) CHECK(allreduce.model.seconds(bytes) == Approx(ring_allreduce_s(bytes)).epsilon(2e-3));
    // The ring step the simulator's ring all-reduce needs: the closed form's own step.
    const auto& step = fit_of(profile, NetworkOp::sendrecv, LinkClass::intra_node);
    CHECK(step.ranks == kRanks);
    CHECK(step.model.segments.front().alpha_s == Approx(kStepLatency).epsilon(0.01));
    CHECK(step.model.segments.back().bytes_per_second == Approx(kLinkRate).epsilon(0.01));
    const auto& allgather = fit_of(profile, NetworkOp::allgather, LinkClass::mixed);
    CHECK(allgather.model.segments.front().alpha_s == Approx(40e-6).epsilon(0.01));
    CHECK(allgather.model.segments.back().bytes_per_second == Approx(20e9 * 4 / 3).epsilon(0.01));
    // A mixed group gives no ring step: its time is its slowest hop's.
    for (const auto& fit : profile.network) CHECK_FALSE((fit.op == NetworkOp::sendrecv && fit.link_class != LinkClass::intra_node));
    // Provenance: nccl-tests, the files by name, the GPU.
    CHECK(profile.description.find("nccl-tests logs: all_reduce_perf_1node.log, 2nodes_all_gather_perf.log") != std::string::npos);
    const auto environment = nlohmann::json::parse(profile.environment_json);
    CHECK(environment["tool"] == "nccl-tests");
    CHECK(environment["files"].size() == 2);
    CHECK(environment["gpu"] == "NVIDIA H100 80GB HBM3");
    CHECK_FALSE(profile.compute.has_value());
}

TEST_CASE("a sendrecv_perf log's own ring steps replace the derived ones", "[nccl_tests]") {
    Sample allreduce;
    allreduce.op = NetworkOp::allreduce;
    allreduce.link_class = LinkClass::intra_node;
    allreduce.ranks = 8;
    allreduce.bytes = 8e6;
    allreduce.time_s = 14e-3;
    const auto derived = ring_steps_from_allreduces({allreduce});
    REQUIRE(derived.size() == 1);
    CHECK(derived[0].op == CalibrationOp{NetworkOp::sendrecv});
    CHECK(derived[0].bytes == 1e6);
    CHECK(derived[0].time_s == Approx(1e-3));
    Sample sendrecv = allreduce;
    sendrecv.op = NetworkOp::sendrecv;
    CHECK(ring_steps_from_allreduces({allreduce, sendrecv}).empty());
    allreduce.link_class = LinkClass::mixed;
    CHECK(ring_steps_from_allreduces({allreduce}).empty());
}

TEST_CASE("nccl-tests options: blocking runs are one op at a time, per-iteration columns, timestamps", "[nccl_tests]") {
    const auto blocking = parse_nccl_tests_log(
        "# Blocking Enabled: wait for completion and barrier after each collective \n" + allreduce_log(4, kGoodRow), "a.log");
    CHECK(blocking[0].samples[0].mode == TimingMode::throughput);  // before the run's header: not its option
    auto text = allreduce_log(4, "");
    text.insert(text.find("#\n# Using"), "# Blocking Enabled: wait and barrier after each inner iteration (-m) \n");
    CHECK(parse_nccl_tests_log(text + kGoodRow, "a.log")[0].samples[0].mode == TimingMode::latency);
    const std::string per_iteration_columns =
        "#       size  count  type  redop  root  time  algbw  busbw  #wrong  i_min  i_max  i_p99  i_cv%  time  algbw  busbw  #wrong  i_min  "
        "i_max  i_p99  i_cv%\n";
    const auto per_iteration = parse_nccl_tests_log(
        allreduce_log(4, "1048576 262144 float sum -1 100.00 10.49 15.73 0 99 101 101 0.5 100.00 10.49 15.73 0 99 101 101 0.5\n",
                      per_iteration_columns),
        "a.log");
    CHECK(per_iteration[0].samples.size() == 2);
    const auto stamped = parse_nccl_tests_log(allreduce_log(4, "1048576 262144 float sum -1 100.00 10.49 15.73 0 100.00 10.49 15.73 0 "
                                                               "2026-11-26 19:00:00\n"),
                                              "a.log");
    CHECK(stamped[0].samples[1].time_s == Approx(100e-6));
}

TEST_CASE("bad nccl-tests logs are refused naming the file, the line and what was expected", "[nccl_tests]") {
    using Catch::Contains;
    // The header says 2 ranks, the busbw is 4 ranks' (line 8, the row).
    CHECK_THAT(refusal(allreduce_log(2, kGoodRow)), Contains("bad.log:8:") && Contains("busbw 15.73 GB/s is not algbw × 1") &&
                                                        Contains("over 2 ranks"));
    CHECK_THAT(refusal(allreduce_log(4, "     1048576        262144     float     sum      -1   100.00   10.49   15.73       3   100.00   "
                                        "10.49   15.73       0\n")),
               Contains("bad.log:10:") && Contains("3 wrong elements"));
    CHECK_THAT(refusal(allreduce_log(4, "     1048576        262144     float     sum      -1   fast   10.49   15.73       0   100.00   "
                                        "10.49   15.73       0\n")),
               Contains("bad.log:10:") && Contains("out-of-place time 'fast'"));
    CHECK_THAT(refusal(allreduce_log(4, "     1048576        262144     float     sum      -1   100.00   10.49\n")),
               Contains("bad.log:10:") && Contains("expected a result row of 13 columns"));
    CHECK_THAT(refusal(allreduce_log(4, "     1048576        262144     float     sum      -1   50.00   10.49   15.73       0   100.00   "
                                        "10.49   15.73       0\n")),
               Contains("algbw 10.49 GB/s is not size / time"));
    CHECK_THAT(refusal(kGoodRow), Contains("bad.log:1:") && Contains("before the '# nThread"));
    CHECK_THAT(refusal("# NCCL INFO nothing here\n"), Contains("bad.log: no nccl-tests result rows"));
    CHECK_THAT(refusal(allreduce_log(1, kGoodRow)), Contains("one rank per communicator"));
    auto unknown = allreduce_log(4, kGoodRow);
    unknown.replace(unknown.find("all_reduce_perf"), 15, "hypercube_perf");
    CHECK_THAT(refusal(unknown), Contains("bad.log:1:") && Contains("'hypercube_perf' is not one dtsim reads"));
    auto anonymous = allreduce_log(4, kGoodRow);
    anonymous.erase(0, anonymous.find('\n') + 1);
    CHECK_THAT(refusal(anonymous), Contains("cannot tell which nccl-tests program") && Contains("rename the file"));
    auto gap = allreduce_log(4, kGoodRow);
    gap.erase(gap.find("#  Rank  1"), gap.find("#  Rank  2") - gap.find("#  Rank  1"));
    CHECK_THAT(refusal(gap), Contains("list 3 ranks but number them up to 3"));
    CHECK_THAT(refusal(allreduce_log(4, kGoodRow, "#  size count type redop root cputime algbw busbw #wrong cputime algbw busbw #wrong\n")),
               Contains("CPU time"));
    CHECK_THAT(refusal(allreduce_log(4, "", "#  Rank  x on\n")), Contains("bad.log:9:") && Contains("expected a device line"));
}

}  // namespace nccl_tests_log_test

namespace nccl_tests_log_test {

TEST_CASE("a profile fitted from nccl-tests logs calibrates NCCL's latencies where it prices a cluster", "[nccl_tests]") {
    // all_reduce_perf_1node.log's 4 H100s take 30 µs per call at 1 KiB, where NCCL's model gives 6.6 + 6 x 0.6 µs
    // of ring LL latency: beyond the launch (5 µs) and the link's one-way 5 µs, the measured latency is about twice it.
    test::TempDir dir;
    std::ofstream(dir.file("logs.json")) << profile_to_json(fit_nccl_tests_logs({log_path("all_reduce_perf_1node.log")}, "logs"));
    const std::string scenario = "name: n\nprofile: " + dir.file("logs.json") +
                                 "\ncluster: {nodes: 1, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}\n"
                                 "model: {gradient_bytes: 1MB, forward_time: 0ms, backward_time: 0ms, batch_per_gpu: 1, layers: 1}\n"
                                 "training: {strategy: {kind: allreduce, algorithm: nccl}}\n";
    const CostModel costs(load_scenario_text(scenario, "n.yaml"));
    REQUIRE(costs.nccl_calibration());
    CHECK(costs.nccl_calibration()->measurements[0] > 0);
    const double ll = costs.nccl().latency_scale[0];
    CAPTURE(ll);
    CHECK(ll > 1.5);
    CHECK(ll < 3);
    // The large sizes run Simple, whose bytes' time is fitted too: 256 MiB is charged what the log measured.
    REQUIRE(costs.nccl_calibration()->bandwidth_fitted[2]);
    const auto large = costs.nccl_call(NetworkOp::allreduce, 4, 1, 4, 1, 268435456);
    const auto charged = nccl_call_costs(costs.nccl(), large, choose_nccl(costs.nccl(), large, {}), 1, std::nullopt);
    CHECK(costs.compute().per_kernel_s + charged.latency_s + charged.fill_s + charged.bottleneck_s == Approx(4056.53e-6).epsilon(0.02));
    // Calibrated or not, NCCL chooses with its published latencies.
    const auto call = costs.nccl_call(NetworkOp::allreduce, 4, 1, 4, 1, 1024);
    CHECK((choose_nccl(costs.nccl(), call, {}).protocol == choose_nccl(nccl_defaults(), call, {}).protocol));
    // A profile measured with MPI collectives calibrates nothing of NCCL's.
    const std::string testbed = "name: t\nprofile: testbed-4x1gbit.measured\ncluster: {nodes: 4, gpus_per_node: 1, gpu: cpu}\n"
                                "model: {gradient_bytes: 1MB, forward_time: 1ms, backward_time: 2ms, batch_per_gpu: 1, layers: 1}\n"
                                "training: {strategy: {kind: allreduce}}\n";
    CHECK_FALSE(CostModel(load_scenario_text(testbed, "t.yaml")).nccl_calibration());
}

}  // namespace nccl_tests_log_test

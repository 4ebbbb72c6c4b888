// `dtsim fit` on nccl-tests logs end to end: the profile it writes prices a scenario (the closed form the
// hand-written log follows), and every log of tests/data/bad_nccl_tests is refused with exit code 2 and a
// message naming its file and line (each file opens with `# expect: <substring>` lines).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace nccl_tests_fit_test {

namespace fs = std::filesystem;

TEST_CASE("a profile fitted from an all_reduce_perf log prices the ring all-reduce it measured", "[integration][nccl_tests]") {
    const dtsim::test::TempDir dir;
    const auto logs = dtsim::test::source_dir() / "tests" / "data" / "nccl_tests";
    const auto fitted = dtsim::test::run_dtsim({"fit", (logs / "all_reduce_perf_1node.log").string(),
                                                (logs / "2nodes_all_gather_perf.log").string(), "--out", dir.file("p.json")});
    INFO(fitted.output);
    REQUIRE(fitted.exit_code == 0);
    CHECK(fitted.output.find("fitted from nccl-tests logs: all_reduce_perf_1node.log, 2nodes_all_gather_perf.log") !=
          std::string::npos);
    // One node of 4 GPUs, one 64 MB bucket, no compute: the log's ring of 6 steps of 16 MB at 5 µs + 100 GB/s.
    std::ofstream(dir.file("s.yaml")) << "name: nccl-tests-profile\nprofile: p.json\n"
                                         "cluster: {nodes: 1, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}\n"
                                         "model: {gradient_bytes: 64MB, forward_time: 0ms, backward_time: 0ms, batch_per_gpu: 1, layers: 1}\n"
                                         "training: {iterations: 1, strategy: {kind: allreduce, algorithm: ring, bucket: 64MB, overlap: false}}\n";
    const auto simulated = dtsim::test::run_dtsim({"simulate", dir.file("s.yaml"), "--quiet", "--json", dir.file("r.json")});
    INFO(simulated.output);
    REQUIRE(simulated.exit_code == 0);
    const auto run = nlohmann::json::parse(dtsim::test::read_file(dir.file("r.json")));
    CHECK(run["iteration_time_s"].get<double>() == Approx(6 * (5e-6 + 16e6 / 100e9)).epsilon(2e-3));
}

TEST_CASE("a profile fitted from an all_reduce_perf log replays NCCL's structure at the log's times", "[integration][nccl_tests]") {
    // algorithm: nccl with the profile's calibrated latencies and bytes' time: the simulated flows take what the
    // log measured at sizes from latency-bound to bandwidth-bound (all_reduce_perf_1node.log: 1 KiB 30.02 µs,
    // 1 MiB 45.73 µs, 256 MiB 4056.53 µs).
    const dtsim::test::TempDir dir;
    const auto log = dtsim::test::source_dir() / "tests" / "data" / "nccl_tests" / "all_reduce_perf_1node.log";
    REQUIRE(dtsim::test::run_dtsim({"fit", log.string(), "--out", dir.file("p.json")}).exit_code == 0);
    std::ofstream(dir.file("s.yaml")) << "name: n\nprofile: p.json\ncluster: {nodes: 1, gpus_per_node: 4, gpu: h100-sxm, nic: ib-ndr}\n"
                                         "model: {gradient_bytes: 1MB, forward_time: 0ms, backward_time: 0ms, batch_per_gpu: 1, layers: 1}\n"
                                         "training: {strategy: {kind: allreduce, algorithm: nccl}}\n";
    const auto replayed = dtsim::test::run_dtsim(
        {"collective", dir.file("s.yaml"), "--bytes", "1024", "1048576", "268435456", "--json", dir.file("c.json")});
    INFO(replayed.output);
    REQUIRE(replayed.exit_code == 0);
    CHECK(replayed.output.find("Simple latency ×") != std::string::npos);
    const auto results = nlohmann::json::parse(dtsim::test::read_file(dir.file("c.json")))["results"];
    REQUIRE(results.size() == 3);
    const double measured[] = {30.02e-6, 45.73e-6, 4056.53e-6};
    for (size_t i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(results[i]["time_s"].get<double>() == Approx(measured[i]).epsilon(0.05));
    }
}

TEST_CASE("every bad nccl-tests log is refused naming its file and line", "[integration][nccl_tests][input]") {
    const auto corpus = dtsim::test::source_dir() / "tests" / "data" / "bad_nccl_tests";
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(corpus))
        if (entry.path().extension() == ".log") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 6);
    const dtsim::test::TempDir dir;
    for (const auto& file : files) {
        CAPTURE(file.filename().string());
        const auto expected = dtsim::test::expectations(file);
        CHECK_FALSE(expected.empty());
        const auto result = dtsim::test::run_dtsim({"fit", file.string(), "--out", dir.file("p.json")});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        for (const auto& substring : expected) CHECK(result.output.find(substring) != std::string::npos);
        CHECK_FALSE(fs::exists(dir.file("p.json")));
    }
}

}  // namespace nccl_tests_fit_test

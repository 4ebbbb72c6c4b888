// dtsim-runtime calibrate for real under mpirun, with the mpi backend (Open MPI + OpenBLAS).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sched.h>
#include <signal.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "dtsim/calibrate/plan.hpp"
#include "dtsim/calibrate/sample_estimate.hpp"
#include "dtsim/profile.hpp"
#include "test_support.hpp"

namespace runtime_calibrate_test {

using namespace dtsim;
namespace fs = std::filesystem;

namespace {

std::vector<nlohmann::json> read_samples(const std::string& path) {
    std::ifstream in(path);
    std::vector<nlohmann::json> out;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

std::multiset<std::string> keys_of(const std::vector<nlohmann::json>& samples) {
    std::multiset<std::string> keys;
    for (const auto& s : samples) keys.insert(s.at("key").get<std::string>());
    return keys;
}

std::set<std::string> plan_keys(int ranks, const std::vector<std::string>& extra) {
    std::vector<std::string> args{"calibrate", "--backend", "mpi", "--out", "unused", "--print-plan"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto result = test::run_runtime(ranks, args);
    REQUIRE(result.exit_code == 0);
    std::set<std::string> keys;
    std::istringstream in(result.output);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) keys.insert(line);
    return keys;
}

size_t line_count(const fs::path& path) {
    std::ifstream in(path);
    size_t lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines;
}

// Process ids of the dtsim-runtime ranks whose command line mentions `marker`.
std::vector<pid_t> rank_pids(const std::string& marker) {
    std::vector<pid_t> out;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const auto name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::error_code error;
        const auto exe = fs::read_symlink(entry.path() / "exe", error);
        if (error || exe != fs::path(test::runtime_executable())) continue;
        std::ifstream cmdline(entry.path() / "cmdline");
        std::string text((std::istreambuf_iterator<char>(cmdline)), {});
        if (text.find(marker) != std::string::npos) out.push_back(static_cast<pid_t>(std::stoi(name)));
    }
    return out;
}

}  // namespace

TEST_CASE("a quick MPI calibration writes every planned sample with the documented fields", "[mpi][calibrate]") {
    for (int ranks : {2, 4}) {
        CAPTURE(ranks);
        test::TempDir dir;
        const auto out = dir.file("cal");
        const auto result = test::run_runtime(ranks, {"calibrate", "--backend", "mpi", "--out", out, "--quick"});
        CAPTURE(result.output);
        REQUIRE(result.exit_code == 0);
        CHECK_THAT(result.output, Catch::Contains("algbw(GB/s)") && Catch::Contains("busbw(GB/s)"));

        const auto samples = read_samples(out + "/samples.jsonl");
        const auto keys = keys_of(samples);
        const auto planned = plan_keys(ranks, {"--quick"});
        CHECK(std::set<std::string>(keys.begin(), keys.end()) == planned);
        CHECK(keys.size() == planned.size());  // each once

        std::set<std::string> ops;
        for (const auto& s : samples) {
            const auto op = s.at("op").get<std::string>();
            ops.insert(op);
            for (const char* field : {"key", "op", "ranks", "nodes", "time_s", "iteration_times_s", "backend"})
                CHECK(s.contains(field));
            CHECK(s.at("time_s").get<double>() > 0);
            CHECK(!s.at("iteration_times_s").empty());
            if (s.contains("busbw_GBps")) {
                const int n = s.at("ranks").get<int>();
                const double algbw = s.at("algbw_GBps").get<double>();
                CHECK(algbw == Approx(s.at("bytes").get<double>() / s.at("time_s").get<double>() / 1e9));
                CHECK(s.at("busbw_GBps").get<double>() == Approx(algbw * calibrate::bus_bandwidth_factor(*kNetworkOpNames.parse(op), n)));
            }
        }
        for (const char* op : {"allreduce", "allgather", "reducescatter", "broadcast", "alltoall", "pingpong", "sendrecv", "gemm",
                               "memory_bandwidth", "launch_latency", "codec"})
            CHECK(ops.count(op) == 1);
        // Codec kernels: every kernel at 64 KiB, 256 KiB, 1 MiB and 4 MiB of fp32 input, PowerSGD's at each rank.
        std::map<std::string, std::set<long long>> codec_sizes;
        std::map<std::string, std::set<int>> codec_ranks;
        for (const auto& s : samples) {
            if (s.at("op") != "codec") continue;
            const auto kernel = s.at("kernel").get<std::string>();
            codec_sizes[kernel].insert(s.at("bytes").get<long long>());
            CHECK(s.at("device") == "cpu");
            CHECK(s.at("ranks").get<int>() == ranks);
            CHECK(s.at("bytes_per_s").get<double>() == Approx(s.at("bytes").get<double>() / s.at("time_s").get<double>()));
            CHECK(s.contains("ratio") == (kernel.rfind("topk", 0) == 0));
            if (kernel == "topk_decode") CHECK(s.at("blocks").get<int>() == calibrate::kCodecTopkDecodeBlocks);
            CHECK(s.contains("rank") == (kernel.rfind("powersgd", 0) == 0));
            if (s.contains("rank")) codec_ranks[kernel].insert(s.at("rank").get<int>());
        }
        const std::set<int> powersgd_ranks(calibrate::kCodecPowersgdRanks.begin(), calibrate::kCodecPowersgdRanks.end());
        CHECK(codec_ranks["powersgd_encode"] == powersgd_ranks);
        CHECK(codec_ranks["powersgd_decode"] == powersgd_ranks);
        const std::set<long long> quick_sizes{65536, 262144, 1048576, 4194304};
        CHECK(codec_sizes.size() == 8);
        for (const auto& [kernel, sizes] : codec_sizes) {
            CAPTURE(kernel);
            CHECK(sizes == quick_sizes);
        }

        std::ifstream env(out + "/environment.json");
        const auto environment = nlohmann::json::parse(env);
        CHECK(environment.at("ranks").get<int>() == ranks);
        CHECK(environment.at("nodes").get<int>() == 1);
        CHECK_THAT(environment.at("mpi_library").get<std::string>(), Catch::Contains("MPI"));
        CHECK(environment.at("mpi_collective_algorithms").at("coll_tuned_allreduce_algorithm") == "4");
        // Every rank here runs on this machine: one machine, all ranks, at most the cores this process may use.
        const auto& machines = environment.at("machines");
        REQUIRE(machines.size() == 1);
        std::vector<int> all(static_cast<size_t>(ranks));
        std::iota(all.begin(), all.end(), 0);
        CHECK(machines[0].at("ranks").get<std::vector<int>>() == all);
        cpu_set_t usable;
        CPU_ZERO(&usable);
        REQUIRE(sched_getaffinity(0, sizeof usable, &usable) == 0);
        CHECK(machines[0].at("cores").get<int>() >= 1);
        CHECK(machines[0].at("cores").get<int>() <= CPU_COUNT(&usable));
    }
}

TEST_CASE("dtsim-runtime calibrate --ops codec: codec samples that dtsim fit turns into codec fits", "[mpi][calibrate]") {
    test::TempDir dir;
    const auto out = dir.file("codec");
    const auto result =
        test::run_runtime(2, {"calibrate", "--backend", "mpi", "--out", out, "--quick", "--ops", "codec,memory_bandwidth"});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("# codec topk_encode on cpu"));
    const auto samples = read_samples(out + "/samples.jsonl");
    // kernel (PowerSGD's with its rank, `powersgd_encode@4`) -> bytes -> seconds
    std::map<std::string, std::map<long long, double>> times, means;
    auto name_of = [](const std::string& kernel, int rank) { return rank > 0 ? kernel + "@" + std::to_string(rank) : kernel; };
    for (const auto& s : samples) {
        if (s.at("op") != "codec") continue;
        const auto kernel = name_of(s.at("kernel").get<std::string>(), s.value("rank", 0));
        const auto bytes = s.at("bytes").get<long long>();
        times[kernel][bytes] = s.at("time_s");
        // The mean the fit keeps: of the iterations other than stalls (a shared 2-core machine has them).
        means[kernel][bytes] = calibrate::estimate_sample(s.at("iteration_times_s").get<std::vector<double>>()).mean_s;
    }
    REQUIRE(times.size() == 6 + 2 * calibrate::kCodecPowersgdRanks.size());
    // Each kernel's time grows with the bucket (64× the data); top-k selection (nth_element over every
    // element) is far slower than summing 8 blocks of 1 % of them.
    for (const auto& [kernel, by_size] : times) {
        CAPTURE(kernel);
        CHECK(by_size.at(4194304) > 4 * by_size.at(65536));
    }
    CHECK(times.at("topk_encode").at(4194304) > 5 * times.at("topk_decode").at(4194304));

    const auto profile_path = dir.file("codec.json");
    const auto fit = test::run_command(test::dtsim_executable(), {"fit", out, "--out", profile_path});
    CAPTURE(fit.output);
    REQUIRE(fit.exit_code == 0);
    const auto profile = load_profile_file(profile_path);
    REQUIRE(profile.compute);
    REQUIRE(profile.compute->codecs.size() == 6 + 2 * calibrate::kCodecPowersgdRanks.size());
    CHECK(profile.compute->codec_for(CodecKernel::powersgd_encode)->rank == 1);  // one fit per rank, the lowest first
    for (const auto& codec : profile.compute->codecs) {
        const std::string kernel = name_of(std::string(to_string(codec.kernel)), codec.rank);
        CAPTURE(kernel);
        CHECK(codec.bytes_per_second > 1e6);
        CHECK(codec.bytes_per_second < 1e12);
        CHECK(codec.quality.samples == 4);
        // The fit's own quality, not asserted to be good: a quick sweep on a shared 2-core machine is noisy.
        CHECK(codec.quality.r_squared <= 1);
        CHECK(codec.quality.median_relative_error <= codec.quality.max_relative_error);
        // The line reproduces the time of a mid-size sample within the error it reports; the fit gives back
        // the sample's stall-free mean iteration time there, and interpolates between sizes.
        const double measured = times.at(kernel).at(1048576);
        CHECK(std::abs(codec.model_seconds(1048576) - measured) / measured <= codec.quality.max_relative_error * (1 + 1e-9));
        CHECK(codec.seconds(1048576) == Approx(means.at(kernel).at(1048576)).epsilon(1e-9));
        const double at_1m = means.at(kernel).at(1048576), at_4m = means.at(kernel).at(4194304);
        CHECK(codec.seconds(2 * 1048576) == Approx(2.0 / 3 * at_1m + 1.0 / 3 * at_4m).epsilon(1e-9));
    }
    CHECK(profile.compute->codec_for(CodecKernel::topk_decode)->blocks == calibrate::kCodecTopkDecodeBlocks);
    const auto shown = test::run_command(test::dtsim_executable(), {"profile", "show", profile_path});
    CHECK_THAT(shown.output, Catch::Contains("gradient compression") && Catch::Contains("topk_decode (1.0 %, 8 blocks)"));
}

TEST_CASE("the plan leaves the codec samples out on GPUs and says so", "[mpi][calibrate]") {
    const auto result = test::run_command(test::runtime_executable(),
                                          {"calibrate", "--backend", "nccl", "--out", "unused", "--print-plan", "--ops", "codec,gemm"});
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("no GPU codec kernels yet"));
    CHECK_THAT(result.output, Catch::Contains("gemm/float16/") && Catch::Contains("gemm/tfloat32/"));
    CHECK_THAT(result.output, !Catch::Contains("codec/"));
}

TEST_CASE("the loaded ping-pong between three nodes takes its samples, ends on every rank and fits", "[mpi][calibrate]") {
    // DTSIM_RANKS_PER_NODE=1: each rank of this machine counts as a node of its own, so the plan has the items
    // between nodes; `timeout`: a rank left waiting at the stream's end would hang the job (exit 124).
    test::TempDir dir;
    const auto out = dir.file("loaded");
    auto calibrate = [&](const std::string& ops, bool resume) {
        std::vector<std::string> args{"120", "mpirun", "--allow-run-as-root", "--oversubscribe", "-x", "DTSIM_RANKS_PER_NODE=1", "-np",
                                      "3", test::runtime_executable(), "calibrate", "--backend", "mpi", "--out", out, "--ops", ops};
        if (resume) args.push_back("--resume");
        return test::run_command("timeout", args);
    };
    const auto result = calibrate("loaded_pingpong", false);
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("# loaded_pingpong: 3 ranks on 3 node(s), inter_node"));
    const auto samples = read_samples(out + "/samples.jsonl");
    std::set<long long> sizes;
    for (const auto& s : samples) {
        CHECK(s.at("op") == "loaded_pingpong");
        CHECK(s.at("mode") == "latency");
        CHECK(s.at("link_class") == "inter_node");
        CHECK(s.at("ranks") == 3);
        CHECK(s.at("nodes") == 3);
        CHECK(s.at("time_s").get<double>() > 0);
        CHECK(s.at("iteration_times_s").size() >= 15);
        for (const auto& t : s.at("iteration_times_s")) CHECK(t.get<double>() > 0);
        sizes.insert(s.at("bytes").get<long long>());
    }
    CHECK(sizes == std::set<long long>{8, 1024, 16384, 65536});

    // --resume adds the idle ping-pong beside it; the profile then has both round trips.
    const auto resumed = calibrate("loaded_pingpong,pingpong", true);
    CAPTURE(resumed.output);
    REQUIRE(resumed.exit_code == 0);
    CHECK_THAT(resumed.output, Catch::Contains("4 already there"));
    const auto profile_path = dir.file("loaded.json");
    const auto fit = test::run_command(test::dtsim_executable(), {"fit", out, "--out", profile_path});
    CAPTURE(fit.output);
    REQUIRE(fit.exit_code == 0);
    CHECK_THAT(fit.output, Catch::Contains("behind a full queue (loaded_pingpong)"));
    const auto profile = load_profile_file(profile_path);
    REQUIRE(profile.loaded_round_trip_s());
    REQUIRE(profile.idle_round_trip_s());
    CHECK(*profile.loaded_round_trip_s() > 0);
    CHECK(profile.point_to_point(LinkClass::inter_node)->op == NetworkOp::pingpong);
}

TEST_CASE("busbw factors are nccl-tests'", "[mpi][calibrate]") {
    CHECK(calibrate::bus_bandwidth_factor(NetworkOp::allreduce, 4) == Approx(1.5));
    CHECK(calibrate::bus_bandwidth_factor(NetworkOp::allgather, 4) == Approx(0.75));
    CHECK(calibrate::bus_bandwidth_factor(NetworkOp::reducescatter, 8) == Approx(0.875));
    CHECK(calibrate::bus_bandwidth_factor(NetworkOp::alltoall, 2) == Approx(0.5));
    CHECK(calibrate::bus_bandwidth_factor(NetworkOp::broadcast, 8) == 1);
}

TEST_CASE("a calibration killed mid-run and resumed has every sample exactly once", "[mpi][calibrate]") {
    test::TempDir dir;
    const auto out = dir.file("killed");
    const std::vector<std::string> args{"calibrate", "--backend", "mpi", "--out", out, "--quick", "--target-time", "0.05"};
    std::string command = "mpirun --allow-run-as-root --oversubscribe -np 4 " + test::runtime_executable();
    for (const auto& a : args) command += " " + a;
    std::thread job([command] { (void)std::system((command + " > /dev/null 2>&1").c_str()); });

    const auto samples_file = fs::path(out) / "samples.jsonl";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (line_count(samples_file) < 20 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const auto pids = rank_pids(out);
    REQUIRE(pids.size() == 4);
    kill(pids[1], SIGKILL);  // one rank dies; mpirun then stops the others
    job.join();
    const size_t before = line_count(samples_file);
    const auto planned = plan_keys(4, {"--quick"});
    CAPTURE(before);
    REQUIRE(before >= 20);
    REQUIRE(before < planned.size());

    auto resume_args = args;
    resume_args.push_back("--resume");
    const auto resumed = test::run_runtime(4, resume_args);
    CAPTURE(resumed.output);
    REQUIRE(resumed.exit_code == 0);
    const auto keys = keys_of(read_samples(samples_file.string()));
    CHECK(keys.size() == planned.size());
    CHECK(std::set<std::string>(keys.begin(), keys.end()) == planned);
}

TEST_CASE("existing samples are never overwritten without --resume", "[mpi][calibrate]") {
    test::TempDir dir;
    const auto out = dir.file("cal");
    REQUIRE(test::run_runtime(2, {"calibrate", "--backend", "mpi", "--out", out, "--quick", "--ops", "pingpong"}).exit_code == 0);
    const auto lines = line_count(fs::path(out) / "samples.jsonl");
    const auto again = test::run_runtime(2, {"calibrate", "--backend", "mpi", "--out", out, "--quick", "--ops", "pingpong"});
    CHECK(again.exit_code == 2);
    CHECK_THAT(again.output, Catch::Contains("already holds samples") && Catch::Contains("--resume"));
    CHECK(line_count(fs::path(out) / "samples.jsonl") == lines);
}

TEST_CASE("without a GPU, backend nccl says so and exits non-zero", "[mpi][calibrate]") {
    test::TempDir dir;
    const auto result = test::run_command(test::runtime_executable(), {"calibrate", "--backend", "nccl", "--out", dir.file("gpu")});
    CHECK(result.exit_code == 5);
    CHECK_THAT(result.output, Catch::Contains("no CUDA device found"));
    CHECK(!fs::exists(dir.file("gpu") + "/samples.jsonl"));
}

TEST_CASE("a calibration whose waiting ranks sleep between polls takes every planned sample", "[mpi][calibrate]") {
    // What bench/calibrate-quick runs on the oversubscribed testbed: ranks idle while others are timed
    // (barriers, broadcasts, point-to-point waits) test and sleep instead of spinning.
    test::TempDir dir;
    const auto out = dir.file("cal");
    const std::vector<std::string> subset{"--quick", "--ops", "allreduce,sendrecv,pingpong"};
    std::vector<std::string> args{"calibrate", "--backend", "mpi", "--out", out, "--poll-interval", "20us"};
    args.insert(args.end(), subset.begin(), subset.end());
    const auto result = test::run_runtime(4, args);
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    const auto samples = read_samples(out + "/samples.jsonl");
    const auto keys = keys_of(samples);
    CHECK(std::set<std::string>(keys.begin(), keys.end()) == plan_keys(4, subset));
    CHECK(keys.size() == plan_keys(4, subset).size());
    for (const auto& s : samples) {
        CHECK(s.at("time_s").get<double>() > 0);
        for (const auto& t : s.at("iteration_times_s")) CHECK(t.get<double>() > 0);
    }
}

TEST_CASE("bad calibrate options are refused with one clear message", "[mpi][calibrate]") {
    test::TempDir dir;
    const auto out = dir.file("x");
    const auto bad_op = test::run_command(test::runtime_executable(), {"calibrate", "--out", out, "--ops", "allreduse"});
    CHECK(bad_op.exit_code == 2);
    CHECK_THAT(bad_op.output, Catch::Contains("unknown operation 'allreduse'"));
    const auto bad_size = test::run_command(test::runtime_executable(), {"calibrate", "--out", out, "--max", "lots"});
    CHECK(bad_size.exit_code == 2);
    CHECK_THAT(bad_size.output, Catch::Contains("--max 'lots'"));
    const auto bad_poll = test::run_command(test::runtime_executable(), {"calibrate", "--out", out, "--poll-interval", "1s"});
    CHECK(bad_poll.exit_code == 2);
    CHECK_THAT(bad_poll.output, Catch::Contains("--poll-interval: expected a duration from 0 to 10ms such as 20us, got '1s'"));
}

}  // namespace runtime_calibrate_test

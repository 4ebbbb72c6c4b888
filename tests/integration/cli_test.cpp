#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace cli_test {

using namespace dtsim;

namespace {

nlohmann::json read_json(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

}  // namespace

// Instrumented, the 1024-GPU scenario takes a minute (48 times its release time, most of this test's time in
// the sanitized run): the release run simulates it.
constexpr int kMostGpusSanitized = 256;

TEST_CASE("every shipped scenario simulates", "[integration][cli]") {
    std::vector<std::string> scenarios;
    for (const auto& entry : std::filesystem::directory_iterator(test::source_dir() / "scenarios")) {
        if (entry.path().extension() != ".yaml" || test::is_advise_study(entry.path())) continue;  // `dtsim advise` reads those
        if (test::kSanitized && load_scenario_file(entry.path().string()).cluster.gpus() > kMostGpusSanitized) continue;
        scenarios.push_back(entry.path().string());
    }
    std::vector<std::vector<std::string>> runs;
    for (const auto& scenario : scenarios) runs.push_back({"simulate", scenario});
    const auto results = test::run_dtsim_each(runs);
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
        CAPTURE(scenarios[i], results[i].output);
        CHECK(results[i].exit_code == 0);
        CHECK_THAT(results[i].output, Catch::Contains("iteration time"));
    }
    CHECK(scenarios.size() >= 3);
}

TEST_CASE("simulate writes JSON, a Perfetto trace and a database row", "[integration][cli]") {
    test::TempDir dir;
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    const auto result = test::run_dtsim({"simulate", scenario, "--set", "cluster.nodes=2", "--json", dir.file("run.json"),
                                         "--trace", dir.file("trace.json"), "--db", dir.file("runs.db")});
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("stored as run 1"));
    CHECK_THAT(result.output, Catch::Contains("memory per GPU: fits: "));
    CHECK_THAT(result.output, Catch::Contains("MFU / HFU"));
    const auto json = read_json(dir.file("run.json"));
    for (const char* key : {"gpus", "iteration_time_s", "samples_per_s", "speedup", "scaling_efficiency", "compute_time_s",
                            "comm_time_s", "exposed_comm_time_s", "iterations", "model_flops_utilisation", "memory_per_gpu_bytes"})
        CHECK(json.contains(key));
    CHECK(json["fits"] == true);
    CHECK(json["gpus"] == 16);
    CHECK(json["iterations"][0].contains("index"));
    const auto trace = read_json(dir.file("trace.json"));
    CHECK(trace["traceEvents"].size() > 10);

    const auto list = test::run_dtsim({"runs", "list", "--db", dir.file("runs.db")});
    CHECK(list.exit_code == 0);
    CHECK_THAT(list.output, Catch::Contains("resnet50-h100-ring"));
    const auto show = test::run_dtsim({"runs", "show", "1", "--db", dir.file("runs.db")});
    CHECK(show.exit_code == 0);
    CHECK_THAT(show.output, Catch::Contains("iteration time"));
    const auto missing = test::run_dtsim({"runs", "show", "9", "--db", dir.file("runs.db")});
    CHECK(missing.exit_code == 2);  // a run that is not there is invalid input, not a database failure
}

TEST_CASE("a scenario override takes one KEY=VALUE per --set and may come before the scenario", "[integration][cli]") {
    test::TempDir dir;
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    // A vector option would take every word up to the next flag: the scenario too ("scenario is required").
    const auto before = test::run_dtsim({"simulate", "--set", "cluster.nodes=2", "--set", "training.iterations=2", scenario,
                                         "--json", dir.file("before.json"), "--quiet"});
    CAPTURE(before.output);
    REQUIRE(before.exit_code == 0);
    CHECK(read_json(dir.file("before.json"))["gpus"] == 16);
    CHECK(read_json(dir.file("before.json"))["iterations"].size() == 2);
    const auto two_values = test::run_dtsim({"simulate", "--set", "cluster.nodes=2", "training.iterations=2", scenario});
    CHECK(two_values.exit_code == 2);
}

TEST_CASE("a run whose model does not fit its GPUs says by how much", "[integration][cli]") {
    // GPT-3 13B replicated on every GPU: 16 bytes per parameter of model states alone exceed an H100's 80 GB.
    const auto scenario = (test::source_dir() / "scenarios" / "whatif-h100-gpt3.yaml").string();
    const auto result = test::run_dtsim({"simulate", scenario, "--set", "model.zoo=gpt3-13b", "--set", "training.iterations=1"});
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("memory per GPU: does not fit: needs ") && Catch::Contains(" GB of 80.0 GB"));
}

TEST_CASE("sweep runs every point and reports speedup per point", "[integration][cli][sweep]") {
    test::TempDir dir;
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    const auto result = test::run_dtsim({"sweep", scenario, "--vary", "cluster.nodes=1,2,4", "--vary",
                                         "training.strategy.bucket=25MB,50MB", "--jobs", "2", "--json",
                                         dir.file("sweep.json"), "--db", dir.file("runs.db")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("speedup"));
    const auto json = read_json(dir.file("sweep.json"));
    REQUIRE(json.size() == 6);
    CHECK(json[0]["overrides"]["cluster.nodes"] == "1");
    CHECK(json[5]["overrides"]["training.strategy.bucket"] == "50MB");
    // More GPUs never lowers throughput in this communication-light configuration.
    CHECK(json[4]["result"]["samples_per_s"].get<double>() > json[0]["result"]["samples_per_s"].get<double>());
    const auto list = test::run_dtsim({"runs", "list", "--db", dir.file("runs.db")});
    CHECK_THAT(list.output, Catch::Contains("6 "));
}

TEST_CASE("under mpirun a sweep splits its points over the ranks and rank 0 prints them all", "[integration][cli][mpi]") {
    test::TempDir dir;
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    // Open MPI's own start-up allocations read as leaks to LeakSanitizer in the sanitizer build.
    const auto result = test::run_command("mpirun", {"--allow-run-as-root", "--oversubscribe", "-x", "ASAN_OPTIONS=detect_leaks=0", "-np", "2",
                                                     test::dtsim_executable(),
                                                     "sweep", scenario, "--vary", "cluster.nodes=1,2,4", "--jobs", "1",
                                                     "--json", dir.file("sweep.json"), "--progress-lines"});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("sweep (rank 1): [1/1] points, "));
    const auto json = read_json(dir.file("sweep.json"));
    REQUIRE(json.size() == 3);
    for (size_t i = 0; i < 3; ++i) CHECK(json[i]["result"]["gpus"] == 8 << i);
}

TEST_CASE("a deadlocked simulation names the blocked actors and exits with 3", "[integration][cli][deadlock]") {
    test::TempDir dir;
    std::ofstream(dir.file("deadlock.yaml")) << test::closed_form_scenario(4, "{kind: allreduce, algorithm: ring}", "step", 1e6,
                                                                           "100Gbps", "5us")
                                             << "debug: {lose_message_to_rank: 1}\n";
    const auto result = test::run_dtsim({"simulate", dir.file("deadlock.yaml")});
    CAPTURE(result.output);
    CHECK(result.exit_code == 3);
    CHECK_THAT(result.output, Catch::Contains("deadlocked"));
    CHECK_THAT(result.output, Catch::Contains("rank 1: waiting for a collective message (peer rank 0)"));
}

TEST_CASE("an unknown subcommand is named, with --help too, and exits 2", "[integration][cli]") {
    for (const auto& arguments : {std::vector<std::string>{"plot", "--help"}, std::vector<std::string>{"plot"},
                                  std::vector<std::string>{"simulat", "x.yaml"}}) {
        CAPTURE(arguments.front());
        const auto result = test::run_dtsim(arguments);
        CHECK(result.exit_code == 2);
        CHECK_THAT(result.output, Catch::Contains("unknown subcommand '" + arguments.front() + "'"));
        CHECK_THAT(result.output, Catch::Contains("expected one of: simulate, sweep, runs"));
    }
    CHECK_THAT(test::run_dtsim({"simulat", "x.yaml"}).output, Catch::Contains("did you mean 'simulate'?"));
    // Known subcommands and options are unchanged.
    CHECK(test::run_dtsim({"simulate", "--help"}).exit_code == 0);
    CHECK(test::run_dtsim({"--version"}).exit_code == 0);
}

}  // namespace cli_test

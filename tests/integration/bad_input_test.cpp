// Bad input end to end: every scenario in tests/data/bad_scenarios must be rejected by `dtsim simulate`
// with exit code 2 and one clear line naming the file, the line and the key. Each file starts with one
// or more `# expect: <substring>` comment lines giving text the message must contain.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

namespace bad_input_test {

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> bad_scenarios() {
    const auto dir = dtsim::test::source_dir() / "tests" / "data" / "bad_scenarios";
    std::vector<fs::path> files;
    if (!fs::is_directory(dir)) return files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

long error_lines(const std::string& output) {
    const auto lines = lines_of(output);
    return std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("dtsim: error:", 0) == 0; });
}

const char* const kValidScenario = R"(name: example
cluster:
  nodes: 8
  gpus_per_node: 1
  gpu: h100-sxm
  nic: {bandwidth: 100Gbps, latency: 5us}
  fabric: {topology: star}
  network_model: ideal
model: {gradient_bytes: 100MB, forward_time: 30ms, backward_time: 60ms, batch_per_gpu: 32}
training:
  iterations: 3
  strategy: {kind: allreduce, algorithm: ring, bucket: 25MB, overlap: true}
)";

std::string write_valid_scenario(const dtsim::test::TempDir& dir) {
    const auto path = dir.file("example.yaml");
    std::ofstream(path) << kValidScenario;
    return path;
}

}  // namespace

TEST_CASE("every bad scenario is rejected with one located message naming the key", "[integration][input]") {
    const auto files = bad_scenarios();
    {
        INFO("corpus: " << (dtsim::test::source_dir() / "tests" / "data" / "bad_scenarios").string());
        REQUIRE(files.size() >= 25);
    }

    std::vector<std::vector<std::string>> runs;
    for (const auto& file : files) runs.push_back({"simulate", file.string()});
    const auto results = dtsim::test::run_dtsim_each(runs);  // ~0.3 s a start under the sanitizers: in parallel
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto& file = files[i];
        const std::string name = file.filename().string();
        CAPTURE(name);
        const auto expected = dtsim::test::expectations(file);
        {
            INFO(name << " must open with a '# expect: <substring>' comment");
            CHECK_FALSE(expected.empty());
        }

        const auto& result = results[i];
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        for (const auto& substring : expected) {
            CAPTURE(substring);
            CHECK(result.output.find(substring) != std::string::npos);
        }
        CHECK(result.output.find(name) != std::string::npos);
        CHECK(error_lines(result.output) == 1);
        // One clear line: nothing else printed (no partial report, no library chatter).
        CHECK(lines_of(result.output).size() == 1);
    }
}

TEST_CASE("the scenario the corpus is derived from is valid", "[integration][input]") {
    dtsim::test::TempDir dir;
    const auto result = dtsim::test::run_dtsim({"simulate", write_valid_scenario(dir), "--quiet"});
    CAPTURE(result.output);
    CHECK(result.exit_code == 0);
    CHECK(error_lines(result.output) == 0);
}

TEST_CASE("a bad value given with --set is reported against the option", "[integration][input]") {
    dtsim::test::TempDir dir;
    const auto scenario = write_valid_scenario(dir);

    SECTION("out-of-range value") {
        const auto result = dtsim::test::run_dtsim({"simulate", scenario, "--set", "cluster.nodes=0"});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK(result.output.find("--set cluster.nodes=0") != std::string::npos);
        CHECK(result.output.find("key 'cluster.nodes'") != std::string::npos);
        CHECK(error_lines(result.output) == 1);
        CHECK(lines_of(result.output).size() == 1);
    }
    SECTION("unknown key, with a suggestion") {
        const auto result = dtsim::test::run_dtsim({"simulate", scenario, "--set", "cluster.nodez=4"});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK(result.output.find("--set cluster.nodez=4") != std::string::npos);
        CHECK(result.output.find("key 'cluster.nodez'") != std::string::npos);
        CHECK(result.output.find("did you mean 'nodes'") != std::string::npos);
        CHECK(error_lines(result.output) == 1);
    }
    SECTION("an option without '='") {
        const auto result = dtsim::test::run_dtsim({"simulate", scenario, "--set", "cluster.nodes"});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK(result.output.find("--set 'cluster.nodes'") != std::string::npos);
        CHECK(error_lines(result.output) == 1);
    }
    SECTION("a path through a value that is not a section") {
        const auto result = dtsim::test::run_dtsim({"simulate", scenario, "--set", "name.first=x"});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK(result.output.find("--set name.first=x") != std::string::npos);
        CHECK(result.output.find("key 'name'") != std::string::npos);
        CHECK(error_lines(result.output) == 1);
    }
    SECTION("a value that is not UTF-8") {
        const auto result = dtsim::test::run_dtsim({"simulate", scenario, "--set", "name=caf\xe9"});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK(result.output.find("command line: --set: expected UTF-8 text, got the byte 0xe9 in 'name=caf\\xe9'") !=
              std::string::npos);
        CHECK(error_lines(result.output) == 1);
    }
}

TEST_CASE("a scenario file that cannot be read is reported with exit code 2", "[integration][input]") {
    dtsim::test::TempDir dir;
    const auto missing = dir.file("no-such-scenario.yaml");
    const auto result = dtsim::test::run_dtsim({"simulate", missing});
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("no-such-scenario.yaml") != std::string::npos);
    CHECK(error_lines(result.output) == 1);
}

TEST_CASE("an empty scenario file name is named as such", "[integration][input]") {
    const auto result = dtsim::test::run_dtsim({"simulate", ""});
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("'' (an empty file name): expected the name of a file to read") != std::string::npos);
    CHECK(lines_of(result.output).size() == 1);
}

}  // namespace bad_input_test

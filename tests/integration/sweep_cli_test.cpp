// `dtsim sweep` with invalid points: each is skipped with one line naming it and why, the others run and
// are stored, and the exit code says some were skipped. The file's own `sweep:` section is checked when
// the file loads, but not against the points of a sweep that --vary replaced it with.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "test_support.hpp"

namespace sweep_cli_test {

using namespace dtsim;

TEST_CASE("a sweep skips its invalid points, runs and stores the rest, and exits 2 with a count", "[integration][cli][sweep]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("small-sweep");
    const auto result = test::run_dtsim({"sweep", dir.file("small.yaml"), "--set", "training.compression={kind: powersgd, rank: 4}",
                                         "--vary", "training.strategy={kind: allreduce},{kind: parameter-server, servers: 1}",
                                         "--vary", "cluster.nodes=2,4", "--jobs", "2", "--db", dir.file("out/runs.db"),
                                         "--json", dir.file("out/sweep.json"), "--label", "powersgd"});
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains("skipping point 3 (training.strategy={kind: parameter-server, servers: 1}, "
                                              "cluster.nodes=2): ") &&
                                  Catch::Contains("powersgd needs an all-reduce"));
    CHECK_THAT(result.output, Catch::Contains("skipping point 4 ("));
    CHECK_THAT(result.output, Catch::Contains("2 of 4 point(s) skipped"));
    std::ifstream in(dir.file("out/sweep.json"));
    const auto json = nlohmann::json::parse(in);
    REQUIRE(json.size() == 4);
    CHECK(json[1]["result"]["gpus"] == 4);
    CHECK(json[2]["result"].is_null());

    const auto list = test::run_dtsim({"runs", "list", "--db", dir.file("out/runs.db"), "--where", "label=powersgd"});
    CAPTURE(list.output);
    CHECK_THAT(list.output, Catch::Contains("\n 1 ") && Catch::Contains("\n 2 ") && !Catch::Contains("\n 3 "));
}

TEST_CASE("a sweep whose points are all invalid runs nothing and exits 2", "[integration][cli][sweep]") {
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    const auto result = test::run_dtsim({"sweep", scenario, "--vary", "cluster.nodes=0,-1"});
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains("skipping point 1 (cluster.nodes=0): ") && Catch::Contains("cluster.nodes"));
    CHECK_THAT(result.output, Catch::Contains("2 of 2 point(s) skipped"));
}

TEST_CASE("a sweep's --vary replaces the file's sweep: section, which is still checked on its own", "[integration][cli][sweep]") {
    test::TempDir dir;
    // Valid as written; its powersgd value would not be with a parameter server.
    std::ofstream(dir.file("swept.yaml")) << test::quick_scenario("small-sweep") << "sweep:\n  training.compression: [{kind: fp16}, {kind: powersgd, rank: 4}]\n";
    const auto replaced = test::run_dtsim({"sweep", dir.file("swept.yaml"), "--vary",
                                           "training.strategy={kind: parameter-server, servers: 1}", "--jobs", "1"});
    CAPTURE(replaced.output);
    CHECK(replaced.exit_code == 0);
    CHECK_THAT(replaced.output, Catch::Contains("1 point(s)"));

    std::ofstream(dir.file("bad.yaml")) << test::quick_scenario("small-sweep") << "sweep:\n  cluster.nodes: [2, 0]\n";
    const auto bad = test::run_dtsim({"sweep", dir.file("bad.yaml"), "--vary", "cluster.nodes=2"});
    CAPTURE(bad.output);
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.output, Catch::Contains("the value 0 does not give a valid scenario"));
}

namespace {

// "key=-1,-2,...,-count": values no scenario accepts for cluster.nodes, so that checking is all a sweep does.
std::string invalid_nodes(int count) {
    std::string values;
    for (int i = 1; i <= count; ++i) values += (i > 1 ? "," : "") + std::to_string(-i);
    return "cluster.nodes=" + values;
}

}  // namespace

TEST_CASE("a sweep of more points than --max-points is refused before any is checked", "[integration][cli][sweep]") {
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    // 50 × 50 × 50: checked silently for a minute before the cap.
    std::string fifty;
    for (int i = 1; i <= 50; ++i) fifty += (i > 1 ? "," : "") + std::to_string(i);
    const auto refused = test::run_dtsim({"sweep", scenario, "--vary", "cluster.nodes=" + fifty, "--vary",
                                          "training.iterations=" + fifty, "--vary", "model.batch_per_gpu=" + fifty});
    CAPTURE(refused.output);
    CHECK(refused.exit_code == 2);
    CHECK_THAT(refused.output, Catch::Contains("command line: --vary: the sweep has 125000 points (50 × 50 × 50); "
                                               "expected at most 1024 (give --max-points N to allow more)"));
    CHECK_THAT(refused.output, !Catch::Contains("checked") && !Catch::Contains("skipping point"));

    const auto capped = test::run_dtsim({"sweep", scenario, "--vary", invalid_nodes(120), "--max-points", "100"});
    CAPTURE(capped.output);
    CHECK(capped.exit_code == 2);
    CHECK_THAT(capped.output, Catch::Contains("the sweep has 120 points (120); expected at most 100"));
}

TEST_CASE("a sweep that --max-points allows says its progress while its points are checked", "[integration][cli][sweep]") {
    const auto scenario = (test::source_dir() / "scenarios" / "resnet50-h100-ring.yaml").string();
    const auto result = test::run_dtsim({"sweep", scenario, "--vary", invalid_nodes(200), "--max-points", "200"});
    CAPTURE(result.output.substr(0, 2000));
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains("checked 20/200 points\n") && Catch::Contains("checked 200/200 points\n"));
    CHECK_THAT(result.output, Catch::Contains("200 of 200 point(s) skipped"));
}

}  // namespace sweep_cli_test

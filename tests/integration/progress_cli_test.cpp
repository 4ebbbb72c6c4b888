// Progress of long commands: a line on a terminal (its text: tests/unit/progress_text_test.cpp), nothing
// when stderr is not a terminal (as here, where the tests read it through a pipe), one line per unit of
// work with --progress-lines, nothing with --quiet.
#include <catch2/catch.hpp>

#include <fstream>

#include "test_support.hpp"

namespace progress_cli_test {

using namespace dtsim;

TEST_CASE("simulate shows no progress when stderr is not a terminal, lines when asked, nothing when quiet", "[integration][cli][progress]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("progress");
    const auto plain = test::run_dtsim({"simulate", dir.file("small.yaml")});
    CAPTURE(plain.output);
    REQUIRE(plain.exit_code == 0);
    CHECK_THAT(plain.output, Catch::Contains("iteration time") && !Catch::Contains("simulate: [") && !Catch::Contains("\r"));

    const auto lines = test::run_dtsim({"simulate", dir.file("small.yaml"), "--progress-lines"});
    CAPTURE(lines.output);
    REQUIRE(lines.exit_code == 0);
    CHECK_THAT(lines.output, Catch::Contains("simulate: [2/2] iterations, ") && Catch::Contains(" simulated, ") &&
                                 Catch::Contains(" events/s, ") && Catch::Contains(" elapsed, ETA 0:00\n"));

    const auto quiet = test::run_dtsim({"simulate", dir.file("small.yaml"), "--quiet", "--progress-lines"});
    CHECK(quiet.exit_code == 0);
    CHECK(quiet.output.empty());
}

TEST_CASE("sweep shows no progress when stderr is not a terminal, lines when asked, nothing when quiet", "[integration][cli][progress][sweep]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("progress");
    const std::vector<std::string> sweep{"sweep", dir.file("small.yaml"), "--vary", "cluster.nodes=2,4", "--jobs", "2"};
    auto with = [&](std::vector<std::string> extra) {
        auto args = sweep;
        args.insert(args.end(), extra.begin(), extra.end());
        return test::run_dtsim(args);
    };
    const auto plain = with({});
    CAPTURE(plain.output);
    REQUIRE(plain.exit_code == 0);
    CHECK_THAT(plain.output, Catch::Contains("2 point(s)") && !Catch::Contains("sweep: [") && !Catch::Contains("\r"));

    const auto lines = with({"--progress-lines"});
    CAPTURE(lines.output);
    REQUIRE(lines.exit_code == 0);
    CHECK_THAT(lines.output, Catch::Contains("sweep: [2/2] points, ") && Catch::Contains(" elapsed, ETA 0:00\n"));

    const auto quiet = with({"--quiet", "--progress-lines"});
    CAPTURE(quiet.output);
    REQUIRE(quiet.exit_code == 0);
    CHECK_THAT(quiet.output, Catch::Contains("2 point(s)") && !Catch::Contains("sweep: ["));
}

TEST_CASE("a sweep prints each distinct scenario warning once, naming the points that give it", "[integration][cli][sweep]") {
    test::TempDir dir;
    std::ofstream(dir.file("small.yaml")) << test::quick_scenario("warned");
    const auto every = test::run_dtsim({"sweep", dir.file("small.yaml"), "--set", "training.strategy.bucket=25", "--vary",
                                        "cluster.nodes=2,4", "--jobs", "2"});
    CAPTURE(every.output);
    REQUIRE(every.exit_code == 0);
    CHECK(test::occurrences(every.output, "dtsim: warning:") == 1);
    CHECK_THAT(every.output, Catch::Contains("implausibly small bucket") && Catch::Contains("(every point)\n"));

    const auto some = test::run_dtsim({"sweep", dir.file("small.yaml"), "--vary", "training.strategy.bucket=25MB,25,50",
                                       "--vary", "cluster.nodes=2,4", "--jobs", "2"});
    CAPTURE(some.output);
    REQUIRE(some.exit_code == 0);
    // Two values, two warnings (each names its own --vary value), each for the two points of that value.
    CHECK(test::occurrences(some.output, "dtsim: warning:") == 2);
    CHECK_THAT(some.output, Catch::Contains("(points 3-4)\n") && Catch::Contains("(points 5-6)\n"));

    const auto quiet = test::run_dtsim({"sweep", dir.file("small.yaml"), "--set", "training.strategy.bucket=25", "--vary",
                                        "cluster.nodes=2", "--quiet"});
    CHECK(quiet.exit_code == 0);
    CHECK(test::occurrences(quiet.output, "warning") == 0);
}

}  // namespace progress_cli_test

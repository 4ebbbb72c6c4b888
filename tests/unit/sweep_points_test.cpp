#include <catch2/catch.hpp>

#include "dtsim/input_error.hpp"
#include "sweep_points.hpp"

namespace sweep_points_test {

using namespace dtsim;

TEST_CASE("sweep values split on top-level commas only", "[unit][sweep]") {
    auto axis = cli::parse_vary_option("cluster.nodes=1,2,4");
    CHECK(axis.key == "cluster.nodes");
    CHECK(axis.values == std::vector<std::string>{"1", "2", "4"});
    axis = cli::parse_vary_option("training.strategy={kind: allreduce},{kind: parameter-server, servers: 4}");
    REQUIRE(axis.values.size() == 2);
    CHECK(axis.values[1] == "{kind: parameter-server, servers: 4}");
    CHECK_THROWS_AS(cli::parse_vary_option("cluster.nodes"), InputError);
    CHECK_THROWS_AS(cli::parse_vary_option("cluster.nodes=1,,2"), InputError);
}

TEST_CASE("sweep points are the cross product of the axes", "[unit][sweep]") {
    const auto points = cli::expand_sweep({{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}});
    REQUIRE(points.size() == 6);
    CHECK(cli::as_overrides(points[0]) == std::vector<std::string>{"a=1", "b=x"});
    CHECK(cli::as_overrides(points[5]) == std::vector<std::string>{"a=2", "b=z"});
}

TEST_CASE("a sweep's points are counted before they are built, and capped", "[unit][sweep]") {
    const std::vector<SweepAxis> axes{{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}};
    CHECK(cli::count_sweep_points(axes, 6, "command line: --vary") == 6);
    CHECK_THROWS_WITH(cli::count_sweep_points(axes, 5, "command line: --vary"),
                      "command line: --vary: the sweep has 6 points (2 × 3); expected at most 5 (give --max-points N "
                      "to allow more)");
    // Fifty axes of ten values: 10^50 points, counted without overflowing.
    const std::vector<SweepAxis> many(50, SweepAxis{"a", std::vector<std::string>(10, "1")});
    CHECK_THROWS_WITH(cli::count_sweep_points(many, cli::kMaxSweepPoints, "s.yaml: key 'sweep'"),
                      Catch::StartsWith("s.yaml: key 'sweep': the sweep has more than 1024 points (10 × 10"));
}

TEST_CASE("a sweep's warnings are said once each, naming the points that give them", "[unit][sweep]") {
    CHECK(cli::sweep_warnings({{"small"}, {"small", "batch"}, {}, {"small"}, {"batch"}, {"batch"}}) ==
          std::vector<std::string>{"small (points 1-2, 4)", "batch (points 2, 5-6)"});
    CHECK(cli::sweep_warnings({{"small"}, {"small"}, {"small"}}) == std::vector<std::string>{"small (every point)"});
    CHECK(cli::sweep_warnings({{"small"}}) == std::vector<std::string>{"small (point 1)"});
    CHECK(cli::sweep_warnings({{}, {}}).empty());
}

}  // namespace sweep_points_test

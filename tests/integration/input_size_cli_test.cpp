// Input files are read up to 16 MiB: /dev/zero given as a scenario or a profile, or a file of that size,
// is refused at once with exit 2, instead of being read without bound.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "test_support.hpp"

namespace input_size_cli_test {

using namespace dtsim;

TEST_CASE("a scenario or profile beyond 16 MiB, or without end, is refused with exit 2", "[integration][input]") {
    SECTION("/dev/zero as the scenario") {
        const auto result = test::run_dtsim({"simulate", "/dev/zero"});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK_THAT(result.output, Catch::Contains("/dev/zero: larger than 16 MiB; expected a scenario, profile"));
    }
    SECTION("/dev/zero as the profile") {
        test::TempDir dir;
        std::ofstream(dir.file("s.yaml")) << test::quick_scenario("zero-profile") << "profile: /dev/zero\n";
        const auto result = test::run_dtsim({"simulate", dir.file("s.yaml")});
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK_THAT(result.output, Catch::Contains("/dev/zero: larger than 16 MiB"));
    }
    SECTION("a scenario file of 16 MiB and one byte") {
        test::TempDir dir;
        {
            std::ofstream out(dir.file("big.yaml"));
            out << test::quick_scenario("big") << "# ";
            out << std::string((16u << 20) + 1, 'x') << "\n";
        }
        const auto result = test::run_dtsim({"simulate", dir.file("big.yaml")});
        CAPTURE(result.output.substr(0, 500));
        CHECK(result.exit_code == 2);
        CHECK_THAT(result.output, Catch::Contains("big.yaml: larger than 16 MiB"));
    }
}

}  // namespace input_size_cli_test

// `dtsim validate` end to end: a stored measurement against the simulation with a profile, and refusals.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "dtsim/run_store.hpp"
#include "dtsim/scenario.hpp"
#include "test_support.hpp"

namespace validate_cli_test {

using namespace dtsim;

namespace {

const std::vector<std::string> kSets{"cluster.nodes=2", "training.iterations=3"};

std::string shipped(const char* folder, const char* file) { return (test::source_dir() / folder / file).string(); }

// A measurement of `loaded` taking `seconds` per iteration, stored as dtsim-runtime measure stores one.
void store_measurement(const std::string& db, const Scenario& loaded, double seconds) {
    Run measured;
    measured.kind = RunKind::measured;
    measured.scenario_name = loaded.name;
    measured.scenario_hash = loaded.hash;
    measured.scenario_text = loaded.canonical_text;
    measured.strategy = "allreduce/ring";
    measured.summary.gpus = loaded.cluster.gpus();
    measured.summary.iteration_time_s = seconds;
    measured.summary.samples_per_s = 1000;
    RunStore(db).append(measured);
}

nlohmann::json read_json_file(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("dtsim validate reports the exact error of the simulation against the stored measurement", "[integration][validate]") {
    test::TempDir dir;
    const auto scenario = shipped("scenarios", "resnet50-h100-ring.yaml");
    const auto profile = shipped("data/profiles", "dgx-h100.datasheet.json");
    const auto db = dir.file("runs.db");
    // A measurement of that scenario with those overrides.
    store_measurement(db, load_scenario_file(scenario, kSets), 0.005);

    const auto simulated = test::run_dtsim({"simulate", scenario, "--quiet", "--set", kSets[0], "--set", kSets[1], "--set",
                                            "profile=" + profile, "--json", dir.file("predicted.json")});
    REQUIRE(simulated.exit_code == 0);
    const auto predicted = read_json_file(dir.file("predicted.json"));
    const double predicted_s = predicted["iteration_time_s"].get<double>();
    const double predicted_rate = predicted["samples_per_s"].get<double>();

    const auto result = test::run_dtsim({"validate", scenario, "--profile", profile, "--db", db, "--set", kSets[0], "--set", kSets[1],
                                         "--json", dir.file("validate.json"), "--progress-lines"});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("over 1 scenario(s): median") && Catch::Contains("validate: [1/1] scenarios, "));
    const auto rows = read_json_file(dir.file("validate.json"));
    REQUIRE(rows.size() == 1);
    const auto& metrics = rows[0]["comparison"]["metrics"];
    CHECK(metrics["iteration_time_s"]["relative_error"].get<double>() == Approx(predicted_s / 0.005 - 1).epsilon(1e-12));
    CHECK(metrics["samples_per_s"]["relative_error"].get<double>() == Approx(predicted_rate / 1000 - 1).epsilon(1e-12));
    CHECK(rows[0]["comparison"]["reference"]["kind"] == "measured");
    // One scenario: its |error| is the median, the 90th percentile and the max.
    char error[32];
    std::snprintf(error, sizeof error, "%.2f %%", 100 * std::fabs(predicted_s / 0.005 - 1));
    CHECK_THAT(result.output, Catch::Contains(std::string("median ") + error + ", p90 " + error + ", max " + error));
}

TEST_CASE("dtsim validate refuses a scenario without a stored measurement, naming how to measure it", "[integration][validate]") {
    test::TempDir dir;
    const auto scenario = shipped("scenarios", "resnet50-h100-ring.yaml");
    const auto profile = shipped("data/profiles", "dgx-h100.datasheet.json");
    const auto db = dir.file("runs.db");
    // Only a prediction is stored: it is not a measurement.
    REQUIRE(test::run_dtsim({"simulate", scenario, "--quiet", "--set", kSets[0], "--set", kSets[1], "--db", db}).exit_code == 0);
    const auto result = test::run_dtsim({"validate", scenario, "--profile", profile, "--db", db, "--set", kSets[0], "--set", kSets[1], "--quiet"});
    CAPTURE(result.output);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.output, Catch::Contains("no measured run of this scenario") && Catch::Contains("dtsim-runtime measure"));
    const auto missing = test::run_dtsim({"validate", scenario, "--profile", dir.file("nope.json"), "--db", db});
    CHECK(missing.exit_code == 2);
    CHECK_THAT(missing.output, Catch::Contains("nope.json: no such profile file"));
}

TEST_CASE("dtsim validate takes the median of repeated measurements and a profile the scenario names", "[integration][validate]") {
    test::TempDir dir;
    const auto profile = shipped("data/profiles", "dgx-h100.datasheet.json");
    // The shipped scenario with its own `profile:` key.
    std::ifstream shipped_scenario(shipped("scenarios", "resnet50-h100-ring.yaml"));
    std::stringstream text;
    text << shipped_scenario.rdbuf() << "\nprofile: " << profile << "\n";
    const auto scenario = dir.file("with-profile.yaml");
    std::ofstream(scenario) << text.str();
    const auto db = dir.file("runs.db");
    const auto loaded = load_scenario_file(scenario, kSets);
    for (double seconds : {0.004, 0.009, 0.005}) store_measurement(db, loaded, seconds);  // the median is the 5 ms one
    const auto simulated = test::run_dtsim({"simulate", scenario, "--quiet", "--set", kSets[0], "--set", kSets[1], "--json",
                                            dir.file("predicted.json")});
    REQUIRE(simulated.exit_code == 0);
    const double predicted_s = read_json_file(dir.file("predicted.json"))["iteration_time_s"].get<double>();

    const auto result = test::run_dtsim({"validate", scenario, "--db", db, "--set", kSets[0], "--set", kSets[1], "--json",
                                         dir.file("validate.json")});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.output, Catch::Contains("each scenario's profile"));
    const auto rows = read_json_file(dir.file("validate.json"));
    REQUIRE(rows.size() == 1);
    CHECK(rows[0]["comparison"]["metrics"]["iteration_time_s"]["relative_error"].get<double>() ==
          Approx(predicted_s / 0.005 - 1).epsilon(1e-12));
    // Beside the median, the spread of the repetitions: the fastest and the slowest.
    CHECK(rows[0]["measured_runs"] == 3);
    CHECK(rows[0]["measured_low_s"].get<double>() == Approx(0.004));
    CHECK(rows[0]["measured_high_s"].get<double>() == Approx(0.009));
    CHECK_THAT(result.output, Catch::Contains("4.000 ms - 9.000 ms"));

    // A predicted interval needs a profile that kept its standard errors; a datasheet has none.
    const auto interval = test::run_dtsim({"validate", scenario, "--db", db, "--set", kSets[0], "--set", kSets[1], "--uncertainty", "3"});
    CHECK(interval.exit_code == 2);
    CHECK_THAT(interval.output, Catch::Contains("kept no standard errors"));

    // Without a profile anywhere, validate says so.
    const auto bare = test::run_dtsim({"validate", shipped("scenarios", "resnet50-h100-ring.yaml"), "--db", db});
    CHECK(bare.exit_code == 2);
    CHECK_THAT(bare.output, Catch::Contains("names no profile; give --profile FILE"));
}

}  // namespace validate_cli_test

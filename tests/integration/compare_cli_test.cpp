// `dtsim compare` end to end: run ids in a database, JSON files, --json, and bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "dtsim/run_json.hpp"
#include "test_support.hpp"

namespace compare_cli_test {

using namespace dtsim;

namespace {

void write_run_json(const std::string& path, RunKind kind, double iteration_s, double comm_s) {
    Run run;
    run.kind = kind;
    run.scenario_name = "known";
    run.summary.gpus = 4;
    run.summary.iteration_time_s = iteration_s;
    run.summary.samples_per_s = 128 / iteration_s;
    run.summary.compute_time_s = 0.1;
    run.summary.comm_time_s = comm_s;
    run.summary.comm_share = comm_s / iteration_s;
    run.iterations = {{0, iteration_s}};
    std::ofstream(path) << run_summary_json_text(run);
}

}  // namespace

TEST_CASE("dtsim compare of a stored run with itself reports zero error, per rank too", "[integration][compare]") {
    test::TempDir dir;
    const auto scenario = dir.file("s.yaml");
    std::ofstream(scenario) << test::closed_form_scenario(2, "{kind: allreduce, algorithm: ring}", "step", 8e6, "10Gbps", "5us");
    const auto db = dir.file("runs.db");
    REQUIRE(test::run_dtsim({"simulate", scenario, "--db", db, "--quiet"}).exit_code == 0);

    const auto text = test::run_dtsim({"compare", "1", "1", "--db", db});
    CAPTURE(text.output);
    REQUIRE(text.exit_code == 0);
    CHECK(text.output.find("per rank, per iteration") != std::string::npos);
    CHECK(text.output.find("verdict: other run within 0.0 % from the reference") != std::string::npos);

    const auto json_result = test::run_dtsim({"compare", "1", "1", "--db", db, "--json"});
    REQUIRE(json_result.exit_code == 0);
    const auto json = nlohmann::json::parse(json_result.output);
    for (const auto& [key, value] : json["metrics"].items()) {
        CAPTURE(key);
        CHECK(value["relative_error"] == 0.0);
    }
    REQUIRE(json["ranks"].size() == 2);
    CHECK(json["ranks"][1]["comm_s"]["relative_error"] == 0.0);
}

TEST_CASE("dtsim compare of two JSON files reports their exact relative errors, the measured one as reference",
          "[integration][compare]") {
    test::TempDir dir;
    write_run_json(dir.file("predicted.json"), RunKind::predicted, 0.5, 0.125);
    write_run_json(dir.file("measured.json"), RunKind::measured, 0.4, 0.1);
    const auto result = test::run_dtsim({"compare", dir.file("predicted.json"), dir.file("measured.json"), "--json"});
    CAPTURE(result.output);
    REQUIRE(result.exit_code == 0);
    const auto json = nlohmann::json::parse(result.output);
    CHECK(json["reference"]["kind"] == "measured");
    CHECK(json["metrics"]["iteration_time_s"]["relative_error"].get<double>() == Approx(0.25).epsilon(1e-12));
    CHECK(json["metrics"]["samples_per_s"]["relative_error"].get<double>() == Approx(-0.2).epsilon(1e-12));
    CHECK(json["metrics"]["comm_time_s"]["relative_error"].get<double>() == Approx(0.25).epsilon(1e-12));
    CHECK(json["metrics"]["comm_share"]["relative_error"].get<double>() == Approx(0.0).margin(1e-12));
    CHECK(json["metrics"]["compute_share"]["relative_error"].get<double>() == Approx(-0.2).epsilon(1e-12));
    CHECK(json["ranks"].empty());
    CHECK(json["verdict"] == "prediction off by 25.0 % from measurement (iteration time; predicted slower)");

    const auto table = test::run_dtsim({"compare", dir.file("predicted.json"), dir.file("measured.json")});
    CHECK(table.output.find("+25.00 %") != std::string::npos);
    CHECK(table.output.find("no per-rank rows") != std::string::npos);
}

TEST_CASE("dtsim compare refuses a missing run id or an unreadable file with one message and exit 2", "[integration][compare]") {
    test::TempDir dir;
    write_run_json(dir.file("a.json"), RunKind::predicted, 0.5, 0.1);
    std::ofstream(dir.file("broken.json")) << "{not json";
    const struct {
        std::vector<std::string> args;
        std::string expected;
    } cases[] = {
        {{"compare", "3", dir.file("a.json"), "--db", dir.file("none.db")}, "run 3: no runs database at"},
        {{"compare", dir.file("a.json"), dir.file("missing.json")}, "missing.json: cannot read this file"},
        {{"compare", dir.file("broken.json"), dir.file("a.json")}, "broken.json: not valid JSON"},
    };
    for (const auto& c : cases) {
        const auto result = test::run_dtsim(c.args);
        CAPTURE(result.output);
        CHECK(result.exit_code == 2);
        CHECK(result.output.find(c.expected) != std::string::npos);
        CHECK(std::count(result.output.begin(), result.output.end(), '\n') == 1);
    }
    // An id the database does not hold.
    const auto scenario = dir.file("s.yaml");
    std::ofstream(scenario) << test::closed_form_scenario(2, "{kind: allreduce, algorithm: ring}", "step", 8e6, "10Gbps", "5us");
    REQUIRE(test::run_dtsim({"simulate", scenario, "--db", dir.file("runs.db"), "--quiet"}).exit_code == 0);
    const auto result = test::run_dtsim({"compare", "1", "7", "--db", dir.file("runs.db")});
    CHECK(result.exit_code == 2);
    CHECK(result.output.find("run 7: no run with this id") != std::string::npos);
}

}  // namespace compare_cli_test

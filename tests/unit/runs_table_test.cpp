// What `dtsim runs` and the run report print: --where conditions, the CSV export, thousands separators,
// and shares of the iteration that add up.
#include <catch2/catch.hpp>

#include <sstream>

#include "dtsim/input_error.hpp"
#include "run_filter.hpp"
#include "run_report.hpp"
#include "runs_csv.hpp"
#include "text_table.hpp"

namespace runs_table_test {

using namespace dtsim;

namespace {

RunListEntry entry(std::map<std::string, std::string> overrides, std::string label) {
    RunListEntry run;
    run.id = 7;
    run.scenario_name = "s";
    run.strategy = "allreduce/ring";
    run.created_at = "2026-01-01T00:00:00Z";
    run.scenario_text = "name: s\ncluster: {nodes: 2, nic: ib-ndr}\n";
    run.overrides = std::move(overrides);
    run.label = std::move(label);
    run.summary.gpus = 2;
    run.summary.samples_per_s = 1234.5;
    return run;
}

}  // namespace

TEST_CASE("a --where condition matches an override, else the key as the scenario file wrote it, or the label", "[unit][runs]") {
    const auto overridden = entry({{"cluster.nodes", "8"}}, "big");
    const auto plain = entry({}, "");
    CHECK(cli::matches(overridden, cli::parse_run_condition("cluster.nodes=8")));
    CHECK_FALSE(cli::matches(plain, cli::parse_run_condition("cluster.nodes=8")));
    CHECK(cli::matches(plain, cli::parse_run_condition("cluster.nodes=2")));
    CHECK(cli::matches(plain, cli::parse_run_condition("cluster.nic=ib-ndr")));
    CHECK_FALSE(cli::matches(plain, cli::parse_run_condition("cluster.gpu.preset=x")));
    CHECK(cli::matches(overridden, cli::parse_run_condition("label=big")));
    CHECK_FALSE(cli::matches(plain, cli::parse_run_condition("label=big")));
    CHECK_THROWS_AS(cli::parse_run_condition("cluster.nodes"), InputError);
    CHECK_THROWS_AS(cli::parse_run_condition("=8"), InputError);
}

TEST_CASE("the CSV export has one header, one row per run, and quotes what needs it", "[unit][runs]") {
    std::ostringstream out;
    cli::write_runs_csv(out, {entry({{"a", "1"}, {"b", "{x: 1, y: 2}"}}, "say \"hi\"")});
    std::istringstream rows(out.str());
    std::string header, row, extra;
    std::getline(rows, header);
    std::getline(rows, row);
    CHECK_FALSE(std::getline(rows, extra));
    CHECK(header.rfind("id,kind,scenario,label,strategy,created_at,overrides,gpus,nodes,", 0) == 0);
    CHECK(row.rfind("7,predicted,s,\"say \"\"hi\"\"\",allreduce/ring,2026-01-01T00:00:00Z,\"a=1, b={x: 1, y: 2}\",2,", 0) == 0);
    CHECK_THAT(row, Catch::Contains(",1234.5,"));
}

TEST_CASE("table numbers group thousands", "[unit][runs]") {
    CHECK(cli::fixed(288823.4, 0) == "288,823");
    CHECK(cli::fixed(1234567.891, 2) == "1,234,567.89");
    CHECK(cli::fixed(-4321, 0) == "-4,321");
    CHECK(cli::fixed(999.5, 1) == "999.5");
    CHECK(cli::percent(0.5) == "50.0 %");
}

TEST_CASE("the summary table prints zero durations as 0 and shares that add up", "[unit][runs]") {
    RunSummary s;
    s.iteration_time_s = 0.010;
    s.compute_time_s = 0.0061234;
    s.comm_time_s = 0.008;
    s.exposed_comm_time_s = s.iteration_time_s - s.compute_time_s;
    s.comm_share = 0.8;
    s.tokens_per_s = 288823.4;
    std::ostringstream out;
    cli::print_run_summary_table(out, s, "");
    CAPTURE(out.str());
    CHECK_THAT(out.str(), Catch::Contains("288,823 tokens/s"));
    CHECK_THAT(out.str(), !Catch::Contains("0.000 us"));
    CHECK_THAT(out.str(), Catch::Contains("compute 61.2 % + exposed communication 38.8 % = 100 %"));

    s.compute_time_s = 0.02;  // asynchronous workers: each rank's compute outlasts the job's iteration
    std::ostringstream async;
    cli::print_run_summary_table(async, s, "");
    CHECK_THAT(async.str(), Catch::Contains("do not add up to 100 %"));
}

}  // namespace runs_table_test

// dtsim compare's arithmetic: relative errors against the reference, the reference rule, per-rank times.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <tuple>

#include "dtsim/input_error.hpp"
#include "dtsim/run_comparison.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/units.hpp"
#include "test_support.hpp"

namespace run_comparison_test {

using namespace dtsim;

namespace {

Run run_with(RunKind kind, double iteration_s, double compute_s, double comm_s, double wait_s) {
    Run run;
    run.kind = kind;
    run.scenario_name = "known";
    run.summary.gpus = 2;
    run.summary.iteration_time_s = iteration_s;
    run.summary.samples_per_s = 64 / iteration_s;
    run.summary.compute_time_s = compute_s;
    run.summary.comm_time_s = comm_s;
    run.summary.wait_time_s = wait_s;
    run.summary.comm_share = comm_s / iteration_s;
    run.summary.wait_share = wait_s / iteration_s;
    run.iterations = {{0, iteration_s}, {1, iteration_s}};
    return run;
}

const MetricComparison& metric(const RunComparison& c, const std::string& key) {
    for (const auto& m : c.metrics)
        if (m.key == key) return m;
    FAIL("no metric " << key);
    throw;
}

}  // namespace

TEST_CASE("comparing a run with itself gives zero error everywhere", "[unit][compare]") {
    auto run = run_with(RunKind::predicted, 0.2, 0.15, 0.08, 0.01);
    run.ranks = {{0, 0, "gpu 0"}, {1, 0, "gpu 1"}};
    run.spans = {{0, Lane::compute, "forward", 1, 0, 0.0, 0.1, 0}, {1, Lane::comm, "allreduce", 1, 0, 0.1, 0.2, 8}};
    const auto c = compare_runs(run, run);
    for (const auto& m : c.metrics) {
        CAPTURE(m.key);
        CHECK(m.value.relative_error() == 0.0);
    }
    REQUIRE(c.ranks.size() == 2);
    for (const auto& r : c.ranks) {
        CHECK(r.compute_s.relative_error() == 0.0);
        CHECK(r.comm_s.relative_error() == 0.0);
    }
    CHECK(comparison_verdict(c, run, run) == "other run within 0.0 % from the reference (iteration time; equal)");
}

TEST_CASE("relative errors are the other run's against the reference, which is the measured run", "[unit][compare]") {
    const auto predicted = run_with(RunKind::predicted, 0.22, 0.15, 0.06, 0.0);
    const auto measured = run_with(RunKind::measured, 0.20, 0.12, 0.08, 0.02);
    const auto c = compare_runs(predicted, measured);  // the measured run given second is still the reference
    CHECK_FALSE(c.reference_is_first);
    CHECK(*metric(c, "iteration_time_s").value.relative_error() == Approx(0.1).epsilon(1e-12));
    CHECK(*metric(c, "samples_per_s").value.relative_error() == Approx(0.20 / 0.22 - 1).epsilon(1e-12));
    CHECK(*metric(c, "compute_time_s").value.relative_error() == Approx(0.25).epsilon(1e-12));
    CHECK(*metric(c, "comm_time_s").value.relative_error() == Approx(-0.25).epsilon(1e-12));
    CHECK(*metric(c, "wait_time_s").value.relative_error() == Approx(-1.0).epsilon(1e-12));
    CHECK(*metric(c, "compute_share").value.relative_error() == Approx((0.15 / 0.22) / (0.12 / 0.20) - 1).epsilon(1e-12));
    CHECK(metric(c, "compute_share").format == MetricFormat::share);
    CHECK(comparison_verdict(c, measured, predicted) == "prediction within 10.0 % from measurement (iteration time; predicted slower)");

    SECTION("a reference of zero has no relative error unless the other is zero too") {
        CHECK_FALSE(ComparedValue{0, 1}.relative_error().has_value());
        CHECK(ComparedValue{0, 0}.relative_error() == 0.0);
        const auto json = comparison_json(c, measured, "m", predicted, "p");
        CHECK(json["metrics"]["exposed_comm_time_s"]["relative_error"] == 0.0);
        CHECK(json["reference"]["source"] == "m");
        CHECK(json["iteration_time_error"].get<double>() == Approx(0.1).epsilon(1e-12));
    }
}

TEST_CASE("per-rank times per iteration leave out the first iteration, as the summary does", "[unit][compare]") {
    Run run;
    run.iterations = {{0, 1.0}, {1, 1.0}, {2, 1.0}};
    run.ranks = {{0, 0, "gpu 0"}, {1, 0, "server 0"}};
    run.spans = {{0, Lane::compute, "forward", 0, 0, 0.0, 0.9, 0},  // first iteration: not counted
                 {0, Lane::compute, "forward", 1, 0, 1.0, 1.5, 0},
                 {0, Lane::compute, "forward", 2, 0, 2.0, 2.3, 0},
                 {0, Lane::wait, "wait: servers", 2, 0, 2.3, 2.5, 0},
                 {1, Lane::comm, "send", 1, 0, 1.5, 1.9, 8}};
    const auto times = per_rank_times(run);
    REQUIRE(times.size() == 2);
    CHECK(times[0].compute_s == Approx(0.4));
    CHECK(times[0].wait_s == Approx(0.1));
    CHECK(times[1].label == "server 0");
    CHECK(times[1].comm_s == Approx(0.2));
}

TEST_CASE("a run JSON file reads back as written, and a bad one is named", "[unit][compare]") {
    test::TempDir dir;
    auto run = run_with(RunKind::measured, 0.25, 0.2, 0.1, 0.01);
    run.strategy = "allreduce/ring";
    const auto path = dir.file("run.json");
    std::ofstream(path) << run_summary_json_text(run);
    const auto back = read_run_json_file(path);
    CHECK(back.kind == RunKind::measured);
    CHECK(back.summary == run.summary);
    CHECK(back.iterations == run.iterations);
    CHECK(back.strategy == "allreduce/ring");

    std::ofstream(dir.file("bad.json")) << "{\"kind\": \"measured\"}";
    CHECK_THROWS_WITH(read_run_json_file(dir.file("bad.json")), Catch::Contains("bad.json: not a run JSON"));
    CHECK_THROWS_AS(read_run_json_file(dir.file("missing.json")), InputError);
}

TEST_CASE("large-model rows appear where either run has them, with each run's memory fit", "[unit][compare]") {
    const auto plain = run_with(RunKind::predicted, 0.2, 0.15, 0.08, 0.0);
    auto has = [](const RunComparison& c, const std::string& key) {
        return std::any_of(c.metrics.begin(), c.metrics.end(), [&](const MetricComparison& m) { return m.key == key; });
    };
    const auto without = compare_runs(plain, plain);
    for (const auto* key : {"tokens_per_s", "model_flops_utilisation", "bubble_fraction", "exposed_tp_s", "memory_per_gpu_bytes"})
        CHECK_FALSE(has(without, key));

    auto layout = plain;
    auto& s = layout.summary;
    std::tie(s.tokens_per_s, s.model_flops_utilisation, s.bubble_fraction, s.exposed_pp_s) = std::tuple{2e6, 0.4, 0.1, 0.002};
    std::tie(s.memory_per_gpu_bytes, s.memory_capacity_bytes, s.fits) = std::tuple{93.1e9, 80e9, false};
    const auto c = compare_runs(plain, layout);
    CHECK(metric(c, "tokens_per_s").value.other == 2e6);
    CHECK(format_metric_value(metric(c, "model_flops_utilisation"), 0.4) == "40.0 %");
    CHECK(format_metric_value(metric(c, "bubble_fraction"), 0.1) == "10.0 %");
    CHECK(metric(c, "exposed_pp_s").value.other == 0.002);
    CHECK_FALSE(has(c, "exposed_tp_s"));
    CHECK(format_metric_value(metric(c, "memory_per_gpu_bytes"), 93.1e9) == format_bytes(93.1e9));
    const auto json = comparison_json(c, plain, "a", layout, "b");
    CHECK(json["other"]["fits"] == false);
    CHECK(json["other"]["memory_capacity_bytes"] == 80e9);
    CHECK_FALSE(json["reference"].contains("fits"));  // no estimate: a run from before the memory model
}

}  // namespace run_comparison_test

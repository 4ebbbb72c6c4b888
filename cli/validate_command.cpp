// `dtsim validate SCENARIO... [--profile P] [--uncertainty N]`: each scenario's stored measurements (runs of
// kind `measured` that `dtsim-runtime measure` wrote for exactly that scenario; with repetitions, the median
// one, and the range of all) against a simulation of it with the profile (or the scenario's own `profile:`),
// with its 90 % interval from N draws of the profile's costs, in one table with the error per scenario,
// the median and the max.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "child_runs.hpp"
#include "commands.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/median.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/override_option.hpp"
#include "dtsim/run_comparison.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/units.hpp"
#include "progress_display.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

struct ValidateOptions {
    std::vector<std::string> scenarios;
    std::string profile;
    std::string db_path = "out/runs.db";
    std::vector<std::string> overrides;
    std::string json_path;
    int jobs = 0;
    bool quiet = false;
    bool progress_lines = false;
    int uncertainty = 0;
};

struct Validation {
    std::string scenario;
    Run measured;
    size_t measurements = 1;  // stored measured runs of the scenario; `measured` is their median
    double measured_low_s = 0, measured_high_s = 0;  // the fastest and slowest of them
    Run predicted;
    RunComparison comparison;
};

// The measured runs of exactly this scenario (same canonical text, so the same overrides). A measurement
// on a shared machine varies from run to run; with repetitions the one of median iteration time stands
// for them (the lower of the two middle ones for an even count), so one outlier does not decide. Only
// that run is loaded (with its timeline); the listing's summaries choose it.
struct StoredMeasurements {
    size_t count = 0;
    std::optional<Run> median;
    double low_s = 0, high_s = 0;  // iteration time: the fastest and the slowest run
};

StoredMeasurements stored_measurements(const RunStore& store, const Scenario& scenario) {
    std::vector<RunListEntry> runs;
    for (auto& entry : store.list())
        if (entry.kind == RunKind::measured && fnv1a_hex(entry.scenario_text) == scenario.hash) runs.push_back(std::move(entry));
    if (runs.empty()) return {};
    std::sort(runs.begin(), runs.end(), [](const RunListEntry& a, const RunListEntry& b) {
        return std::make_pair(a.summary.iteration_time_s, a.id) < std::make_pair(b.summary.iteration_time_s, b.id);
    });
    return {runs.size(), store.load(runs[(runs.size() - 1) / 2].id), runs.front().summary.iteration_time_s,
            runs.back().summary.iteration_time_s};
}

void print_validations(std::ostream& out, const std::vector<Validation>& rows, const std::string& profile) {
    out << "dtsim validate: predicted with " << profile << " against the stored measurements (the median run of each)\n"
        << "  errors are (predicted - measured) / measured\n\n";
    TextTable table({"scenario", "strategy", "GPUs", "runs", "measured", "measured range", "predicted", "predicted 90 %", "error",
                     "throughput error"},
                    {false, false, true, true, true, true, true, true, true, true});
    const auto range = [](double low, double high) { return format_seconds(low) + " - " + format_seconds(high); };
    std::vector<double> errors;
    for (const auto& row : rows) {
        const auto& metrics = row.comparison.metrics;
        const auto find = [&](const char* key) {
            return *std::find_if(metrics.begin(), metrics.end(), [&](const MetricComparison& m) { return m.key == key; });
        };
        const auto iteration = find("iteration_time_s");
        const auto& predicted = row.predicted.summary;
        table.add_row({row.scenario, row.measured.strategy, std::to_string(row.measured.summary.gpus),
                       std::to_string(row.measurements), format_seconds(iteration.value.reference),
                       row.measurements > 1 ? range(row.measured_low_s, row.measured_high_s) : "-", format_seconds(iteration.value.other),
                       predicted.uncertainty_draws > 0 ? range(predicted.iteration_time_low_s, predicted.iteration_time_high_s) : "-",
                       format_relative_error(iteration.value), format_relative_error(find("samples_per_s").value)});
        if (const auto error = iteration.value.relative_error()) errors.push_back(std::fabs(*error));
    }
    table.print(out, "  ");
    if (errors.empty()) return;
    std::sort(errors.begin(), errors.end());
    out << "\n  iteration time, |error| over " << errors.size() << " scenario(s): median " << fixed(100 * median(errors), 2)
        << " %, p90 " << fixed(100 * percentile(errors, 0.9), 2) << " %, max " << fixed(100 * errors.back(), 2) << " %\n";
}

nlohmann::ordered_json validations_json(const std::vector<Validation>& rows) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& row : rows)
        out.push_back({{"scenario", row.scenario},
                       {"measured_runs", row.measurements},
                       {"measured_low_s", row.measured_low_s},
                       {"measured_high_s", row.measured_high_s},
                       {"predicted_low_s", row.predicted.summary.iteration_time_low_s},
                       {"predicted_high_s", row.predicted.summary.iteration_time_high_s},
                       {"comparison", comparison_json(row.comparison, row.measured, "measured run " + std::to_string(row.measured.id),
                                                      row.predicted, "prediction")}});
    return out;
}

int run_validate(const ValidateOptions& options) {
    if (!options.profile.empty() && !std::filesystem::exists(options.profile))
        throw InputError(options.profile + ": no such profile file");
    if (!std::filesystem::exists(options.db_path))
        throw InputError(options.db_path + ": no runs database (the measurements are read from it; give --db FILE)");
    std::vector<InputFile> inputs{{"the runs database", options.db_path}, {"the profile", options.profile}};
    for (const auto& path : options.scenarios) inputs.push_back({"a scenario", path});
    prepare_output_files({{"--json", options.json_path}}, inputs);
    const auto store = RunStore::for_reading(options.db_path);
    const auto profile = options.profile.empty() ? std::string() : std::filesystem::absolute(options.profile).string();

    // Every scenario must load and have its measurement before anything is simulated.
    std::vector<Run> measured;
    std::vector<StoredMeasurements> measurements;  // their count and range (the median run is moved to `measured`)
    std::vector<std::vector<std::string>> arguments;
    for (const auto& path : options.scenarios) {
        const auto scenario = load_scenario_file(path, options.overrides);
        if (profile.empty() && !scenario.profile)
            throw InputError(path + ": the scenario names no profile; give --profile FILE");
        auto found = stored_measurements(store, scenario);
        if (!found.median)
            throw InputError(path + ": no measured run of this scenario in " + options.db_path +
                             " (measure it first: mpirun -np N build/bin/dtsim-runtime measure " + path + " --db " +
                             options.db_path + ", with the same --set options)");
        measured.push_back(std::move(*found.median));
        found.median.reset();
        measurements.push_back(std::move(found));
        auto with_profile = options.overrides;
        if (!profile.empty()) with_profile.push_back("profile=" + profile);
        load_scenario_file(path, with_profile);  // a profile that does not fit the scenario fails here
        std::vector<std::string> args{"simulate", path, "--quiet"};
        for (const auto& o : with_profile) args.insert(args.end(), {"--set", o});
        if (options.uncertainty > 0) args.insert(args.end(), {"--uncertainty", std::to_string(options.uncertainty)});
        arguments.push_back(std::move(args));
    }
    const int jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const auto results =
        run_children(arguments, jobs, "--json", {progress_style(options.quiet, options.progress_lines), "validate", "scenarios"});

    std::vector<Validation> rows;
    int worst = exit_code::ok;
    for (size_t i = 0; i < results.size(); ++i) {
        if (results[i].exit_code != 0) {
            std::cerr << options.scenarios[i] << ": the simulation failed (exit " << results[i].exit_code << "):\n"
                      << results[i].error_text;
            worst = std::max(worst, results[i].exit_code);
            continue;
        }
        Run predicted;
        predicted.kind = RunKind::predicted;
        predicted.summary = summary_from_json(nlohmann::json::parse(results[i].output_json));
        predicted.strategy = measured[i].strategy;
        auto comparison = compare_runs(measured[i], predicted);
        const auto& stored = measurements[i];
        rows.push_back({options.scenarios[i], measured[i], stored.count, stored.low_s, stored.high_s, std::move(predicted),
                        std::move(comparison)});
    }
    print_validations(std::cout, rows, options.profile.empty() ? "each scenario's profile" : options.profile);
    if (!options.json_path.empty()) write_text_file(options.json_path, validations_json(rows).dump(2) + "\n");
    return worst;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<ValidateOptions>();
    auto* cmd = app.add_subcommand("validate", "Measured runs of scenarios against their simulation with a profile");
    cmd->add_option("scenarios", options->scenarios,
                    "Scenario files, each measured before with dtsim-runtime measure (repeat a measurement: the median run is used)")
        ->required();
    cmd->add_option("--profile", options->profile, "Profile to simulate with (dtsim fit's output); default: each scenario's own");
    cmd->add_option("--db", options->db_path, "Runs database holding the measurements")->capture_default_str();
    add_override_option(*cmd, options->overrides, "Override a scenario key in every scenario, as it was when measured");
    cmd->add_option("--json", options->json_path, "Also write the comparisons as JSON");
    cmd->add_option("--jobs", options->jobs, "Simulations at a time (default: one per core)");
    cmd->add_flag("--quiet", options->quiet, "No progress");
    add_progress_lines_flag(*cmd, options->progress_lines);
    cmd->add_option("--uncertainty", options->uncertainty,
                    "Also simulate N draws of the profile's costs and show the prediction's 90 % interval (simulate --uncertainty)")
        ->check(CLI::Range(1, 10000))
        ->type_name("N");
    cmd->callback([options, &exit_code] { exit_code = run_validate(*options); });
}

}  // namespace dtsim::cli

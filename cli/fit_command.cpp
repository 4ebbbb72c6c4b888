// `dtsim fit DIR --out PROFILE.json`: fits cost models to calibration samples.
// `dtsim fit LOG... --out PROFILE.json`: the same from nccl-tests output files.
// `dtsim fit --validate DIR PROFILE.json`: replays every measured collective from the point-to-point fits.
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "cross_validation.hpp"
#include "dtsim/calibrate/nccl_tests_profile.hpp"
#include "dtsim/calibrate/profile_fitter.hpp"
#include "dtsim/calibrate/samples.hpp"
#include "dtsim/data_paths.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/run_outputs.hpp"
#include "dtsim/run_store.hpp"
#include "profile_report.hpp"
#include "progress_display.hpp"

namespace dtsim::cli {
namespace {

struct FitOptions {
    std::vector<std::string> paths;  // DIR or nccl-tests logs, or DIR PROFILE with --validate
    std::string out;
    std::string name;
    std::string db;
    std::string json;
    bool validate = false;
    bool quiet = false;
    bool progress_lines = false;
};

calibrate::SampleFile read_samples(const std::filesystem::path& directory) {
    const auto file = directory / "samples.jsonl";
    if (!std::filesystem::exists(file))
        throw InputError(file.string() + ": no such file; expected the --out folder of dtsim-runtime calibrate");
    auto samples = calibrate::read_samples_file(file.string());
    if (samples.truncated_lines > 0)
        std::cerr << "dtsim fit: " << file.string() << ": skipped a last line cut short by a crash\n";
    return samples;
}

// The calibration's files, which no output may replace.
std::vector<InputFile> calibration_inputs(const std::filesystem::path& directory) {
    return {{"the calibration's samples", (directory / "samples.jsonl").string()},
            {"the calibration's environment", (directory / "environment.json").string()}};
}

Profile fit_calibration(const FitOptions& options) {
    const std::filesystem::path directory(options.paths.at(0));
    if (options.paths.size() != 1) throw InputError("dtsim fit: expected one DIR, or nccl-tests log files (PROFILE.json only with --validate)");
    prepare_output_files({{"--out", options.out}, {"--db", options.db}}, calibration_inputs(directory));
    require_runs_database_or_none(options.db);
    const auto samples = read_samples(directory);
    const auto environment = read_text_file(directory / "environment.json");
    const std::string name = options.name.empty() ? directory.filename().string() : options.name;
    return calibrate::fit_profile(samples.samples, environment, name);
}

Profile fit_nccl_tests(const FitOptions& options) {
    std::vector<InputFile> logs;
    for (const auto& path : options.paths) {
        if (!std::filesystem::exists(path))
            throw InputError(path + ": no such file or folder; expected the --out folder of dtsim-runtime calibrate, or nccl-tests log files");
        if (!std::filesystem::is_regular_file(path))
            throw InputError(path + ": expected an nccl-tests log file (a calibration folder comes alone)");
        logs.push_back({"an nccl-tests log", path});
    }
    prepare_output_files({{"--out", options.out}, {"--db", options.db}}, logs);
    require_runs_database_or_none(options.db);
    return calibrate::fit_nccl_tests_logs(options.paths, options.name.empty() ? "nccl-tests" : options.name);
}

void fit(const FitOptions& options) {
    const auto profile = std::filesystem::is_directory(options.paths.at(0)) ? fit_calibration(options) : fit_nccl_tests(options);
    const auto text = profile_to_json(profile);
    // Stored first, as runs are: the database keeps the profile whatever happens to the file.
    std::optional<std::int64_t> stored;
    if (!options.db.empty()) stored = RunStore(options.db).append_profile(profile.name, profile.source, text);
    write_text_file(options.out, text);
    print_profile_report(std::cout, profile);
    std::cout << "\n  written to " << options.out << "\n";
    if (stored) std::cout << "  stored as profile " << *stored << " in " << options.db << "\n";
}

void validate(const FitOptions& options) {
    if (options.paths.size() != 2 || std::filesystem::is_regular_file(options.paths[0]))
        throw InputError("dtsim fit --validate: expected DIR PROFILE.json, DIR a calibration folder (nccl-tests logs cannot be replayed)");
    const std::filesystem::path directory(options.paths[0]);
    auto inputs = calibration_inputs(directory);
    inputs.push_back({"the profile", options.paths[1]});
    prepare_output_files({{"--json", options.json}}, inputs);
    const auto samples = read_samples(directory);
    sim::SimulationProgress progress;
    const auto rows = [&] {
        const ProgressDisplay display(progress_style(options.quiet, options.progress_lines),
                                      [&progress] { return simulation_report("fit --validate", "collectives", progress); });
        return cross_validate(samples.samples, (directory / "environment.json").string(), options.paths[1], &progress);
    }();
    print_validation(std::cout, rows);
    if (!options.json.empty()) write_text_file(options.json, validation_json(rows).dump(2) + "\n");
}

}  // namespace

void add_fit_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<FitOptions>();
    auto* cmd = app.add_subcommand("fit", "Fit network and compute cost models to calibration samples (a profile)");
    cmd->add_option("paths", options->paths,
                    "DIR (the calibrate --out folder), or nccl-tests output files (all_reduce_perf ... logs); "
                    "with --validate: DIR PROFILE.json")
        ->required()
        ->expected(1, 1 << 16);
    cmd->add_option("--out", options->out, "Write the profile JSON here");
    cmd->add_option("--name", options->name, "Profile name (default: the folder's name)");
    cmd->add_option("--db", options->db, "Also store the profile in this runs database");
    cmd->add_flag("--validate", options->validate,
                  "Simulate every measured collective from PROFILE's point-to-point fits and compare");
    cmd->add_option("--json", options->json, "With --validate: write the comparison as JSON");
    cmd->add_flag("--quiet", options->quiet, "With --validate: no progress");
    add_progress_lines_flag(*cmd, options->progress_lines);
    cmd->callback([options, &exit_code] {
        if (options->validate)
            validate(*options);
        else {
            if (options->out.empty()) throw InputError("dtsim fit: --out PROFILE.json is required");
            fit(*options);
        }
        exit_code = exit_code::ok;
    });
}

}  // namespace dtsim::cli

#include <cstdint>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/override_option.hpp"
#include "dtsim/profile_draw.hpp"
#include "dtsim/sim/simulation.hpp"
#include "dtsim/simulation_footprint.hpp"
#include "dtsim/utf8_text.hpp"
#include "prediction_interval.hpp"
#include "progress_display.hpp"
#include "run_report.hpp"

namespace dtsim::cli {

void add_simulate_command(CLI::App& app, int& exit_code) {
    struct Options {
        std::string scenario;
        std::vector<std::string> overrides;
        RunOutputs outputs;
        std::string label;
        bool quiet = false;
        bool progress_lines = false;
        bool sweep_point = false;
        int uncertainty = 0;
        std::uint64_t draw_profile = 0;  // 0: the profile as fitted
    };
    auto options = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("simulate", "Simulate one scenario and print its summary");
    cmd->add_option("scenario", options->scenario, "Scenario YAML file")->required();
    add_override_option(*cmd, options->overrides, "Override a scenario key, e.g. --set cluster.nodes=16");
    cmd->add_option("--json", options->outputs.json_path, "Write the run summary and iterations as JSON");
    cmd->add_option("--trace", options->outputs.trace_path, "Write a Chrome/Perfetto trace of the timeline");
    cmd->add_option("--db", options->outputs.db_path, "Append the run to this SQLite runs database");
    cmd->add_option("--label", options->label, "A name for the run, stored with it and shown by `dtsim runs list`");
    cmd->add_flag("--quiet", options->quiet, "Print nothing but errors: no report, no warnings, no progress");
    add_progress_lines_flag(*cmd, options->progress_lines);
    cmd->add_option("--uncertainty", options->uncertainty,
                    "Also simulate N draws of the profile's costs from their standard errors and report the 90 % interval")
        ->check(CLI::Range(1, 10000))
        ->type_name("N");
    // Set by --uncertainty on the runs it starts (hidden): simulate with this draw of the profile.
    cmd->add_option("--draw-profile", options->draw_profile, "Seed of a draw of the profile's costs")->group("");
    // Set by `dtsim sweep` on the runs it starts (hidden): see SweepValues.
    cmd->add_flag("--sweep-point", options->sweep_point, "The scenario is a point of a sweep")->group("");
    cmd->callback([options, &exit_code] {
        auto scenario = load_scenario_file(options->scenario, options->overrides,
                                           options->sweep_point ? SweepValues::skip : SweepValues::check);
        if (options->draw_profile > 0) {
            if (!scenario.profile) throw InputError(options->scenario + ": --draw-profile needs a scenario with a profile");
            scenario.profile->fits = std::make_shared<const Profile>(draw_profile(*scenario.profile->fits, options->draw_profile));
        }
        require_utf8(options->label, "command line: --label");
        prepare_run_outputs(options->outputs, scenario);
        if (!options->quiet) {
            for (const auto& warning : scenario.warnings) std::cerr << "dtsim: warning: " << warning << "\n";
            if (const auto note = large_run_note(scenario)) std::cerr << "dtsim: " << *note << "\n";
        }
        sim::SimulationProgress progress;
        auto run = [&] {
            const ProgressDisplay display(progress_style(options->quiet, options->progress_lines),
                                          [&progress] { return simulation_report("simulate", "iterations", progress); });
            return sim::simulate(scenario, &progress);
        }();
        run.label = options->label;
        if (options->uncertainty > 0)
            add_prediction_interval(scenario, options->scenario, options->overrides, options->uncertainty,
                                    progress_style(options->quiet, options->progress_lines), run.summary);
        const auto id = write_run_outputs(run, options->outputs);
        if (!options->quiet) {
            print_run_report(std::cout, scenario, run);
            if (id) std::cout << "\n  stored as run " << *id << " in " << options->outputs.db_path << "\n";
        }
        exit_code = 0;
    });
}

}  // namespace dtsim::cli

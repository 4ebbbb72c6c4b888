#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dtsim/sim/simulation.hpp"
#include "dtsim/simulation_footprint.hpp"
#include "dtsim/utf8_text.hpp"
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
    };
    auto options = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("simulate", "Simulate one scenario and print its summary");
    cmd->add_option("scenario", options->scenario, "Scenario YAML file")->required();
    cmd->add_option("--set", options->overrides, "Override a scenario key, e.g. --set cluster.nodes=16")
        ->type_name("KEY=VALUE");
    cmd->add_option("--json", options->outputs.json_path, "Write the run summary and iterations as JSON");
    cmd->add_option("--trace", options->outputs.trace_path, "Write a Chrome/Perfetto trace of the timeline");
    cmd->add_option("--db", options->outputs.db_path, "Append the run to this SQLite runs database");
    cmd->add_option("--label", options->label, "A name for the run, stored with it and shown by `dtsim runs list`");
    cmd->add_flag("--quiet", options->quiet, "Print nothing but errors: no report, no warnings, no progress");
    add_progress_lines_flag(*cmd, options->progress_lines);
    // Set by `dtsim sweep` on the runs it starts (hidden): see SweepValues.
    cmd->add_flag("--sweep-point", options->sweep_point, "The scenario is a point of a sweep")->group("");
    cmd->callback([options, &exit_code] {
        const auto scenario = load_scenario_file(options->scenario, options->overrides,
                                                 options->sweep_point ? SweepValues::skip : SweepValues::check);
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
        const auto id = write_run_outputs(run, options->outputs);
        if (!options->quiet) {
            print_run_report(std::cout, scenario, run);
            if (id) std::cout << "\n  stored as run " << *id << " in " << options->outputs.db_path << "\n";
        }
        exit_code = 0;
    });
}

}  // namespace dtsim::cli

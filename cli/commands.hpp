#pragma once
// The dtsim subcommands. Each registers itself on the application and, when chosen, runs and stores
// its exit code in `exit_code`.
#include <CLI/CLI.hpp>

namespace dtsim::cli {

void add_simulate_command(CLI::App& app, int& exit_code);
void add_sweep_command(CLI::App& app, int& exit_code);
void add_runs_command(CLI::App& app, int& exit_code);
void add_fit_command(CLI::App& app, int& exit_code);
void add_profile_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
void add_validate_command(CLI::App& app, int& exit_code);
void add_model_command(CLI::App& app, int& exit_code);
void add_collective_command(CLI::App& app, int& exit_code);
void add_plan_command(CLI::App& app, int& exit_code);
void add_advise_command(CLI::App& app, int& exit_code);

}  // namespace dtsim::cli

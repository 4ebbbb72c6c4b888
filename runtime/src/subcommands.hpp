#pragma once
// The dtsim-runtime subcommands. Each registers itself on the application; when chosen, its parse callback
// checks its options, makes the Open MPI settings that must precede MPI_Init, and leaves in `chosen` what
// to run once MPI is up.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "mpi_context.hpp"

namespace dtsim::runtime {

struct ChosenCommand {
    int mpi_thread_level = MPI_THREAD_FUNNELED;
    std::function<int(const MpiContext&)> run;  // returns the exit code
};

/// `argv` is recorded in environment.json.
void add_calibrate_command(CLI::App& app, ChosenCommand& chosen, const std::vector<std::string>& argv);
void add_measure_command(CLI::App& app, ChosenCommand& chosen);
/// --poll-interval: how ranks wait on MPI requests (mpi_waiting.hpp); set when the command is parsed.
void add_poll_interval_option(CLI::App& command);

}  // namespace dtsim::runtime

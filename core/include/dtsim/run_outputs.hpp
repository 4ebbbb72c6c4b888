#pragma once
// The files a run is written to, simulated or measured alike: JSON summary, Chrome trace, runs database.
#include <cstdint>
#include <optional>
#include <string>

#include "dtsim/run.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim {

struct RunOutputs {
    std::string json_path;
    std::string trace_path;
    std::string db_path;
};

/// Creates the folders of the requested outputs and checks that each can be written and replaces none of
/// the files the scenario was read from (the scenario, its profile, its model file, the hardware presets)
/// nor another output (an existing database must be a runs database), so a bad path fails before a long run.
/// InputError naming the option and the path; StoreError for a file that is not a runs database.
void prepare_run_outputs(const RunOutputs& outputs, const Scenario& scenario);

/// A database output that exists must be a runs database (StoreError otherwise): checked before the work
/// whose result it is to hold.
void require_runs_database_or_none(const std::string& db_path);

/// Stores the run in the database first, then writes the files, each whole or not at all; returns the run
/// id when stored. A run with a non-finite value is refused (NonFiniteResult, run_json.hpp) before anything
/// is written; a file that cannot be written after the run is stored says under which id it was.
std::optional<std::int64_t> write_run_outputs(Run& run, const RunOutputs& outputs);

}  // namespace dtsim

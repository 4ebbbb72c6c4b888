#pragma once
// The files a run is written to, simulated or measured alike: JSON summary, Chrome trace, runs database.
#include <cstdint>
#include <optional>
#include <string>

#include "dtsim/run.hpp"

namespace dtsim {

struct RunOutputs {
    std::string json_path;
    std::string trace_path;
    std::string db_path;
};

/// Creates the folder of an output file given with `option` and checks the file can be written there;
/// InputError naming the option and the path otherwise.
void prepare_output_file(const std::string& option, const std::string& path);

/// Creates the folders of the requested outputs and checks that each can be written (an existing database
/// must be a runs database), so a bad path fails before a long run and no output is left half written.
/// InputError naming the option and the path; StoreError for a file that is not a runs database.
void prepare_run_outputs(const RunOutputs& outputs);

/// Writes every requested output; returns the run id when stored in a database. A run with a non-finite
/// value is refused (NonFiniteResult, run_json.hpp) before anything is written.
std::optional<std::int64_t> write_run_outputs(Run& run, const RunOutputs& outputs);

}  // namespace dtsim

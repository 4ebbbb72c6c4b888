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

/// Writes every requested output; returns the run id when stored in a database. A run with a non-finite
/// value is refused (NonFiniteResult, run_json.hpp) before anything is written.
std::optional<std::int64_t> write_run_outputs(Run& run, const RunOutputs& outputs);

}  // namespace dtsim

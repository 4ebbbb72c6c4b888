#pragma once
// What `dtsim simulate` prints, and the files it writes (JSON, Chrome trace, runs database).
#include <optional>
#include <ostream>
#include <string>

#include "dtsim/run.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim::cli {

void print_run_report(std::ostream& out, const Scenario& scenario, const Run& run);
void print_run_summary_table(std::ostream& out, const RunSummary& summary, const std::string& indent);

struct RunOutputs {
    std::string json_path;
    std::string trace_path;
    std::string db_path;
};

/// Writes every requested output; returns the run id when stored in a database.
std::optional<std::int64_t> write_run_outputs(Run& run, const RunOutputs& outputs);

}  // namespace dtsim::cli

#pragma once
// What `dtsim simulate` prints; the files it writes are dtsim/run_outputs.hpp's.
#include <ostream>
#include <string>

#include "dtsim/run.hpp"
#include "dtsim/run_outputs.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim::cli {

void print_run_report(std::ostream& out, const Scenario& scenario, const Run& run);
void print_run_summary_table(std::ostream& out, const RunSummary& summary, const std::string& indent);

}  // namespace dtsim::cli

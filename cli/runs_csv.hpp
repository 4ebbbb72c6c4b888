#pragma once
// `dtsim runs export --csv`: one row per run with its identity, overrides and every summary field, for
// pandas and spreadsheets.
#include <ostream>
#include <vector>

#include "dtsim/run_store.hpp"

namespace dtsim::cli {

void write_runs_csv(std::ostream& out, const std::vector<RunListEntry>& runs);

}  // namespace dtsim::cli

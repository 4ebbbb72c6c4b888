#pragma once
// JSON forms of a run: the summary document written by --json, and its reading back (for compare).
#include <nlohmann/json.hpp>

#include "dtsim/run.hpp"

namespace dtsim {

/// The --json document: summary fields at top level, then `iterations: [{index, time_s}]`.
/// Key order is fixed so that the same run always gives byte-identical output.
nlohmann::ordered_json run_summary_json(const Run& run);
std::string run_summary_json_text(const Run& run);

nlohmann::ordered_json summary_to_json(const RunSummary& summary);
RunSummary summary_from_json(const nlohmann::json& json);

/// Reads a --json document back: kind, scenario, strategy, summary and iterations (it has no timeline).
/// Throws InputError naming the file and what is wrong when it cannot be read or is not such a document.
Run read_run_json_file(const std::string& path);

}  // namespace dtsim

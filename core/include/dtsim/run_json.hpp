#pragma once
// JSON forms of a run: the summary document written by --json, and its reading back (for compare).
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

#include "dtsim/run.hpp"

namespace dtsim {

/// The --json document: summary fields at top level, then `iterations: [{index, time_s}]`.
/// Key order is fixed so that the same run always gives byte-identical output.
nlohmann::ordered_json run_summary_json(const Run& run);
std::string run_summary_json_text(const Run& run);

nlohmann::ordered_json summary_to_json(const RunSummary& summary);
RunSummary summary_from_json(const nlohmann::json& json);

/// A run with a value JSON cannot hold (an infinite or NaN time, rate or share): such a run is never
/// written or stored, since one such row made every run of a database unreadable.
class NonFiniteResult : public std::runtime_error {
public:
    explicit NonFiniteResult(const std::string& message) : std::runtime_error(message) {}
};

/// Throws NonFiniteResult naming the first non-finite summary field, iteration time or span time.
void require_finite(const Run& run);

/// Reads a --json document back: kind, scenario, strategy, summary and iterations (it has no timeline).
/// Throws InputError naming the file and what is wrong when it cannot be read or is not such a document.
Run read_run_json_file(const std::string& path);

}  // namespace dtsim

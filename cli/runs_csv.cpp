#include "runs_csv.hpp"

#include "dtsim/run_json.hpp"
#include "run_filter.hpp"

namespace dtsim::cli {
namespace {

// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

void write_row(std::ostream& out, const std::vector<std::string>& fields) {
    for (size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
    out << "\n";
}

}  // namespace

void write_runs_csv(std::ostream& out, const std::vector<RunListEntry>& runs) {
    // The summary's fields and their order are the run JSON's, so the two exports cannot drift apart.
    std::vector<std::string> header{"id", "kind", "scenario", "label", "strategy", "created_at", "overrides"};
    const auto fields = summary_to_json(RunSummary{});
    for (auto field = fields.begin(); field != fields.end(); ++field) header.push_back(field.key());
    write_row(out, header);
    for (const auto& run : runs) {
        std::vector<std::string> row{std::to_string(run.id), to_string(run.kind), run.scenario_name, run.label,
                                     run.strategy, run.created_at, overrides_text(run.overrides)};
        const auto summary = summary_to_json(run.summary);
        for (const auto& value : summary) row.push_back(value.dump());
        write_row(out, row);
    }
}

}  // namespace dtsim::cli

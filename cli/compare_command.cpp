#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/memory_model.hpp"
#include "dtsim/run_comparison.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "run_ids.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

struct NamedRun {
    Run run;
    std::string name;  // "run 3" or the JSON file's path
};

// A run id in the database, or a run JSON file.
NamedRun load_run(const std::string& text, const std::string& db_path) {
    if (!looks_like_run_id(text)) return {read_run_json_file(text), text};
    const auto id = parse_run_id(text);
    if (!std::filesystem::exists(db_path))
        throw InputError("run " + text + ": no runs database at " + db_path + " (give --db FILE, or a run JSON file)");
    return {load_stored_run(RunStore::for_reading(db_path), db_path, id), "run " + std::to_string(id)};
}

void print_identity(std::ostream& out, const char* role, const NamedRun& r) {
    out << "  " << role << printable_text(r.name) << ": " << to_string(r.run.kind) << ", " << printable_text(r.run.scenario_name)
        << ", " << printable_text(r.run.strategy) << ", " << r.run.summary.gpus << " GPUs";
    if (r.run.summary.has_memory_estimate())
        out << "; memory per GPU: " << describe_fit(r.run.summary.memory_per_gpu_bytes, r.run.summary.memory_capacity_bytes);
    out << "\n";
}

void print_comparison(std::ostream& out, const RunComparison& c, const NamedRun& reference, const NamedRun& other) {
    out << "dtsim compare: errors are (other - reference) / reference\n";
    print_identity(out, "reference  ", reference);
    print_identity(out, "other      ", other);
    out << "\n";
    TextTable table({"metric", "reference", "other", "rel. error"}, {false, true, true, true});
    for (const auto& m : c.metrics)
        table.add_row({m.label, format_metric_value(m, m.value.reference), format_metric_value(m, m.value.other),
                       format_relative_error(m.value)});
    table.print(out, "  ");
    if (!c.ranks.empty()) {
        out << "\n  per rank, per iteration\n";
        TextTable ranks({"rank", "compute ref", "other", "error", "comm ref", "other", "error", "wait ref", "other", "error"},
                        {false, true, true, true, true, true, true, true, true, true});
        for (const auto& r : c.ranks)
            ranks.add_row({r.label, format_seconds(r.compute_s.reference), format_seconds(r.compute_s.other), format_relative_error(r.compute_s),
                           format_seconds(r.comm_s.reference), format_seconds(r.comm_s.other), format_relative_error(r.comm_s),
                           format_seconds(r.wait_s.reference), format_seconds(r.wait_s.other), format_relative_error(r.wait_s)});
        ranks.print(out, "  ");
    } else {
        out << "\n  no per-rank rows: " << (reference.run.spans.empty() || other.run.spans.empty()
                                                ? "a run without a timeline (JSON files carry none; give run ids)"
                                                : "the runs share no rank")
            << "\n";
    }
    out << "\n  verdict: " << comparison_verdict(c, reference.run, other.run) << "\n";
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
    struct Options {
        std::string first, second, db_path = "out/runs.db";
        bool json = false;
    };
    auto options = std::make_shared<Options>();
    auto* cmd = app.add_subcommand("compare",
                                   "Two runs side by side with relative errors (the measured run is the reference when "
                                   "there is one, else the first)");
    cmd->add_option("first", options->first, "Run id in the database, or a run JSON file (--json output)")->required();
    cmd->add_option("second", options->second, "Run id in the database, or a run JSON file")->required();
    cmd->add_option("--db", options->db_path, "Runs database for run ids")->capture_default_str();
    cmd->add_flag("--json", options->json, "Print the comparison as JSON");
    cmd->callback([options, &exit_code] {
        const auto first = load_run(options->first, options->db_path);
        const auto second = load_run(options->second, options->db_path);
        const auto comparison = compare_runs(first.run, second.run);
        const auto& reference = comparison.reference_is_first ? first : second;
        const auto& other = comparison.reference_is_first ? second : first;
        if (options->json)
            std::cout << comparison_json(comparison, reference.run, reference.name, other.run, other.name).dump(2) << "\n";
        else
            print_comparison(std::cout, comparison, reference, other);
        exit_code = 0;
    });
}

}  // namespace dtsim::cli

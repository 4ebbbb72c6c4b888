#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "run_filter.hpp"
#include "run_ids.hpp"
#include "run_report.hpp"
#include "runs_csv.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

constexpr const char* kDefaultDatabase = "out/runs.db";

RunStore open_existing(const std::string& path) {
    if (!std::filesystem::exists(path))
        throw StoreError(path + ": no runs database here (give --db FILE, or run a simulation with --db first)");
    return RunStore::for_reading(path);
}

// The runs that meet every --where condition.
std::vector<RunListEntry> selected_runs(const std::string& db_path, const std::vector<std::string>& where) {
    std::vector<RunCondition> conditions;
    for (const auto& text : where) conditions.push_back(parse_run_condition(text));
    std::vector<RunListEntry> selected;
    for (auto& run : open_existing(db_path).list())
        if (std::all_of(conditions.begin(), conditions.end(), [&](const RunCondition& c) { return matches(run, c); }))
            selected.push_back(std::move(run));
    return selected;
}

void list_runs(const std::string& db_path, const std::vector<std::string>& where) {
    TextTable table({"id", "kind", "scenario", "label", "strategy", "GPUs", "iteration", "overrides", "date"},
                    {true, false, false, false, false, true, true, false, false});
    for (const auto& e : selected_runs(db_path, where))
        table.add_row({std::to_string(e.id), to_string(e.kind), e.scenario_name, e.label, e.strategy, std::to_string(e.gpus),
                       format_seconds(e.iteration_time_s), overrides_text(e.overrides), e.created_at});
    table.print(std::cout);
}

void export_runs(const std::string& db_path, const std::vector<std::string>& where, const std::string& csv_path) {
    const auto runs = selected_runs(db_path, where);
    if (csv_path.empty()) {
        write_runs_csv(std::cout, runs);
        return;
    }
    prepare_output_files({{"--csv", csv_path}}, {{"the runs database", db_path}});
    write_file_atomically(csv_path, [&](std::ostream& out) { write_runs_csv(out, runs); });
    std::cerr << "wrote " << runs.size() << " run(s) to " << csv_path << "\n";
}

void show_run(const std::string& db_path, const std::string& id_text) {
    const auto id = parse_run_id(id_text);
    const auto run = load_stored_run(open_existing(db_path), db_path, id);
    // What the database holds is printed escaped: a name cannot drive the terminal.
    std::cout << "run " << run.id << ": " << printable_text(run.scenario_name) << " (" << to_string(run.kind) << "), "
              << printable_text(run.strategy) << ", " << run.summary.gpus << " GPUs, stored " << printable_text(run.created_at)
              << ", scenario hash " << printable_text(run.scenario_hash) << "\n";
    if (!run.label.empty()) std::cout << "  label      " << printable_text(run.label) << "\n";
    if (!run.overrides.empty()) std::cout << "  overrides  " << printable_text(overrides_text(run.overrides)) << "\n";
    std::cout << "\n";
    print_run_summary_table(std::cout, run.summary, "  ");
    std::cout << "\n";
    TextTable iterations({"iteration", "time"}, {true, true});
    for (const auto& it : run.iterations) iterations.add_row({std::to_string(it.index), format_seconds(it.time_s)});
    iterations.print(std::cout, "  ");
    std::cout << "\n  " << run.spans.size() << " timeline spans over " << run.ranks.size() << " ranks\n";
}

}  // namespace

void add_runs_command(CLI::App& app, int& exit_code) {
    auto db_path = std::make_shared<std::string>(kDefaultDatabase);
    auto id = std::make_shared<std::string>();  // parsed strictly by parse_run_id
    auto where = std::make_shared<std::vector<std::string>>();
    auto csv_path = std::make_shared<std::string>();
    auto csv = std::make_shared<bool>(false);  // the only format: required, so the command reads as what it writes
    const auto where_help = "Only runs whose scenario had KEY at VALUE (by --set or in its file), or label=TEXT; repeatable";
    auto* runs = app.add_subcommand("runs", "Browse the runs database");
    runs->require_subcommand(1);
    auto* list = runs->add_subcommand(
        "list", "One line per run: id, kind, scenario, label, strategy, GPUs, iteration time, --set overrides, date");
    list->add_option("--db", *db_path, "Runs database")->capture_default_str();
    list->add_option("--where", *where, where_help)->type_name("KEY=VALUE");
    list->callback([db_path, where, &exit_code] {
        list_runs(*db_path, *where);
        exit_code = 0;
    });
    auto* export_command = runs->add_subcommand("export", "Every run's summary as a table for pandas or a spreadsheet");
    export_command->add_flag("--csv", *csv, "As CSV: one row per run, one column per summary field")->required();
    export_command->add_option("file", *csv_path, "File to write (default: standard output)");
    export_command->add_option("--db", *db_path, "Runs database")->capture_default_str();
    export_command->add_option("--where", *where, where_help)->type_name("KEY=VALUE");
    // The parser writes the flag when it parses: the callback holds it alive until then.
    export_command->callback([db_path, where, csv_path, csv, &exit_code] {
        if (!*csv) return;
        export_runs(*db_path, *where, *csv_path);
        exit_code = 0;
    });
    auto* show = runs->add_subcommand("show", "A run's summary and iterations");
    show->add_option("id", *id, "Run id")->required();
    show->add_option("--db", *db_path, "Runs database")->capture_default_str();
    show->callback([db_path, id, &exit_code] {
        show_run(*db_path, *id);
        exit_code = 0;
    });
}

}  // namespace dtsim::cli

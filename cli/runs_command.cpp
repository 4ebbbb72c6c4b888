#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "dtsim/run_store.hpp"
#include "dtsim/units.hpp"
#include "run_report.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

constexpr const char* kDefaultDatabase = "out/runs.db";

RunStore open_existing(const std::string& path) {
    if (!std::filesystem::exists(path))
        throw StoreError(path + ": no runs database here (give --db FILE, or run a simulation with --db first)");
    return RunStore(path);
}

void list_runs(const std::string& db_path) {
    auto store = open_existing(db_path);
    TextTable table({"id", "kind", "scenario", "strategy", "GPUs", "iteration", "date"},
                    {true, false, false, false, true, true, false});
    for (const auto& e : store.list())
        table.add_row({std::to_string(e.id), to_string(e.kind), e.scenario_name, e.strategy, std::to_string(e.gpus),
                       format_seconds(e.iteration_time_s), e.created_at});
    table.print(std::cout);
}

void show_run(const std::string& db_path, std::int64_t id) {
    auto store = open_existing(db_path);
    auto run = store.load(id);
    if (!run) throw StoreError(db_path + ": no run with id " + std::to_string(id));
    std::cout << "run " << run->id << ": " << run->scenario_name << " (" << to_string(run->kind) << "), " << run->strategy
              << ", " << run->summary.gpus << " GPUs, stored " << run->created_at << ", scenario hash "
              << run->scenario_hash << "\n\n";
    print_run_summary_table(std::cout, run->summary, "  ");
    std::cout << "\n";
    TextTable iterations({"iteration", "time"}, {true, true});
    for (const auto& it : run->iterations) iterations.add_row({std::to_string(it.index), format_seconds(it.time_s)});
    iterations.print(std::cout, "  ");
    std::cout << "\n  " << run->spans.size() << " timeline spans over " << run->ranks.size() << " ranks\n";
}

}  // namespace

void add_runs_command(CLI::App& app, int& exit_code) {
    auto db_path = std::make_shared<std::string>(kDefaultDatabase);
    auto id = std::make_shared<std::int64_t>(0);
    auto* runs = app.add_subcommand("runs", "Browse the runs database");
    runs->require_subcommand(1);
    auto* list = runs->add_subcommand("list", "One line per run: id, kind, scenario, GPUs, iteration time, date");
    list->add_option("--db", *db_path, "Runs database")->capture_default_str();
    list->callback([db_path, &exit_code] {
        list_runs(*db_path);
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

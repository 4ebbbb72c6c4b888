#include <iostream>
#include <memory>
#include <thread>

#include "commands.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/override_option.hpp"
#include "dtsim/positive_number.hpp"
#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "advise_ranking.hpp"
#include "dtsim/hardware_cost.hpp"
#include "dtsim/scenario.hpp"
#include "plan_report.hpp"
#include "plan_search.hpp"
#include "plan_why.hpp"

namespace dtsim::cli {
namespace {

struct PlanOptions {
    PlanRequest request;
    std::vector<std::string> search;
    int top = 10;
    std::string objective = "time";
    std::optional<double> price;
    bool why = false;
    bool quiet = false;
    bool progress_lines = false;
};

int run_plan_command(PlanOptions& options) {
    auto& request = options.request;
    for (const auto& text : options.search) {
        auto [key, values] = parse_search_option(text);
        request.search[key] = values;
    }
    require_utf8(request.label, "command line: --label");
    const auto objective = kObjectiveNames.parse(options.objective);
    if (!objective) throw InputError("command line: --objective '" + options.objective + "': expected " + kObjectiveNames.choices());
    // The price per GPU-hour: given, or the GPU's in data/hardware/cost/; needed to rank by cost.
    std::optional<double> price = options.price;
    if (*objective != Objective::time && !price) {
        const auto scenario = load_scenario_file(request.scenario_file, request.overrides, SweepValues::skip);
        price = load_hardware_costs(scenario.cluster.gpu.name, scenario.cluster.nic.preset).cloud_usd_per_gpu_hour;
        if (!price)
            throw InputError("command line: --objective " + options.objective + ": GPU '" + scenario.cluster.gpu.name +
                             "' has no price per GPU-hour in data/hardware/cost/; give --price USD");
    }
    if (request.jobs <= 0) request.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    request.progress = progress_style(options.quiet, options.progress_lines);
    const auto outcome = run_plan(request);
    print_plan_counts(std::cout, request, outcome);
    print_plan_table(std::cout, outcome, options.top, *objective == Objective::time ? std::nullopt : price);
    if (options.why && !outcome.simulated.empty() && outcome.simulated.front().simulated) {
        const auto why = explain_plan(request.scenario_file, outcome.simulated.front(), request.jobs);
        std::cout << "\n  why #1: " << bottleneck_line(why) << "\n    " << sensitivity_line(why) << "\n";
    }
    if (!request.db_path.empty() && !outcome.simulated.empty()) std::cout << "\n  runs stored in " << request.db_path << "\n";
    for (const auto& candidate : outcome.simulated)
        if (!candidate.failure.empty()) return exit_code::failure;
    return outcome.simulated.empty() ? exit_code::bad_input : exit_code::ok;
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<PlanOptions>();
    auto& r = options->request;
    auto* cmd = app.add_subcommand("plan", "Find the fastest parallel layout of an LLM scenario on N GPUs (docs/plan.md)");
    cmd->add_option("scenario", r.scenario_file, "Scenario YAML file: model, global batch and cluster")->required();
    cmd->add_option("--gpus", r.gpus, "GPUs to plan for (whole nodes; default: the scenario's)")->check(kPositiveNumber);
    add_override_option(*cmd, r.overrides, "Override a scenario key before planning");
    cmd->add_option("--search", options->search,
                    "Restrict a search key to these values: " + kPlanKeyNames.choices() + " (e.g. --search zero=1,3)")
        ->type_name("KEY=V1,V2,...");
    cmd->add_option("--objective", options->objective,
                    "Rank by " + kObjectiveNames.choices() + " (default time; on N GPUs of one kind all three give one order, cost adds "
                    "$/iteration and tokens/$)");
    cmd->add_option("--price", options->price, "Price of one GPU-hour in USD (default: data/hardware/cost/)")->check(kPositiveNumber);
    cmd->add_flag("--why", options->why, "Explain the fastest: exposed communication by dimension, and 2× NIC / 2× GPU simulated again");
    cmd->add_option("--top", options->top, "Configurations shown (default 10)")->check(kPositiveNumber);
    cmd->add_option("--simulate", r.simulate_at_most, "Simulate at most this many of the best estimates (default 16)")
        ->check(kPositiveNumber);
    cmd->add_option("--margin", r.margin, "Simulate estimates within this share of the best (default 0.25)")->check(CLI::Range(0.0, 100.0));
    cmd->add_option("--max-context", r.max_context, "Largest context-parallel degree searched (default 8)")->check(kPositiveNumber);
    cmd->add_option("--jobs", r.jobs, "Simulations run in parallel, and threads checking configurations (default: number of cores)");
    cmd->add_option("--db", r.db_path, "Append every simulated configuration's run to this SQLite runs database");
    cmd->add_option("--label", r.label, "A name stored with every simulated run (default: plan)")->default_val("plan");
    cmd->add_flag("--quiet", options->quiet, "No progress: only the counts, the table and errors");
    add_progress_lines_flag(*cmd, options->progress_lines);
    cmd->callback([options, &exit_code] { exit_code = run_plan_command(*options); });
}

}  // namespace dtsim::cli

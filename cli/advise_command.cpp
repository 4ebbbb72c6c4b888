#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "advise_configurations.hpp"
#include "advise_ranking.hpp"
#include "commands.hpp"
#include "dtsim/advise_study.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/temporary_directory.hpp"
#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "plan_run_ids.hpp"
#include "plan_search.hpp"
#include "plan_why.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

struct AdviseOptions {
    std::string study;
    std::string objective = "time";
    int jobs = 0;
    std::string db_path;
    std::string json_path;
    bool quiet = false;
    bool progress_lines = false;
};

struct OptionResult {
    std::string scenario_file;  // the option's scenario, in the scratch folder
    PlanOutcome plan;
    std::optional<PlanCandidate> best;  // the fastest simulated configuration
    double iterations = 0;
    TrainingCost cost;
    std::string label;                                  // what its runs are stored under
    std::vector<ConfigurationResult> configurations;  // every simulated one, as plan ranked them
};

std::string format_hours(double seconds) {
    const double hours = seconds / 3600;
    return fixed(hours, 1) + " h" + (hours >= 48 ? " (" + fixed(hours / 24, 1) + " days)" : "");
}

OptionResult plan_option(const AdviseStudy& study, const AdviseOption& option, const AdviseOptions& options, const TemporaryDirectory& scratch,
                         int jobs) {
    const auto file = scratch.file(option.name + ".yaml");
    std::ofstream(file) << option.scenario_text;
    PlanRequest request;
    request.scenario_file = file;
    request.search = study.search;
    request.margin = study.margin;
    request.simulate_at_most = study.simulate;
    request.jobs = jobs;
    request.db_path = options.db_path;
    request.label = study.name + ": " + option.name;
    request.progress = progress_style(options.quiet, options.progress_lines);
    request.task = "advise " + option.name;
    OptionResult result;
    result.scenario_file = file;
    const auto newest_before = newest_run_id(options.db_path);
    result.plan = run_plan(request);
    result.label = request.label;
    const auto run_ids = stored_run_ids(request, newest_before, result.plan.simulated);
    for (const auto& candidate : result.plan.simulated)
        if (candidate.simulated) {
            result.best = candidate;
            break;
        }
    if (result.best) {
        result.iterations = iterations_for(study.target, option.global_batch, option.tokens_per_sequence);
        result.cost = training_cost(result.iterations, result.best->simulated->iteration_time_s, option.parts, option.costs);
    }
    for (size_t i = 0; i < result.plan.simulated.size(); ++i) {
        const auto& candidate = result.plan.simulated[i];
        auto& configuration = result.configurations.emplace_back(ConfigurationResult{candidate, run_ids[i], std::nullopt});
        if (candidate.simulated)
            configuration.cost = training_cost(result.iterations, candidate.simulated->iteration_time_s, option.parts, option.costs);
    }
    return result;
}

// The energy terms that have no figure, named: what the energy column leaves out.
std::string power_absent_text(const TrainingCost& cost) {
    std::string out;
    for (const auto term : cost.power_absent) out += (out.empty() ? "" : ", ") + std::string(kPowerTermNames.name(term));
    return out;
}

std::string target_text(const TrainingTarget& target) {
    const auto amount = fixed(target.amount, 0);
    switch (target.kind) {
        case TrainingTarget::Kind::tokens: return amount + " tokens";
        case TrainingTarget::Kind::samples: return amount + " samples";
        case TrainingTarget::Kind::iterations: return amount + " iterations";
    }
    return amount;
}

void print_advice(std::ostream& out, const AdviseStudy& study, const std::vector<OptionResult>& results, Objective objective) {
    std::vector<RankedOption> ranked;
    for (size_t i = 0; i < results.size(); ++i) {
        RankedOption r{study.options[i].name, std::nullopt, std::nullopt};
        if (results[i].best) {
            r.time_s = results[i].cost.time_s;
            r.cost_usd = results[i].cost.cloud_usd;
        }
        ranked.push_back(r);
    }
    const auto order = rank_options(ranked, objective);
    const auto frontier = pareto_frontier(ranked);
    out << "dtsim advise: " << study.name << " — " << target_text(study.target) << ", ranked by " << kObjectiveNames.name(objective) << "\n\n";
    TextTable table({"#", "option", "GPUs", "best configuration", "iteration", "iterations", "time-to-train", "cost", "tokens/$", "owned", "energy",
                     "no power figure", "Pareto"},
                    {true, false, true, false, true, true, true, true, true, true, true, false, false});
    int rank = 0;
    for (size_t i : order) {
        const auto& r = results[i];
        const auto& option = study.options[i];
        std::vector<std::string> row{std::to_string(++rank), option.name, std::to_string(option.parts.gpus)};
        if (!r.best) {
            row.insert(row.end(), {"none fits or runs", "", "", "", "", "", "", "", "", ""});
        } else {
            const auto& c = r.cost;
            const double tokens = r.iterations * option.global_batch * option.tokens_per_sequence;
            row.insert(row.end(), {describe_plan(r.best->config), format_seconds(r.best->simulated->iteration_time_s), fixed(r.iterations, 0),
                                   format_hours(c.time_s), c.cloud_usd ? "$" + fixed(*c.cloud_usd, 0) : "no price",
                                   c.cloud_usd ? fixed(tokens / *c.cloud_usd, 0) : "",
                                   c.owned_usd ? (c.owned_complete() ? "$" : "≥ $") + fixed(*c.owned_usd, 0) : "no price",
                                   (c.energy_complete() ? "" : "≥ ") + fixed(c.energy_kwh, 0) + " kWh", power_absent_text(c),
                                   frontier[i] ? "*" : ""});
        }
        table.add_row(row);
    }
    table.print(out, "  ");
    out << "\n  cost: GPU-hours × the cloud price per GPU-hour (data/hardware/cost/, or the study's costs:); * on the Pareto frontier of"
           " time-to-train and cost;\n  owned: the capital of the servers, of NICs beyond their own and of the switch ports × time-to-train /"
           " the amortisation period, plus the energy at the electricity price;\n  energy: the parts' maximum power for the whole run × the"
           " PUE; ≥ where some parts (servers, NICs beyond theirs, switch ports) have no price or power figure: the terms left out are named"
           " under 'no power figure'\n";
}

// Every option's best configuration and what training with it takes, in SI units and dollars, then every
// configuration it simulated (the GUI's Advise view draws them).
std::string advice_json(const AdviseStudy& study, const std::vector<OptionResult>& results) {
    std::vector<std::vector<ConfigurationResult>> configurations;
    for (const auto& r : results) configurations.push_back(r.configurations);
    const auto per_option = configurations_json(configurations);
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (size_t i = 0; i < results.size(); ++i) {
        const auto& r = results[i];
        const auto& option = study.options[i];
        nlohmann::ordered_json j{{"option", option.name}, {"gpus", option.parts.gpus}, {"nics", option.parts.nics},
                                 {"switch_ports", option.parts.switch_ports}};
        const auto& costs = option.costs;
        const std::pair<const char*, std::optional<double>> figures[] = {{"cloud_usd_per_gpu_hour", costs.cloud_usd_per_gpu_hour},
                                                                          {"amortisation_years", costs.amortisation_years},
                                                                          {"electricity_usd_per_kwh", costs.electricity_usd_per_kwh},
                                                                          {"pue", costs.pue}};
        for (const auto& [key, value] : figures)
            if (value) j[key] = *value;
        if (r.best) {
            j["configuration"] = describe_plan(r.best->config);
            j["iteration_time_s"] = r.best->simulated->iteration_time_s;
            j["iterations"] = r.iterations;
            j["time_to_train_s"] = r.cost.time_s;
            j["cost_usd"] = optional_number(r.cost.cloud_usd);
            j["capital_usd"] = optional_number(r.cost.capital_usd);
            j["capital_complete"] = r.cost.capital_complete;
            j["owned_usd"] = optional_number(r.cost.owned_usd);
            j["owned_complete"] = r.cost.owned_complete();
            j["energy_kwh"] = r.cost.energy_kwh;
            j["energy_complete"] = r.cost.energy_complete();
            auto absent = nlohmann::ordered_json::array();
            for (const auto term : r.cost.power_absent) absent.push_back(kPowerTermNames.name(term));
            j["power_absent"] = absent;
        }
        j["label"] = r.label;
        j["configurations"] = per_option[i];
        all.push_back(j);
    }
    return all.dump(2) + "\n";
}

int run_advise(const AdviseOptions& options) {
    const auto objective = kObjectiveNames.parse(options.objective);
    if (!objective) throw InputError("command line: --objective '" + options.objective + "': expected " + kObjectiveNames.choices());
    const auto study = load_advise_study(options.study);
    if (*objective != Objective::time)
        for (const auto& option : study.options)
            if (!option.costs.cloud_usd_per_gpu_hour)
                throw InputError(options.study + ": option '" + option.name + "' has no price per GPU-hour to rank by " + options.objective +
                                 ": give costs: {cloud_usd_per_gpu_hour: ...} in the option or the study");
    prepare_output_files({{"--json", options.json_path}}, {{"the study", options.study}, {"the runs database", options.db_path}});
    const int jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const TemporaryDirectory scratch;
    std::vector<OptionResult> results;
    for (const auto& option : study.options) {
        results.push_back(plan_option(study, option, options, scratch, jobs));
        const auto& plan = results.back().plan;
        long long unfit = 0;
        for (const auto& [reason, count] : plan.unfit) unfit += count;
        std::cout << "  " << option.name << ": " << plan.enumerated << " configurations, " << plan.invalid << " refused, " << unfit
                  << " do not fit, " << plan.simulated.size() << " simulated\n";
    }
    std::cout << "\n";
    print_advice(std::cout, study, results, *objective);
    std::cout << "\n  why (the best configuration of each option):\n";
    for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i].best) continue;
        const auto why = explain_plan(results[i].scenario_file, *results[i].best, jobs);
        std::cout << "  " << study.options[i].name << ": " << bottleneck_line(why) << "\n    " << sensitivity_line(why) << "\n";
    }
    if (!options.json_path.empty()) {
        write_text_file(options.json_path, advice_json(study, results));
        std::cout << "\n  wrote " << options.json_path << "\n";
    }
    if (!options.db_path.empty()) std::cout << "\n  runs stored in " << options.db_path << "\n";
    for (const auto& r : results)
        if (!r.best) return exit_code::failure;
    return exit_code::ok;
}

}  // namespace

void add_advise_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<AdviseOptions>();
    auto* cmd = app.add_subcommand("advise", "Plan every cluster option of a study and rank them by time-to-train, cost and energy (docs/advise.md)");
    cmd->add_option("study", options->study, "Study YAML file: model, training target, cluster options")->required();
    cmd->add_option("--objective", options->objective, "Rank by " + kObjectiveNames.choices() + " (default time)");
    cmd->add_option("--jobs", options->jobs, "Simulations run in parallel (default: number of cores)");
    cmd->add_option("--json", options->json_path, "Write every option's best configuration, time-to-train, cost and energy as JSON");
    cmd->add_option("--db", options->db_path, "Append every simulated configuration's run to this SQLite runs database");
    cmd->add_flag("--quiet", options->quiet, "No progress: only the counts, the table and errors");
    add_progress_lines_flag(*cmd, options->progress_lines);
    cmd->callback([options, &exit_code] { exit_code = run_advise(*options); });
}

}  // namespace dtsim::cli

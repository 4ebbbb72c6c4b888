// `dtsim collective SCENARIO --op OP --bytes SIZE...`: one collective over every GPU of the scenario's cluster,
// timed as nccl-tests times it on a real one (size, time, algbw, busbw), with the algorithm a training run of
// the scenario would use. For comparing the simulator with published nccl-tests figures (bench/nccl-published).
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "dtsim/calibrate/plan.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "dtsim/override_option.hpp"
#include "dtsim/sim/collective_replay.hpp"
#include "dtsim/units.hpp"
#include "text_table.hpp"

namespace dtsim::cli {
namespace {

struct CollectiveOptions {
    std::string scenario;
    std::vector<std::string> overrides;
    std::string op = "allreduce";
    std::vector<std::string> sizes;
    std::string json;
};

NetworkOp collective_op(const std::string& name) {
    const auto op = kNetworkOpNames.parse(name);
    if (!op || is_point_to_point(*op))
        throw InputError("command line: --op '" + name + "': expected one of allreduce, allgather, reducescatter, broadcast, alltoall");
    return *op;
}

double size_of(const std::string& text) {
    const auto bytes = parse_bytes(text);
    if (!bytes || !(*bytes >= 1) || *bytes > 1e15)
        throw InputError("command line: --bytes '" + text + "': expected a size from 1 B to 1 PB, e.g. 8MB or 1GiB");
    return *bytes;
}

// The algorithm simulate_collectives runs it with (ReplayMode::scenario).
std::string algorithm_of(NetworkOp op, const Scenario& scenario) {
    if (op == NetworkOp::allreduce) return to_string(scenario.training.strategy.algorithm);
    if (op == NetworkOp::broadcast) return "binomial tree";
    if (op == NetworkOp::alltoall) return scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl ? "nccl, PXN" : "linear";
    return scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl ? "nccl" : "ring";
}

// What NCCL runs `op` of `bytes` over every GPU with, as the simulator chooses it; empty where NCCL has no choice
// to make (broadcast keeps its binomial tree).
std::string nccl_choice_of(const Scenario& scenario, const CostModel& costs, NetworkOp op, double bytes) {
    if (op == NetworkOp::alltoall) return "p2p";
    if (op == NetworkOp::broadcast) return "";
    const auto& cluster = scenario.cluster;
    const auto call = costs.nccl_call(op, cluster.gpus(), cluster.nodes, cluster.gpus_per_node,
                                      nics_reached(cluster, cluster.gpus_per_node), bytes);
    const auto choice = choose_nccl(costs.nccl(), call, scenario.training.strategy.nccl);
    return std::string(kNcclAlgorithmNames.name(choice.algorithm)) + "/" + std::string(kNcclProtocolNames.name(choice.protocol));
}

// Where the scenario's profile measured NCCL's collectives, the factors it gives NCCL's model, one line per protocol.
void print_nccl_calibration(const CostModel& costs) {
    const auto& calibration = costs.nccl_calibration();
    if (!calibration) return;
    std::cout << "  NCCL calibrated from the profile's collectives (factors on NCCL's modelled latency and bytes' time):\n";
    const char* names[] = {"LL", "LL128", "Simple"};
    for (size_t p = 0; p < 3; ++p) {
        std::cout << "    " << std::left << std::setw(7) << names[p] << std::right;
        const auto& parameters = calibration->parameters;
        if (calibration->measurements[p] == 0) {
            std::cout << "as published (no size ran it)\n";
            continue;
        }
        std::cout << "latency ×" << fixed(parameters.latency_scale[p], 2) << ", bytes' time "
                  << (calibration->bandwidth_fitted[p] ? "×" + fixed(parameters.bandwidth_scale[p], 2)
                                                       : std::string("as modelled (too few sizes weigh it)"))
                  << "; " << calibration->measurements[p] << " sizes\n";
    }
}

void run(const CollectiveOptions& options) {
    const auto op = collective_op(options.op);
    prepare_output_files({{"--json", options.json}}, {{"the scenario", options.scenario}});
    const auto scenario = load_scenario_file(options.scenario, options.overrides);
    const int ranks = scenario.cluster.gpus();
    if (ranks < 2) throw InputError(options.scenario + ": a collective needs a cluster of at least 2 GPUs");
    std::vector<sim::CollectiveTrial> trials;
    for (const auto& text : options.sizes) trials.push_back({op, size_of(text), ranks});
    const auto times = sim::simulate_collectives(scenario, trials, nullptr, sim::ReplayMode::scenario);
    const double factor = calibrate::bus_bandwidth_factor(op, ranks);
    const bool nccl = scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl && op != NetworkOp::broadcast;
    const CostModel costs(scenario);
    std::vector<std::string> headers{"size (B)", "time (us)", "algbw (GB/s)", "busbw (GB/s)"};
    if (nccl) headers.emplace_back("NCCL runs");
    TextTable table(headers, {true, true, true, true, false});
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (size_t i = 0; i < trials.size(); ++i) {
        const double algbw = trials[i].bytes / times[i] / 1e9;
        std::vector<std::string> row{fixed(trials[i].bytes, 0), fixed(times[i] * 1e6, 2), fixed(algbw, 2), fixed(algbw * factor, 2)};
        nlohmann::ordered_json result{{"bytes", trials[i].bytes}, {"time_s", times[i]}, {"algbw_GBps", algbw}, {"busbw_GBps", algbw * factor}};
        if (nccl) {
            row.push_back(nccl_choice_of(scenario, costs, op, trials[i].bytes));
            result["nccl_choice"] = row.back();
        }
        table.add_row(row);
        results.push_back(result);
    }
    const auto algorithm = algorithm_of(op, scenario);
    std::cout << to_string(op) << " over " << ranks << " GPUs on " << scenario.cluster.nodes << " node"
              << (scenario.cluster.nodes == 1 ? "" : "s") << " (" << algorithm << "), nccl-tests semantics (GB = 1e9 B)\n";
    table.print(std::cout, "  ");
    if (scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl) print_nccl_calibration(costs);
    if (!options.json.empty())
        write_text_file(options.json, nlohmann::ordered_json{{"scenario", scenario.name},
                                                             {"op", std::string(to_string(op))},
                                                             {"ranks", ranks},
                                                             {"nodes", scenario.cluster.nodes},
                                                             {"algorithm", algorithm},
                                                             {"results", results}}
                                              .dump(2) + "\n");
}

}  // namespace

void add_collective_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<CollectiveOptions>();
    auto* cmd = app.add_subcommand("collective", "Simulate one collective over every GPU of a scenario's cluster, nccl-tests style");
    cmd->add_option("scenario", options->scenario, "Scenario YAML file (its cluster, network and all-reduce algorithm)")->required();
    cmd->add_option("--op", options->op, "allreduce (default), allgather, reducescatter, broadcast or alltoall");
    cmd->add_option("--bytes", options->sizes, "Sizes as nccl-tests counts them (all-gather: the gathered total), e.g. 8MB 1GiB")
        ->required()
        ->expected(1, 1 << 16);
    add_override_option(*cmd, options->overrides, "Override a scenario key, e.g. --set cluster.nodes=16");
    cmd->add_option("--json", options->json, "Write the results as JSON");
    cmd->callback([options, &exit_code] {
        run(*options);
        exit_code = exit_code::ok;
    });
}

}  // namespace dtsim::cli

#include "calibrate_command.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "backend.hpp"
#include "dtsim/input_error.hpp"
#include "machine_sharing.hpp"
#include "microbenchmarks.hpp"
#include "sample_log.hpp"
#include "sample_table.hpp"

namespace dtsim::runtime {
namespace {

using calibrate::ItemKind;
using calibrate::PlanItem;
using nlohmann::ordered_json;

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return text;
}

// Runs `action` on rank 0; an InputError there is rethrown on every rank, so all exit alike.
template <typename Action>
void on_rank_zero(const MpiContext& context, Action action) {
    std::string error;
    if (context.rank() == 0) try {
            action();
        } catch (const InputError& e) {
            error = e.what();
        }
    error = context.broadcast(error, 0);
    if (!error.empty()) throw InputError(error);
}

// The physical machines under the hosts: `dtsim fit` gives the simulator their shared cores.
ordered_json machines_json(const std::vector<Machine>& machines) {
    ordered_json out = ordered_json::array();
    for (const auto& machine : machines) out.push_back({{"cores", machine.cores}, {"ranks", machine.ranks}});
    return out;
}

ordered_json environment(const CalibrateOptions& options, const MpiContext& context, const Backend& backend,
                         const std::vector<Machine>& machines) {
    ordered_json hosts = ordered_json::array();
    std::map<std::string, std::vector<int>> ranks_by_host;
    for (int r = 0; r < context.size(); ++r) ranks_by_host[context.host_names()[static_cast<size_t>(r)]].push_back(r);
    for (const auto& [host, ranks] : ranks_by_host) hosts.push_back({{"host", host}, {"ranks", ranks}});
    ordered_json json{{"tool", "dtsim-runtime calibrate"},
                      {"date", utc_now()},
                      {"command", options.command_line},
                      {"backend", backend.name},
                      {"ranks", context.size()},
                      {"nodes", context.nodes()},
                      {"node_of_rank", context.node_of_rank()},
                      {"hosts", hosts},
                      {"machines", machines_json(machines)},
                      {"communicator", {{"name", backend.communicator->name()}, {"version", backend.communicator->version()}}},
                      {"device", ordered_json::parse(backend.device->environment_json())},
                      {"mpi_library", context.library_version()},
                      {"quick", options.plan.quick}};
    if (!options.pinned_algorithms.empty()) json["mpi_collective_algorithms"] = options.pinned_algorithms;
    if (!options.mpi_transport.empty()) json["mpi_transport"] = options.mpi_transport;
    return json;
}

// A resumed calibration must run on the same layout as the samples already taken.
void check_same_layout(const std::filesystem::path& file, const MpiContext& context) {
    std::ifstream in(file);
    const auto recorded = ordered_json::parse(in, nullptr, false);
    if (recorded.is_discarded()) throw InputError(file.string() + ": not valid JSON; move it away to start afresh");
    const int ranks = recorded.value("ranks", -1);
    const int nodes = recorded.value("nodes", -1);
    if (ranks != context.size() || nodes != context.nodes())
        throw InputError(file.string() + ": these samples were taken with " + std::to_string(ranks) + " ranks on " +
                         std::to_string(nodes) + " nodes; this run has " + std::to_string(context.size()) + " ranks on " +
                         std::to_string(context.nodes()) + " nodes; resume with the same layout or use another --out");
}

void write_environment(const std::filesystem::path& file, const ordered_json& json) {
    std::ofstream out(file);
    out << json.dump(2) << "\n";
    if (!out) throw InputError(file.string() + ": cannot write");
}

ordered_json sample_json(const PlanItem& item, const Measurement& measurement, const MpiContext& context,
                         const Backend& backend) {
    ordered_json json{{"key", item.key()}, {"op", item.op}};
    const bool network = item.kind == ItemKind::collective || item.kind == ItemKind::point_to_point;
    if (network) {
        const int ranks = item.ranks;
        std::set<int> node_set;
        for (int r = 0; r < context.size(); ++r)
            if (item.kind == ItemKind::collective ? r < ranks
                                                  : std::count(item.members.begin(), item.members.end(), r) > 0)
                node_set.insert(context.node_of_rank()[static_cast<size_t>(r)]);
        const int nodes = static_cast<int>(node_set.size());
        const double algbw = item.bytes / measurement.time_s / 1e9;  // nccl-tests: GB = 1e9 B
        json.update(ordered_json{{"mode", item.mode},
                                 {"link_class", to_string(item.link_class)},
                                 {"backend", backend.name},
                                 {"dtype", item.dtype},
                                 {"bytes", static_cast<long long>(item.bytes)},
                                 {"count", static_cast<long long>(item.bytes / 4)},
                                 {"ranks", ranks},
                                 {"nodes", nodes},
                                 {"time_s", measurement.time_s},
                                 {"algbw_GBps", algbw},
                                 {"busbw_GBps", algbw * calibrate::bus_bandwidth_factor(item.op, ranks)}});
    } else {
        json.update(ordered_json{{"backend", backend.name}, {"device", backend.device->name()}});
        if (item.kind == ItemKind::gemm) {
            const double flops = 2.0 * static_cast<double>(item.m) * static_cast<double>(item.n) * static_cast<double>(item.k);
            json.update(ordered_json{{"dtype", item.dtype}, {"m", item.m}, {"n", item.n}, {"k", item.k}, {"flops", flops},
                                     {"flops_per_s", flops / measurement.time_s}});
        } else if (item.kind != ItemKind::launch_latency) {
            json.update(ordered_json{{"bytes", static_cast<long long>(item.bytes)}, {"bytes_per_s", item.bytes / measurement.time_s}});
        }
        if (item.kind == ItemKind::codec) {
            json["kernel"] = item.kernel;
            if (item.kernel.starts_with("topk")) json["ratio"] = calibrate::kCodecTopkRatio;
            if (item.kernel == "topk_decode") json["blocks"] = calibrate::kCodecTopkDecodeBlocks;
        }
        // Every rank computes at once, as in training: the time is the mean over ranks (microbenchmarks.hpp).
        json.update(ordered_json{{"ranks", context.size()}, {"nodes", context.nodes()}, {"time_s", measurement.time_s}});
    }
    json.update(ordered_json{{"iterations", measurement.iterations},
                             {"warmup", measurement.warmup},
                             {"iteration_times_s", measurement.iteration_times_s},
                             {"timestamp", utc_now()}});
    return json;
}

std::vector<int> group_sizes(const std::vector<PlanItem>& plan, int world) {
    std::set<int> sizes{world};
    for (const auto& item : plan)
        if (item.kind == ItemKind::collective) sizes.insert(item.ranks);
    return {sizes.begin(), sizes.end()};
}

}  // namespace

int run_calibrate(const CalibrateOptions& options, const MpiContext& context) {
    auto plan_options = options.plan;
    plan_options.gpu = options.backend == "nccl";
    const auto plan = calibrate::make_plan(plan_options, context.node_of_rank());
    // Said on stderr, so that --print-plan's output stays one key per line.
    auto say_codec_skipped = [&] {
        if (calibrate::codec_skipped(plan_options) && context.rank() == 0)
            std::cerr << "dtsim-runtime: no GPU codec kernels yet: the plan leaves out the codec samples\n";
    };
    if (options.print_plan) {
        say_codec_skipped();
        if (context.rank() == 0)
            for (const auto& item : plan) std::cout << item.key() << "\n";
        return exit_code::ok;
    }

    auto backend = make_backend(options.backend, context);  // BackendUnavailable: main says so
    say_codec_skipped();
    const std::filesystem::path directory(options.out);
    std::unique_ptr<SampleLog> log;
    on_rank_zero(context, [&] {
        log = std::make_unique<SampleLog>(directory, options.resume);
        if (!log->existing_keys().empty() && std::filesystem::exists(directory / "environment.json"))
            check_same_layout(directory / "environment.json", context);
    });
    // Rank 0 decides what is left to do; every rank runs exactly that.
    std::string todo_mask(plan.size(), '1');
    if (log)
        for (size_t i = 0; i < plan.size(); ++i)
            if (log->existing_keys().count(plan[i].key())) todo_mask[i] = '0';
    todo_mask = context.broadcast(todo_mask, 0);

    const auto machines = gather_machines(context);
    if (context.rank() == 0 && (!std::filesystem::exists(directory / "environment.json") || !options.resume))
        write_environment(directory / "environment.json", environment(options, context, backend, machines));

    backend.communicator->prepare(static_cast<std::size_t>(calibrate::max_buffer_bytes(plan)), group_sizes(plan, context.size()));
    const double target = options.target_seconds > 0 ? options.target_seconds : (options.plan.quick ? 0.02 : 0.2);
    Microbenchmarks benchmarks(context, backend, target, oversubscribed(machines));
    SampleTable table(std::cout, context.rank() == 0);

    const auto todo = static_cast<int>(std::count(todo_mask.begin(), todo_mask.end(), '1'));
    if (context.rank() == 0)
        std::cout << "# dtsim-runtime calibrate: " << backend.name << " (" << backend.communicator->version() << ", "
                  << backend.device->name() << "), " << context.size() << " ranks on " << context.nodes() << " node(s); "
                  << todo << " of " << plan.size() << " samples to take -> " << (directory / "samples.jsonl").string()
                  << "\n";
    const auto started = std::chrono::steady_clock::now();
    int done = 0;
    for (size_t i = 0; i < plan.size(); ++i) {
        if (todo_mask[i] != '1') continue;
        const auto measurement = benchmarks.run(plan[i]);
        ++done;
        if (context.rank() == 0) {
            const auto json = sample_json(plan[i], measurement, context, backend);
            log->append(json.dump());
            table.row(plan[i], json, done, todo);
        }
    }
    if (context.rank() == 0) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::cout << "# " << done << " samples taken in " << static_cast<int>(seconds + 0.5) << " s ("
                  << plan.size() - static_cast<size_t>(todo) << " already there); next: dtsim fit " << options.out
                  << " --out PROFILE.json\n";
    }
    return exit_code::ok;
}

}  // namespace dtsim::runtime

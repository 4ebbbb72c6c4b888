#include "calibrate_command.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <set>

#include "backend.hpp"
#include "dtsim/calibrate/environment.hpp"
#include "dtsim/calibrate/samples.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/output_files.hpp"
#include "machine_sharing.hpp"
#include "microbenchmarks.hpp"
#include "sample_log.hpp"
#include "sample_table.hpp"

namespace dtsim::runtime {
namespace {

using calibrate::ItemKind;
using calibrate::PlanItem;

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

calibrate::CalibrationEnvironment environment(const CalibrateOptions& options, const MpiContext& context,
                                              const Backend& backend, const std::vector<Machine>& machines) {
    calibrate::CalibrationEnvironment out;
    out.date = utc_now();
    out.command = options.command_line;
    out.backend = backend.name;
    out.ranks = context.size();
    out.nodes = context.nodes();
    out.node_of_rank = context.node_of_rank();
    std::map<std::string, std::vector<int>> ranks_by_host;
    for (int r = 0; r < context.size(); ++r) ranks_by_host[context.host_names()[static_cast<size_t>(r)]].push_back(r);
    for (const auto& [host, ranks] : ranks_by_host) out.hosts.push_back({host, ranks});
    // The physical machines under the hosts: `dtsim fit` gives the simulator their shared cores.
    for (const auto& machine : machines) out.machines.push_back({machine.cores, machine.ranks});
    out.communicator_name = backend.communicator->name();
    out.communicator_version = backend.communicator->version();
    out.device_json = backend.device->environment_json();
    out.mpi_library = context.library_version();
    out.quick = options.plan.quick;
    out.mpi_collective_algorithms = options.pinned_algorithms;
    out.mpi_transport = options.mpi_transport;
    return out;
}

// A resumed calibration must run on the same layout as the samples already taken.
void check_same_layout(const std::filesystem::path& file, const MpiContext& context) {
    const auto recorded = calibrate::read_environment_file(file.string());
    if (recorded.ranks != context.size() || recorded.nodes != context.nodes())
        throw InputError(file.string() + ": these samples were taken with " + std::to_string(recorded.ranks) + " ranks on " +
                         std::to_string(recorded.nodes) + " nodes; this run has " + std::to_string(context.size()) +
                         " ranks on " + std::to_string(context.nodes()) +
                         " nodes; resume with the same layout or use another --out");
}

void write_environment(const std::filesystem::path& file, const calibrate::CalibrationEnvironment& environment) {
    write_text_file(file.string(), calibrate::environment_to_json(environment));
}

calibrate::Sample sample_of(const PlanItem& item, const Measurement& measurement, const MpiContext& context,
                            const Backend& backend) {
    calibrate::Sample sample;
    sample.key = item.key();
    sample.op = item.op;
    sample.backend = backend.name;
    sample.bytes = item.bytes;
    sample.time_s = measurement.time_s;
    sample.iterations = measurement.iterations;
    sample.warmup = measurement.warmup;
    sample.iteration_times_s = measurement.iteration_times_s;
    sample.timestamp = utc_now();
    sample.dtype = item.kind == ItemKind::collective || item.kind == ItemKind::point_to_point || item.kind == ItemKind::gemm
                       ? item.dtype
                       : "";
    if (calibrate::is_network(item.op)) {
        std::set<int> node_set;
        for (int r = 0; r < context.size(); ++r)
            if (item.kind == ItemKind::collective ? r < item.ranks
                                                  : std::count(item.members.begin(), item.members.end(), r) > 0)
                node_set.insert(context.node_of_rank()[static_cast<size_t>(r)]);
        sample.mode = item.mode;
        sample.link_class = item.link_class;
        sample.ranks = item.ranks;
        sample.nodes = static_cast<int>(node_set.size());
        return sample;
    }
    sample.device = backend.device->name();
    sample.m = item.m;
    sample.n = item.n;
    sample.k = item.k;
    sample.flops = 2.0 * static_cast<double>(item.m) * static_cast<double>(item.n) * static_cast<double>(item.k);
    sample.kernel = item.kernel;
    if (is_topk(item.kernel)) sample.ratio = calibrate::kCodecTopkRatio;
    if (item.kernel == CodecKernel::topk_decode) sample.blocks = calibrate::kCodecTopkDecodeBlocks;
    if (is_powersgd(item.kernel)) sample.rank = item.rank;
    // Every rank computes at once, as in training: the time is the mean over ranks (microbenchmarks.hpp).
    sample.ranks = context.size();
    sample.nodes = context.nodes();
    return sample;
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
    auto say_left_out = [&] {
        if (context.rank() == 0)
            for (const auto& line : calibrate::left_out_of_plan(plan_options)) std::cerr << "dtsim-runtime: " << line << "\n";
    };
    if (options.print_plan) {
        say_left_out();
        if (context.rank() == 0)
            for (const auto& item : plan) std::cout << item.key() << "\n";
        return exit_code::ok;
    }

    auto backend = make_backend(options.backend, context);  // BackendUnavailable: main says so
    say_left_out();
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
            const auto sample = sample_of(plan[i], measurement, context, backend);
            log->append(calibrate::sample_to_json_line(sample));
            table.row(plan[i], sample, done, todo);
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

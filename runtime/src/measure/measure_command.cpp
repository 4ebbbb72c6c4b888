#include "measure_command.hpp"

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "../backend.hpp"
#include "allreduce_worker.hpp"
#include "llm_worker.hpp"
#include "mpi_layout_channel.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/units.hpp"
#include "dtsim/utf8_text.hpp"
#include "gradient_data.hpp"
#include "measurability.hpp"
#include "measured_run.hpp"
#include "async_parameter_server.hpp"
#include "parameter_server_ranks.hpp"

namespace dtsim::runtime {
namespace {

// What --verify could check: exact sums, sums within int8's error, or nothing known in advance.
enum class SumCheck { exact, int8_error, none };

SumCheck sum_check(const Scenario& scenario) {
    if (scenario.training.llm) return SumCheck::none;
    const auto& strategy = scenario.training.strategy;
    if (strategy.kind == StrategyKind::parameter_server) return strategy.sync == SyncMode::sync ? SumCheck::exact : SumCheck::none;
    switch (scenario.training.compression.kind) {
        case CompressionKind::int8: return SumCheck::int8_error;
        case CompressionKind::topk:
        case CompressionKind::powersgd: return SumCheck::none;
        default: return SumCheck::exact;
    }
}

void print_summary(const Run& run, double alignment_s, std::size_t wrong_sums, bool verified, SumCheck check) {
    const auto& s = run.summary;
    std::cout << "dtsim-runtime measure: " << run.scenario_name << " (measured), " << run.strategy << ", " << s.gpus
              << " worker(s), " << run.iterations.size() << " iteration(s)\n"
              << "  iteration time      " << format_seconds(s.iteration_time_s) << "\n"
              << "  throughput          " << s.samples_per_s << " samples/s\n"
              << "  compute / comm / wait per iteration  " << format_seconds(s.compute_time_s) << " / "
              << format_seconds(s.comm_time_s) << " / " << format_seconds(s.wait_time_s) << "\n"
              << "  clock alignment     within " << format_seconds(alignment_s) << " (the slowest rank's round trip to rank 0 / 2)\n";
    if (!verified) return;
    std::cout << "  aggregation check   ";
    if (check == SumCheck::none)
        std::cout << "not made: asynchronous, top-k, PowerSGD and LLM-layout results are not known in advance\n";
    else if (wrong_sums > 0)
        std::cout << "FAILED\n";
    else
        std::cout << (check == SumCheck::exact ? "every synchronised gradient equals the exact sum"
                                               : "every synchronised gradient is within int8's quantization error of the exact sum")
                  << "\n";
}

// Hierarchical all-reduce groups follow the scenario's nodes: worker r is local rank r mod gpus_per_node of
// node r / gpus_per_node, whatever host mpirun put it on.
AllReduceGroups allreduce_groups(const Scenario& scenario, int rank, MPI_Comm workers) {
    const auto& strategy = scenario.training.strategy;
    AllReduceGroups groups{workers, strategy.kind == StrategyKind::allreduce ? strategy.algorithm : AllReduceAlgorithm::ring};
    if (workers == MPI_COMM_NULL || groups.algorithm != AllReduceAlgorithm::hierarchical) return groups;
    const int per_node = scenario.cluster.gpus_per_node;
    MPI_Comm_split(workers, scenario.cluster.node_of(rank), rank, &groups.node);
    MPI_Comm_split(workers, rank % per_node, rank, &groups.across);
    return groups;
}

// NCCL picks its all-reduce algorithm per size unless told: measure the scenario's (a user's NCCL_ALGO wins).
// algorithm: nccl leaves NCCL its choice, except what training.strategy.nccl forces.
void select_nccl_algorithm(const StrategySpec& strategy) {
    if (strategy.algorithm != AllReduceAlgorithm::nccl) {
        setenv("NCCL_ALGO", strategy.algorithm == AllReduceAlgorithm::tree ? "Tree" : "Ring", 0);
        return;
    }
    static constexpr auto kAlgorithms = make_name_table(
        std::pair{NcclAlgorithm::ring, "Ring"}, std::pair{NcclAlgorithm::tree, "Tree"}, std::pair{NcclAlgorithm::nvls, "NVLS"},
        std::pair{NcclAlgorithm::nvls_tree, "NVLSTree"}, std::pair{NcclAlgorithm::collnet, "CollNetDirect"},
        std::pair{NcclAlgorithm::pat, "PAT"});
    static constexpr auto kProtocols = make_name_table(std::pair{NcclProtocol::ll, "LL"}, std::pair{NcclProtocol::ll128, "LL128"},
                                                       std::pair{NcclProtocol::simple, "Simple"});
    const auto& forced = strategy.nccl;
    if (forced.algorithm != NcclAlgorithm::automatic) setenv("NCCL_ALGO", std::string(kAlgorithms.name(forced.algorithm)).c_str(), 0);
    if (forced.protocol != NcclProtocol::automatic) setenv("NCCL_PROTO", std::string(kProtocols.name(forced.protocol)).c_str(), 0);
    if (!forced.nvls) setenv("NCCL_NVLS_ENABLE", "0", 0);
    if (!forced.pat) setenv("NCCL_PAT_ENABLE", "0", 0);
    if (forced.channels > 0) {
        setenv("NCCL_MIN_NCHANNELS", std::to_string(forced.channels).c_str(), 0);
        setenv("NCCL_MAX_NCHANNELS", std::to_string(forced.channels).c_str(), 0);
    }
}

// Rank 0 alone writes the outputs, so it checks their paths before measuring; every rank learns the verdict,
// so none is left waiting in a collective.
void check_outputs(const MeasureOptions& options, const Scenario& scenario, const MpiContext& context) {
    std::string refusal;
    if (context.rank() == 0) {
        try {
            require_utf8(options.label, "command line: --label");
            prepare_run_outputs(options.outputs, scenario);
        } catch (const std::runtime_error& e) {  // InputError or StoreError
            refusal = e.what();
        }
    }
    if (context.max_over_ranks(refusal.empty() ? 0.0 : 1.0) > 0) throw InputError(refusal);
}

}  // namespace

int measure_thread_level(const MeasureOptions& options) {
    try {
        if (load_scenario_file(options.scenario, options.overrides).training.llm) return MPI_THREAD_MULTIPLE;
    } catch (const InputError&) {  // run_measure reports it, once
    }
    return MPI_THREAD_SERIALIZED;
}

int run_measure(const MeasureOptions& options, const MpiContext& context) {
    const auto scenario = load_scenario_file(options.scenario, options.overrides);
    const bool gpu = options.backend == "nccl";
    if (const auto refusal = measure_refusal(scenario, context.size(), options.compute, gpu)) throw InputError(*refusal);
    check_outputs(options, scenario, context);
    if (gpu) select_nccl_algorithm(scenario.training.strategy);
    auto backend = make_backend(options.backend, context);  // BackendUnavailable: main says so

    const int workers = scenario.cluster.gpus();
    const bool is_worker = context.rank() < workers;
    MPI_Comm worker_comm = MPI_COMM_NULL;
    MPI_Comm_split(context.world(), is_worker ? 0 : MPI_UNDEFINED, context.rank(), &worker_comm);

    AlignedClock clock(context.world());
    SpanLog log(context.rank(), scenario.training.iterations);
    std::optional<LayerGemms> gemms;
    if (options.compute == ComputeMode::gemm && is_worker)
        gemms.emplace(*backend.device, *scenario.model.zoo, scenario.model.batch_per_gpu);
    const CostModel costs(scenario);
    MeasureSetup setup{scenario,
                       costs,
                       make_buckets(costs.layers(), scenario.training.strategy.bucket_bytes),
                       workers,
                       context.size() - workers,
                       context.rank(),
                       context.world(),
                       worker_comm,
                       allreduce_groups(scenario, context.rank(), worker_comm),
                       clock,
                       log,
                       options.compute,
                       gemms ? &*gemms : nullptr,
                       options.verify};
    setup.device = backend.device.get();
    std::unique_ptr<DeviceGradients> device_gradients;
    if (is_worker && scenario.training.strategy.kind == StrategyKind::allreduce && !scenario.training.llm) {
        std::vector<std::size_t> elements;
        for (const auto& bucket : setup.plan.buckets) elements.push_back(gradient_elements(bucket.bytes));
        device_gradients = backend.communicator->device_gradients(elements);
        setup.device_gradients = device_gradients.get();
    }
    if (scenario.training.llm)
        run_llm_worker(setup, [&](const ParallelLayout& layout) {
            if (auto channel = backend.communicator->layout_channel(layout, context.rank())) return channel;
            return std::unique_ptr<LayoutChannel>(std::make_unique<MpiLayoutChannel>(worker_comm, layout, context.rank()));
        });
    else if (scenario.training.strategy.kind == StrategyKind::allreduce)
        run_allreduce_worker(setup);
    else if (is_worker)
        run_parameter_server_worker(setup);
    else if (scenario.training.strategy.sync == SyncMode::sync)
        run_sync_parameter_server(setup);
    else
        run_async_parameter_server(setup);
    for (MPI_Comm* comm : {&setup.groups.node, &setup.groups.across, &worker_comm})
        if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);

    const auto wrong_sums = static_cast<std::size_t>(context.max_over_ranks(static_cast<double>(setup.wrong_sums.load())));
    const double alignment_s = context.max_over_ranks(clock.offset_uncertainty_s());
    auto gathered = log.gather(context.world());
    if (context.rank() != 0) return wrong_sums == 0 ? exit_code::ok : exit_code::failure;

    auto run = make_measured_run(scenario, costs, std::move(gathered), workers, setup.servers);
    run.label = options.label;
    const auto id = write_run_outputs(run, options.outputs);
    print_summary(run, alignment_s, wrong_sums, options.verify, sum_check(scenario));
    if (id) std::cout << "  stored as run " << *id << " in " << options.outputs.db_path << "\n";
    if (wrong_sums > 0) {
        std::cerr << "dtsim-runtime: error: " << wrong_sums << " gradient element(s) on some rank differ from the expected sum\n";
        return exit_code::failure;
    }
    return exit_code::ok;
}

}  // namespace dtsim::runtime

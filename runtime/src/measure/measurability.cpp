#include "measurability.hpp"

namespace dtsim::runtime {

int ranks_needed(const Scenario& scenario) {
    const auto& strategy = scenario.training.strategy;
    const bool dedicated = strategy.kind == StrategyKind::parameter_server && strategy.placement == ServerPlacement::dedicated;
    return scenario.cluster.gpus() + (dedicated ? strategy.servers : 0);
}

namespace {

// What --backend nccl runs: NCCL's own ring or tree all-reduce of uncompressed fp32 buckets.
std::optional<std::string> gpu_refusal(const Scenario& scenario) {
    const auto& strategy = scenario.training.strategy;
    const std::string where = scenario.file + ": ";
    if (strategy.kind != StrategyKind::allreduce)
        return where + "training.strategy.kind: parameter servers are not measured with --backend nccl yet (use --backend mpi)";
    if (strategy.algorithm != AllReduceAlgorithm::ring && strategy.algorithm != AllReduceAlgorithm::tree &&
        strategy.algorithm != AllReduceAlgorithm::nccl)
        return where + "training.strategy.algorithm: " + to_string(strategy.algorithm) +
               " all-reduce is not measured with --backend nccl (NCCL runs ring, tree or its own choice: nccl)";
    if (scenario.training.compression.kind != CompressionKind::none)
        return where + "training.compression: " + to_string(scenario.training.compression.kind) +
               " is not measured with --backend nccl yet (use --backend mpi)";
    return std::nullopt;
}

// What an LLM layout's measured run executes (llm_worker.hpp): modelled compute, ring collectives and
// pipeline messages over MPI; collectives alone over NCCL.
std::optional<std::string> llm_refusal(const Scenario& scenario, ComputeMode compute, bool gpu) {
    const auto& llm = *scenario.training.llm;
    const std::string where = scenario.file + ": ";
    if (compute == ComputeMode::gemm)
        return std::string("--compute gemm runs the whole model's GEMMs; an LLM layout's per-rank layers are measured with "
                           "their modelled times (--compute busy or sleep)");
    if (gpu && llm.parallelism.pipeline > 1)
        return where + "training.parallelism.pipeline: pipeline sends are not measured with --backend nccl yet (use --backend mpi)";
    if (llm.fsdp && llm.fsdp_sharding == FsdpSharding::hybrid)
        return where + "training.strategy.sharding: hybrid is not measured yet (full and grad-op are)";
    if (scenario.training.strategy.algorithm != AllReduceAlgorithm::ring)
        return where + "training.strategy.algorithm: " + to_string(scenario.training.strategy.algorithm) +
               ": an LLM layout's collectives are measured as rings (algorithm: ring)";
    return std::nullopt;
}

std::optional<std::string> data_parallel_refusal(const Scenario& scenario, bool gpu) {
    const auto& strategy = scenario.training.strategy;
    const std::string where = scenario.file + ": ";
    if (gpu)
        if (auto refusal = gpu_refusal(scenario)) return refusal;
    if (!gpu && strategy.kind == StrategyKind::allreduce && strategy.algorithm == AllReduceAlgorithm::nccl)
        return where + "training.strategy.algorithm: nccl is measured with --backend nccl (NCCL's own algorithms)";
    const bool allreduce = strategy.kind == StrategyKind::allreduce;
    if (allreduce && strategy.algorithm != AllReduceAlgorithm::ring && scenario.training.compression.kind == CompressionKind::int8)
        return where + "training.compression: int8 with " + to_string(strategy.algorithm) +
               " all-reduce is not measured yet (int8 is measured with ring)";
    if (strategy.kind == StrategyKind::parameter_server && strategy.placement != ServerPlacement::dedicated)
        return where + "training.strategy.placement: colocated servers are not measured yet (measured runs implement dedicated)";
    if (strategy.local_aggregation && scenario.cluster.gpus_per_node > scenario.cluster.nics_per_node)
        return where + "training.strategy.local_aggregation: GPUs that sum their gradients before pushing are not measured yet "
                       "(measured workers push one by one)";
    const auto compression = scenario.training.compression.kind;
    if (compression != CompressionKind::none && strategy.kind != StrategyKind::allreduce)
        return where + "training.compression: " + to_string(compression) +
               " with parameter servers is not measured yet (measured runs compress with all-reduce only)";
    return std::nullopt;
}

}  // namespace

std::optional<std::string> measure_refusal(const Scenario& scenario, int world_size, ComputeMode compute, bool gpu) {
    const std::string where = scenario.file + ": ";
    if (compute == ComputeMode::gemm && !scenario.model.zoo)
        return where + "model: --compute gemm needs a zoo model (its layers' FLOPs); this one is given by direct times";
    if (gpu && compute == ComputeMode::sleep)
        return std::string("--compute sleep: with --backend nccl the modelled times hold the GPU (--compute busy), which takes no CPU core");
    if (auto refusal = scenario.training.llm ? llm_refusal(scenario, compute, gpu) : data_parallel_refusal(scenario, gpu))
        return refusal;
    const int needed = ranks_needed(scenario);
    if (world_size != needed) {
        std::string servers = ranks_needed(scenario) > scenario.cluster.gpus()
                                  ? " + " + std::to_string(needed - scenario.cluster.gpus()) + " dedicated server(s)"
                                  : "";
        return where + "the scenario needs " + std::to_string(needed) + " ranks (" + std::to_string(scenario.cluster.gpus()) +
               " workers, cluster.nodes × cluster.gpus_per_node" + servers + "), but mpirun started " +
               std::to_string(world_size) + "; run it with mpirun -np " + std::to_string(needed) + " or --set cluster.nodes=...";
    }
    return std::nullopt;
}

}  // namespace dtsim::runtime

#include "measurability.hpp"

namespace dtsim::runtime {

int ranks_needed(const Scenario& scenario) {
    const auto& strategy = scenario.training.strategy;
    const bool dedicated = strategy.kind == StrategyKind::parameter_server && strategy.placement == ServerPlacement::dedicated;
    return scenario.cluster.gpus() + (dedicated ? strategy.servers : 0);
}

std::optional<std::string> measure_refusal(const Scenario& scenario, int world_size, bool gemm_compute) {
    const auto& strategy = scenario.training.strategy;
    const std::string where = scenario.file + ": ";
    if (gemm_compute && scenario.model.name == "direct")
        return where + "model: --compute gemm needs a zoo model (its layers' FLOPs); this one is given by direct times";
    const bool allreduce = strategy.kind == StrategyKind::allreduce;
    if (allreduce && strategy.algorithm != AllReduceAlgorithm::ring && strategy.algorithm != AllReduceAlgorithm::hierarchical)
        return where + "training.strategy.algorithm: " + to_string(strategy.algorithm) +
               " all-reduce is not measured yet (measured runs implement ring and hierarchical)";
    if (allreduce && strategy.algorithm == AllReduceAlgorithm::hierarchical &&
        scenario.training.compression.kind == CompressionKind::int8)
        return where + "training.compression: int8 with hierarchical all-reduce is not measured yet (int8 is measured with ring)";
    if (strategy.kind == StrategyKind::parameter_server && strategy.placement != ServerPlacement::dedicated)
        return where + "training.strategy.placement: colocated servers are not measured yet (measured runs implement dedicated)";
    const auto compression = scenario.training.compression.kind;
    if (compression != CompressionKind::none && strategy.kind != StrategyKind::allreduce)
        return where + "training.compression: " + to_string(compression) +
               " with parameter servers is not measured yet (measured runs compress with all-reduce only)";
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

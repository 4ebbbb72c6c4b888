#include "dtsim/sim/metrics.hpp"

#include <algorithm>

namespace dtsim::sim {

double single_gpu_iteration_time_s(const ModelSpec& model) { return model.forward_s() + model.backward_s(); }

RunSummary summarize(const Scenario& scenario, const std::vector<Span>& spans, const std::vector<double>& iteration_ends,
                     std::vector<IterationRecord>& iterations) {
    const int workers = scenario.cluster.gpus();
    const int count = static_cast<int>(iteration_ends.size());
    const int first_measured = count > 1 ? 1 : 0;
    const int measured = count - first_measured;

    iterations.clear();
    double previous_end = 0, measured_time = 0;
    for (int i = 0; i < count; ++i) {
        const double time = iteration_ends[static_cast<size_t>(i)] - previous_end;
        iterations.push_back({i, time});
        if (i >= first_measured) measured_time += time;
        previous_end = iteration_ends[static_cast<size_t>(i)];
    }

    double compute = 0, comm = 0;
    for (const auto& span : spans) {
        if (span.rank >= workers || span.iteration < first_measured) continue;
        const double duration = span.end_s - span.start_s;
        if (span.lane == Lane::compute) compute += duration;
        if (span.lane == Lane::comm) comm += duration;
    }
    const double per_rank_iteration = static_cast<double>(workers) * measured;

    RunSummary s;
    s.gpus = workers;
    s.nodes = scenario.cluster.nodes;
    s.gpus_per_node = scenario.cluster.gpus_per_node;
    s.batch_per_gpu = scenario.model.batch_per_gpu;
    s.gradient_bytes = scenario.model.gradient_bytes();
    s.iteration_time_s = measured_time / measured;
    s.samples_per_s = s.iteration_time_s > 0 ? workers * static_cast<double>(s.batch_per_gpu) / s.iteration_time_s : 0;
    s.single_gpu_iteration_time_s = single_gpu_iteration_time_s(scenario.model);
    s.speedup = s.iteration_time_s > 0 ? workers * s.single_gpu_iteration_time_s / s.iteration_time_s : 0;
    s.scaling_efficiency = s.speedup / workers;
    s.compute_time_s = compute / per_rank_iteration;
    s.comm_time_s = comm / per_rank_iteration;
    s.exposed_comm_time_s = std::max(0.0, s.iteration_time_s - s.compute_time_s);
    s.comm_share = s.iteration_time_s > 0 ? s.comm_time_s / s.iteration_time_s : 0;
    return s;
}

}  // namespace dtsim::sim

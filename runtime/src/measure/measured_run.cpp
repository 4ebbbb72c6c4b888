#include "measured_run.hpp"

#include <algorithm>
#include <utility>

#include "dtsim/run_metrics.hpp"

namespace dtsim::runtime {

Run make_measured_run(const Scenario& scenario, const CostModel& costs, SpanLog::Gathered gathered, int workers, int servers) {
    // Dedicated servers sit on nodes of their own after the GPU nodes.
    std::vector<int> server_nodes;
    for (int p = 0; p < servers; ++p) server_nodes.push_back(scenario.cluster.nodes + p);
    Run run = start_run(scenario, RunKind::measured, server_nodes);

    run.spans = std::move(gathered.spans);
    std::sort(run.spans.begin(), run.spans.end(), [](const Span& a, const Span& b) {
        return std::tie(a.start_s, a.rank, a.end_s) < std::tie(b.start_s, b.rank, b.end_s);
    });
    Observations observed;
    observed.staleness = std::move(gathered.staleness);
    observed.staleness_clocks = std::move(gathered.staleness_clocks);
    observed.rank_iteration_ends.assign(gathered.iteration_end_s.begin(), gathered.iteration_end_s.begin() + workers);
    std::vector<double> iteration_ends(static_cast<size_t>(scenario.training.iterations), 0.0);
    for (const auto& mine : observed.rank_iteration_ends)
        for (size_t i = 0; i < mine.size() && i < iteration_ends.size(); ++i) iteration_ends[i] = std::max(iteration_ends[i], mine[i]);
    run.summary = summarize(scenario, costs, run.spans, iteration_ends, run.iterations, observed);
    return run;
}

}  // namespace dtsim::runtime

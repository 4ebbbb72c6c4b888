#include "measured_run.hpp"

#include <algorithm>
#include <utility>

#include "dtsim/run_metrics.hpp"

namespace dtsim::runtime {

Run make_measured_run(const Scenario& scenario, SpanLog::Gathered gathered, int workers, int servers) {
    Run run;
    run.kind = RunKind::measured;
    run.scenario_name = scenario.name;
    run.scenario_hash = scenario.hash;
    run.scenario_text = scenario.canonical_text;
    run.strategy = describe_strategy(scenario.training.strategy);
    for (int r = 0; r < workers; ++r) run.ranks.push_back({r, r / scenario.cluster.gpus_per_node, "gpu " + std::to_string(r)});
    for (int p = 0; p < servers; ++p)  // dedicated servers sit on nodes of their own after the GPU nodes
        run.ranks.push_back({workers + p, scenario.cluster.nodes + p, "server " + std::to_string(p)});

    run.spans = std::move(gathered.spans);
    std::sort(run.spans.begin(), run.spans.end(), [](const Span& a, const Span& b) {
        return std::tie(a.start_s, a.rank, a.end_s) < std::tie(b.start_s, b.rank, b.end_s);
    });
    Observations observed;
    observed.staleness = std::move(gathered.staleness);
    observed.rank_iteration_ends.assign(gathered.iteration_end_s.begin(), gathered.iteration_end_s.begin() + workers);
    std::vector<double> iteration_ends(static_cast<size_t>(scenario.training.iterations), 0.0);
    for (const auto& mine : observed.rank_iteration_ends)
        for (size_t i = 0; i < mine.size() && i < iteration_ends.size(); ++i) iteration_ends[i] = std::max(iteration_ends[i], mine[i]);
    run.summary = summarize(scenario, run.spans, iteration_ends, run.iterations, observed);
    return run;
}

}  // namespace dtsim::runtime

#include "pipeline_stages.hpp"

#include "dtsim/parallel_layout.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim::gui {

std::vector<int> pipeline_stages(const Run& run, const SpanStore& store) {
    Scenario scenario;
    try {
        scenario = load_scenario_text(run.scenario_text, "run " + std::to_string(run.id));
    } catch (const std::exception&) {
        // A run stored by another version, or naming files that have moved: its lanes keep their nodes.
        return {};
    }
    if (!scenario.training.llm) return {};
    const ParallelLayout layout(scenario.training.llm->parallelism);
    std::vector<int> stages;
    for (int slot = 0; slot < store.rank_count(); ++slot) {
        const int rank = store.rank(slot).rank;
        if (rank < 0 || rank >= layout.gpus()) return {};
        stages.push_back(layout.coordinate(rank, Dimension::pp));
    }
    return stages;
}

}  // namespace dtsim::gui

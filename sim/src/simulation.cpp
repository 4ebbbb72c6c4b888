#include "dtsim/sim/simulation.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <functional>
#include <sstream>

#include "dtsim/sim/actors.hpp"
#include "dtsim/sim/engine_setup.hpp"
#include "dtsim/input_error.hpp"
#include "dtsim/physical_limits.hpp"
#include "dtsim/run_json.hpp"
#include "dtsim/run_metrics.hpp"
#include "dtsim/sim/faults.hpp"
#include "dtsim/sim/platform.hpp"
#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

constexpr int kActorsListedOnDeadlock = 12;

std::string deadlock_report(const SimulationContext& ctx) {
    std::ostringstream out;
    int blocked = 0;
    for (const auto& state : ctx.states()) {
        if (state.finished) continue;
        if (blocked++ < kActorsListedOnDeadlock) {
            out << "\n  " << state.name << ": waiting for " << state.waiting_for;
            if (state.peer >= 0) out << " (peer rank " << state.peer << ")";
            if (state.iteration >= 0) out << ", iteration " << state.iteration;
            if (state.bucket >= 0) out << ", bucket " << state.bucket;
        }
    }
    if (blocked > kActorsListedOnDeadlock) out << "\n  ... and " << blocked - kActorsListedOnDeadlock << " more";
    std::ostringstream head;
    head << "simulation deadlocked at t=" << sg4::Engine::get_clock() << " s: " << blocked
         << " actors blocked forever" << out.str();
    return head.str();
}

// Inputs within their ranges can still add up to a run of centuries (a year's pause every iteration): there
// the clock's rounding swallows microsecond kernels and latencies, so such a run is refused, not reported.
void require_resolvable_clock(const Scenario& scenario) {
    const double end_s = sg4::Engine::get_clock();
    if (end_s <= kMaxSimulatedSeconds) return;
    std::ostringstream message;
    message << scenario.file << ": key 'training.iterations': the simulated run ends at t = " << end_s << " s, past the "
            << kMaxSimulatedText << " a run may span before its clock rounds away microseconds; expected fewer "
            << "iterations or shorter times";
    throw InputError(message.str());
}

}  // namespace

Run simulate(const Scenario& scenario, SimulationProgress* progress) {
    const auto& strategy = scenario.training.strategy;
    const int servers = strategy.kind == StrategyKind::parameter_server ? strategy.servers : 0;
    // An LLM layout runs up to three actors per rank (llm_actors.cpp).
    const int actors = scenario.training.llm ? 3 * scenario.cluster.gpus() : scenario.cluster.gpus() + 2 * servers;
    auto engine = start_engine(actors, scenario.cluster.network_model);
    const CostModel costs(scenario);
    std::function<void(int)> on_iteration;
    if (progress) on_iteration = [progress](int iteration) { progress->done.store(iteration + 1, std::memory_order_relaxed); };
    report_progress_to(progress, scenario.training.iterations);
    SimulationContext ctx(scenario, costs, build_platform(scenario, costs), SimulationKind::training, on_iteration);
    const auto spawn_training = [&ctx] {
        if (ctx.scenario.training.llm)
            spawn_llm_actors(ctx);
        else if (ctx.scenario.training.strategy.kind == StrategyKind::allreduce)
            spawn_allreduce_actors(ctx);
        else
            spawn_parameter_server_actors(ctx);
    };
    spawn_training();
    spawn_fault_controllers(ctx, spawn_training);
    // The report is made when the engine detects the deadlock, before it kills the blocked actors.
    std::string deadlock;
    sg4::Engine::on_deadlock_cb([&ctx, &deadlock] { deadlock = deadlock_report(ctx); });
    engine->run();
    if (!deadlock.empty()) throw DeadlockError(deadlock);
    require_resolvable_clock(scenario);

    Run run = start_run(scenario, RunKind::predicted, ctx.platform.server_nodes);
    run.spans = ctx.recorder.take_spans();
    const auto& faults = ctx.faults;
    Observations observed{ctx.recorder.rank_iteration_ends(), ctx.staleness, ctx.staleness_clocks, ctx.recorder.quorums(),
                          faults.lost_work_s, faults.restart_s, faults.checkpoint_s / ctx.workers};
    observed.ranks_with_timeline = llm_ranks_with_timeline(scenario);
    run.summary = summarize(scenario, costs, run.spans, ctx.recorder.iteration_ends(), run.iterations, observed);
    require_finite(run);
    return run;
}

}  // namespace dtsim::sim

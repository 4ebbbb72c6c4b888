#include "dtsim/sim/collective_replay.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <stdexcept>

#include "dtsim/sim/calibrated_collectives.hpp"
#include "dtsim/sim/collectives.hpp"
#include "dtsim/sim/engine_setup.hpp"
#include "dtsim/sim/nccl_collectives.hpp"
#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

using Collective = void (*)(const Actor&, const RankGroup&, double);

// As the calibration pinned the trial's collective, or as training runs it: the scenario's all-reduce, rings
// with the calibrated collectives' per-step extra where the profile has one.
Collective collective_for(NetworkOp op, ReplayMode mode) {
    const bool as_training = mode == ReplayMode::scenario;
    switch (op) {
        case NetworkOp::allreduce:
            if (as_training) return scenario_allreduce;
            return [](const Actor& a, const RankGroup& g, double bytes) { ring_allreduce(a, g, bytes); };
        case NetworkOp::allgather: return as_training ? calibrated_allgather : ring_allgather;
        case NetworkOp::reducescatter: return as_training ? calibrated_reduce_scatter : ring_reduce_scatter;
        case NetworkOp::broadcast: return binomial_broadcast;
        case NetworkOp::alltoall: return linear_alltoall;
        case NetworkOp::sendrecv:
        case NetworkOp::exchange:
        case NetworkOp::loaded_pingpong:
        case NetworkOp::pingpong: break;
    }
    throw std::invalid_argument("cannot replay " + std::string(to_string(op)) + ": not a collective");
}

void run_trial(const Actor& actor, int rank, const CollectiveTrial& trial, ReplayMode mode) {
    const RankGroup group{0, 1, trial.ranks, rank};
    // With algorithm: nccl the ring collectives and the all-to-all replay as NCCL runs them, in either mode.
    const bool nccl = actor.ctx.scenario.training.strategy.algorithm == AllReduceAlgorithm::nccl;
    const bool nccl_runs_it = trial.op == NetworkOp::allreduce || trial.op == NetworkOp::allgather || trial.op == NetworkOp::reducescatter ||
                              trial.op == NetworkOp::alltoall;
    if (nccl && nccl_runs_it) return nccl_collective(actor, group, trial.op, trial.bytes);
    collective_for(trial.op, mode)(actor, group, trial.bytes);
}

}  // namespace

std::vector<double> simulate_collectives(const Scenario& scenario, const std::vector<CollectiveTrial>& trials,
                                         SimulationProgress* progress, ReplayMode mode) {
    const int world = scenario.cluster.gpus();
    for (const auto& trial : trials)
        if (trial.ranks < 2 || trial.ranks > world || (mode == ReplayMode::scenario && trial.ranks != world))
            throw std::invalid_argument("a replayed " + std::string(to_string(trial.op)) + " needs 2 to " + std::to_string(world) +
                                        " ranks (all of them as the scenario runs it)");
    auto engine = start_engine(world, scenario.cluster.network_model);
    // The replay's own error: ports shared perfectly, since the profile's incast comes from the very
    // all-to-alls replayed here.
    CostModel costs(scenario);
    if (mode == ReplayMode::calibration) costs.share_ports_perfectly();
    report_progress_to(progress, static_cast<int>(trials.size()));
    SimulationContext ctx(scenario, costs, build_platform(scenario, costs), SimulationKind::replay, {});
    ctx.passes_start_idle = mode == ReplayMode::calibration;
    std::vector<double> starts(trials.size(), 0), ends(trials.size(), 0);
    // Every rank meets every other at a barrier before each trial, so each starts from quiet links.
    auto barrier = sg4::Barrier::create(static_cast<unsigned>(world));
    for (int rank = 0; rank < world; ++rank) {
        const int slot = ctx.register_actor("rank " + std::to_string(rank));
        sg4::Actor::create("rank-" + std::to_string(rank), ctx.platform.gpu_hosts[static_cast<size_t>(rank)],
                           [&ctx, &trials, &starts, &ends, barrier, rank, slot, progress, mode] {
                               for (size_t t = 0; t < trials.size(); ++t) {
                                   barrier->wait();
                                   starts[t] = sg4::Engine::get_clock();
                                   if (rank < trials[t].ranks) run_trial(Actor{ctx, slot}, rank, trials[t], mode);
                                   ends[t] = std::max(ends[t], sg4::Engine::get_clock());
                                   if (progress && rank == 0) progress->done.store(static_cast<int>(t) + 1, std::memory_order_relaxed);
                               }
                               ctx.state(slot).finished = true;
                           });
    }
    engine->run();
    std::vector<double> out;
    for (size_t t = 0; t < trials.size(); ++t) out.push_back(ends[t] - starts[t]);
    return out;
}

}  // namespace dtsim::sim

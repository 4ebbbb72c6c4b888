#include "dtsim/sim/faults.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>
#include <cmath>

#include "dtsim/sim/compute_schedule.hpp"

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {

// Both directions of the degraded NIC, intra-node link (names from platform_leaves.cpp) or rail up-link
// (fabric_rail.cpp).
std::vector<sg4::Link*> degraded_links(const Scenario& scenario, const LinkDegradationSpec& spec) {
    const int per_node = scenario.cluster.gpus_per_node;
    const std::string name = spec.rail_uplink >= 0 ? "rail-uplink-" + std::to_string(spec.rail_uplink)
                             : spec.rank >= 0 ? "nvlink-" + std::to_string(scenario.cluster.node_of(spec.rank)) + "-" + std::to_string(spec.rank % per_node)
                                              : "nic-" + std::to_string(spec.node) + "-" + std::to_string(spec.nic);
    auto* link = sg4::Engine::get_instance()->split_duplex_link_by_name(name);
    return {link->get_link_up(), link->get_link_down()};
}

// Scales the links' bandwidth by `fraction` during the window and back after it. Scaling (rather than
// setting) lets windows on one link overlap. A daemon: it does not keep the simulation alive.
void link_degradation_actor(std::vector<sg4::Link*> links, double fraction, double start_s, double end_s) {
    sg4::Actor::self()->daemonize();
    wait_until(start_s);
    for (auto* link : links) link->set_bandwidth(link->get_bandwidth() * fraction);
    if (!std::isfinite(end_s)) return;
    wait_until(end_s);
    for (auto* link : links) link->set_bandwidth(link->get_bandwidth() / fraction);
}

bool checkpoint_due(const SimulationContext& ctx, int rank, int iteration) {
    const auto& failure = ctx.scenario.training.stragglers.node_failure;
    if (!failure.any() || failure.recovery != Recovery::restart_from_checkpoint) return false;
    if (iteration + 1 == ctx.scenario.training.iterations) return false;  // training is over
    if (failure.checkpoint_every_iterations > 0) return (iteration + 1) % failure.checkpoint_every_iterations == 0;
    return sg4::Engine::get_clock() - ctx.faults.checkpoint_end_s[static_cast<size_t>(rank)] >= failure.checkpoint_every_s;
}

// When rank `rank` last had what the job restarts from: its checkpoint, or the end of the iteration
// before the one the survivors redo.
double recovery_point_s(const SimulationContext& ctx, int rank, int from_iteration) {
    const auto r = static_cast<size_t>(rank);
    if (ctx.scenario.training.stragglers.node_failure.recovery == Recovery::restart_from_checkpoint) return ctx.faults.checkpoint_end_s[r];
    return ctx.recorder.end_of(rank, from_iteration - 1);
}

// Not a daemon: the simulation ends when the last non-daemon actor does, and the failure kills every
// training actor before it spawns the next epoch's.
void node_failure_actor(SimulationContext* ctx, std::function<void()> spawn_training) {
    const auto& failure = ctx->scenario.training.stragglers.node_failure;
    wait_until(failure.at_s);
    const double now = sg4::Engine::get_clock();
    auto& cohort = ctx->cohort;
    const int iterations = ctx->scenario.training.iterations;
    if (std::all_of(cohort.ranks.begin(), cohort.ranks.end(),
                    [&](int rank) { return ctx->faults.completed[static_cast<size_t>(rank)] == iterations; }))
        return;  // training was over
    cohort.stopping = true;
    for (auto& actor : cohort.actors) actor->kill();
    cohort.actors.clear();
    for (int slot = 0; slot < static_cast<int>(ctx->states().size()); ++slot) ctx->state(slot).finished = true;

    // With drop the failed node's GPUs are gone: the survivors' state decides where training goes on.
    if (failure.recovery == Recovery::drop)
        std::erase_if(cohort.ranks, [&](int rank) { return ctx->scenario.cluster.node_of(rank) == failure.node; });
    const auto& ledger = ctx->faults;
    int from = ctx->scenario.training.iterations;
    for (int rank : cohort.ranks) {
        const auto r = static_cast<size_t>(rank);
        from = std::min(from, failure.recovery == Recovery::drop ? ledger.completed[r] : ledger.checkpointed[r]);
    }
    ctx->recorder.mark_lost(from, now);
    double lost = 0;
    for (int rank : cohort.ranks) {
        const double since = recovery_point_s(*ctx, rank, from);
        ctx->recorder.add(Span{rank, Lane::wait, "lost work", -1, 0, since, now, 0});
        lost += now - since;
    }
    ctx->faults.lost_work_s = lost / static_cast<double>(cohort.ranks.size());
    ctx->faults.restart_s = failure.restart_cost_s;

    cohort.first_iteration = from;
    cohort.start_s = now + failure.restart_cost_s;
    // The job restarts from its checkpoint: a timed checkpoint interval counts from the restart.
    for (int rank : cohort.ranks) ctx->faults.checkpoint_end_s[static_cast<size_t>(rank)] = cohort.start_s;
    ctx->recorder.rewind(from, static_cast<int>(cohort.ranks.size()) - ctx->scenario.training.strategy.backup_workers);
    ctx->begin_epoch();
    cohort.stopping = false;
    spawn_training();
}

}  // namespace

void spawn_fault_controllers(SimulationContext& ctx, std::function<void()> spawn_training) {
    const auto& stragglers = ctx.scenario.training.stragglers;
    auto* host = ctx.platform.gpu_hosts.front();
    for (const auto& spec : stragglers.link_degradation)
        sg4::Actor::create("link-degradation", host, link_degradation_actor, degraded_links(ctx.scenario, spec), spec.fraction,
                           spec.start_s, spec.end_s);
    if (stragglers.node_failure.any())
        sg4::Actor::create("node-failure", host, node_failure_actor, &ctx, std::move(spawn_training));
}

void await_restart(SimulationContext& ctx, int first_rank, int ranks) {
    const double start = sg4::Engine::get_clock();
    wait_until(ctx.cohort.start_s);
    for (int r = first_rank; r < first_rank + ranks; ++r) ctx.record(r, Lane::wait, "restart", ctx.cohort.first_iteration, 0, start);
}

void iteration_finished(SimulationContext& ctx, int first_rank, int ranks, int iteration) {
    auto& ledger = ctx.faults;
    const double now = sg4::Engine::get_clock();
    for (int r = first_rank; r < first_rank + ranks; ++r) {
        ctx.recorder.iteration_done(r, iteration, now);
        ledger.completed[static_cast<size_t>(r)] = iteration + 1;
    }
    if (!checkpoint_due(ctx, first_rank, iteration)) return;
    const double cost = ctx.scenario.training.stragglers.node_failure.checkpoint_cost_s;
    if (cost > 0) sg4::this_actor::sleep_for(cost);
    for (int r = first_rank; r < first_rank + ranks; ++r) {
        ctx.record(r, Lane::compute, "checkpoint", iteration, 0, now);
        ledger.checkpointed[static_cast<size_t>(r)] = iteration + 1;
        ledger.checkpoint_end_s[static_cast<size_t>(r)] = sg4::Engine::get_clock();
        ledger.checkpoint_s += cost;
    }
}

void run_in_epoch(const SimulationContext& ctx, const std::function<void()>& body) {
    try {
        body();
    } catch (const simgrid::Exception&) {
        if (!ctx.cohort.stopping) throw;  // not caused by a failure
    }
}

}  // namespace dtsim::sim

#include "dtsim/sim/simulation_context.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.hpp>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

bool links_alike(const Scenario& scenario) {
    const auto& stragglers = scenario.training.stragglers;
    return stragglers.link_degradation.empty() && !stragglers.node_failure.any() && scenario.debug.lose_message_to_rank < 0;
}

bool training_collectives_run_alone(const Scenario& scenario) {
    const auto& training = scenario.training;
    return !training.llm && training.strategy.kind == StrategyKind::allreduce && training.fidelity == Fidelity::flow &&
           training.strategy.backup_workers == 0 && links_alike(scenario);
}

SimulationContext::SimulationContext(const Scenario& scenario_in, const CostModel& costs_in, Platform platform_in,
                                     SimulationKind kind, std::function<void(int)> on_iteration)
    : scenario(scenario_in),
      costs(costs_in),
      platform(std::move(platform_in)),
      plan(make_buckets(costs_in.layers(), scenario_in.training.strategy.bucket_bytes)),
      workers(scenario_in.cluster.gpus()),
      latency_factor(simgrid::config::get_value<double>("network/latency-factor")),
      collectives_run_alone(kind == SimulationKind::training && training_collectives_run_alone(scenario_in)),
      recorder(workers, scenario_in.training.iterations, workers - scenario_in.training.strategy.backup_workers,
               std::move(on_iteration)) {
    for (int r = 0; r < workers; ++r) cohort.ranks.push_back(r);
    faults.checkpointed.assign(static_cast<size_t>(workers), 0);
    faults.checkpoint_end_s.assign(static_cast<size_t>(workers), 0.0);
    faults.completed.assign(static_cast<size_t>(workers), 0);
}

void SimulationContext::begin_epoch() {
    ++cohort.epoch;
    mailboxes_.clear();
}

std::string SimulationContext::epoch_name(const std::string& name) const {
    return cohort.epoch == 0 ? name : "e" + std::to_string(cohort.epoch) + "-" + name;
}

int SimulationContext::register_actor(std::string name) {
    states_.push_back(ActorState{std::move(name)});
    return static_cast<int>(states_.size()) - 1;
}

sg4::Mailbox* SimulationContext::link_mailbox(int from, int to, int channel) {
    const long long key = pair_key(from, to) + channel * (workers + 1LL) * (workers + 1LL);
    if (auto found = mailboxes_.find(key); found != mailboxes_.end()) return found->second;
    // by_name is a simcall: other actors may run (and grow the map) before it returns, so no iterator
    // into the map may be held across it.
    auto* mailbox = sg4::Mailbox::by_name(epoch_name("p2p-" + std::to_string(from) + ">" + std::to_string(to) +
                                                     (channel == 0 ? "" : "#" + std::to_string(channel))));
    mailboxes_[key] = mailbox;
    return mailbox;
}

double SimulationContext::route_latency_s(int from, int to) {
    // Asked once per bucket by every rank in flow fidelity: resolve each route once.
    const long long key = pair_key(from, to);
    if (auto found = route_latencies_.find(key); found != route_latencies_.end()) return found->second;
    std::vector<sg4::Link*> links;
    double latency = 0;
    platform.gpu_hosts[static_cast<size_t>(from)]->route_to(platform.gpu_hosts[static_cast<size_t>(to)], links, &latency);
    return route_latencies_[key] = latency * latency_factor;
}

MessageCost SimulationContext::message_cost(int from, int to, double bytes, bool first_of_pass, int ring_members) const {
    auto cost = costs.link_between(from, to).message_cost(bytes, first_of_pass, ring_members);
    if (nic_sharers > 1 && scenario.cluster.node_of(from) != scenario.cluster.node_of(to)) cost.wire_bytes *= nic_sharers;
    return cost;
}

void Actor::waits_for(const char* what, int peer) const {
    auto& state = ctx.state(slot);
    state.waiting_for = what;
    state.peer = peer;
}

bool SimulationContext::lose_message_to(int rank) {
    if (message_lost_ || scenario.debug.lose_message_to_rank != rank) return false;
    message_lost_ = true;
    return true;
}

void SimulationContext::record(int rank, Lane lane, const char* name, int iteration, int index, double start_s, double bytes) {
    const double now = sg4::Engine::get_clock();
    if (now > start_s) recorder.add(Span{rank, lane, name, iteration, index, start_s, now, bytes});
}

SimulationContext::CollectiveGroup& SimulationContext::collective_group(int stream, int first, int stride, int count,
                                                                       const std::vector<int>* members) {
    auto& group = collective_groups_[{cohort.epoch, stream, first, stride, count, members}];
    if (!group.barrier) group.barrier = sg4::Barrier::create(static_cast<unsigned>(count));
    return group;
}

}  // namespace dtsim::sim

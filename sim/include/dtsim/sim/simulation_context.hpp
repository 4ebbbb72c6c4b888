#pragma once
// State shared by the actors of one simulation: the scenario, the platform, the gradient buckets, the
// timeline, and what each actor is waiting for (reported if the simulation deadlocks).
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <string>
#include <unordered_map>
#include <vector>

#include "dtsim/buckets.hpp"
#include "dtsim/cost_model.hpp"
#include "dtsim/scenario.hpp"
#include "dtsim/sim/platform.hpp"
#include "dtsim/sim/timeline_recorder.hpp"

namespace dtsim::sim {

/// What an actor is blocked on, formatted only when a deadlock is reported.
struct ActorState {
    std::string name;          // "rank 3", "ranks 0-7", "server 0"
    const char* waiting_for = "starting";
    int peer = -1;
    int iteration = -1;
    int bucket = -1;
    bool finished = false;
};

/// The workers training now: all of them until a failure, then those that go on. Each failure starts a
/// new epoch whose actors use mailboxes of their own, so nothing a killed actor posted is ever matched.
struct Cohort {
    int epoch = 0;
    int first_iteration = 0;      // where the epoch's workers start (or restart)
    double start_s = 0;           // when they may (after the restart cost)
    std::vector<int> ranks;       // the workers, ascending
    std::vector<simgrid::s4u::ActorPtr> actors;  // the epoch's actors, killed when a node fails
    bool stopping = false;        // while a failure kills them
};

/// What faults cost, per worker (the mean over the workers a failure stopped), for the summary.
struct FaultLedger {
    std::vector<int> checkpointed;         // per rank: iterations completed at its last checkpoint
    std::vector<double> checkpoint_end_s;  // per rank: when that checkpoint was written
    std::vector<int> completed;            // per rank: iterations completed
    double lost_work_s = 0;
    double restart_s = 0;
    double checkpoint_s = 0;
};

class SimulationContext;

/// Message channels each communication stream has between two ranks (collectives.hpp).
inline constexpr int kChannelsPerStream = 4;

/// One actor of a simulation: the context it shares with the others, and its slot there, which says what
/// it is blocked on if the simulation deadlocks. A rank with several communication streams at once (an
/// LLM layout's compute stream, gradient stream and parameter-gather stream) gives each its own `stream`,
/// so that their messages between the same two ranks never match each other's.
struct Actor {
    SimulationContext& ctx;
    int slot;
    int stream = 0;
    /// Records what the actor is about to block on (a peer rank, or -1).
    void waits_for(const char* what, int peer = -1) const;
};

/// What a simulation runs: a training job (simulate()), or collectives replayed one at a time after a barrier
/// (collective_replay.hpp).
enum class SimulationKind { training, replay };

/// Whether no fault makes one link or node unlike the others: no degraded link, node failure or lost message.
bool links_alike(const Scenario& scenario);

/// Whether every collective of a training simulation of `scenario` has the network to itself, on links alike:
/// data-parallel all-reduce (no LLM layout, whose streams overlap) in flow fidelity, whose ranks start and end
/// each collective together on their one communication stream (allreduce_actor.cpp), without backup workers
/// (their groups form bucket by bucket), and links_alike.
bool training_collectives_run_alone(const Scenario& scenario);

class SimulationContext {
public:
    SimulationContext(const Scenario& scenario, const CostModel& costs, Platform platform, SimulationKind kind,
                      std::function<void(int)> on_iteration);

    const Scenario& scenario;
    const CostModel& costs;
    const Platform platform;
    const BucketPlan plan;
    const int workers;
    const double latency_factor;  // the network model's factor on route latencies
    /// Whether each ring pass starts from quiet links, so that its first step costs the profile's
    /// one-at-a-time fit (LinkCost::from_idle): true in the replay of collectives timed one at a time
    /// after a barrier (collective_replay.hpp); false in training, where buckets follow one another.
    bool passes_start_idle = false;
    /// Flow fidelity of an LLM layout simulates one rank per tensor group (llm_actors.cpp): the ranks of its
    /// group that share its NIC send the same flows at the same time, so its messages between nodes carry
    /// their bytes too. 1 otherwise.
    int nic_sharers = 1;
    /// training_collectives_run_alone in training; false in the replay, which has always sent every flow. A
    /// collective may then simulate one of several identical copies of its flows (nccl_collectives.cpp).
    const bool collectives_run_alone;
    TimelineRecorder recorder;
    std::vector<double> staleness;         // version gap of every gradient a parameter server applied (async/ssp)
    std::vector<double> staleness_clocks;  // the same gradients' gaps in clocks (Observations::staleness_clocks)
    Cohort cohort;
    FaultLedger faults;

    /// Registers an actor for deadlock reports; returns its slot.
    int register_actor(std::string name);
    ActorState& state(int slot) { return states_[static_cast<size_t>(slot)]; }
    const std::deque<ActorState>& states() const { return states_; }

    /// The point-to-point mailbox from one rank to another. A collective that runs several message
    /// streams between the same ranks at once (the two trees of a double binary tree) keeps them
    /// apart with `channel`, so that a receive never matches another stream's message.
    simgrid::s4u::Mailbox* link_mailbox(int from, int to, int channel = 0);
    /// Starts a new epoch: mailboxes get new names.
    void begin_epoch();
    /// A mailbox name unique to the current epoch.
    std::string epoch_name(const std::string& name) const;
    /// One-way route latency from one rank's host to another's, with the model's latency factor.
    double route_latency_s(int from, int to);
    /// A message's cost beyond its link's flow between two ranks, from the scenario's profile (else none):
    /// see LinkCost::message_cost; a step of a ring of `ring_members` ranks, see LinkModel::message_cost.
    MessageCost message_cost(int from, int to, double bytes, bool first_of_pass = false, int ring_members = 0) const;
    /// What the collectives of one group on communication stream `stream` share in this epoch, created on
    /// first use: the group of `count` ranks from `first` by `stride`, or `members` where given (whose
    /// content must not change within the epoch).
    struct CollectiveGroup {
        simgrid::s4u::BarrierPtr barrier;        // its members start and finish each collective together
        std::shared_ptr<const void> layout;      // what the collective algorithm derived from the group once
    };
    CollectiveGroup& collective_group(int stream, int first, int stride, int count, const std::vector<int>* members);
    /// True once, for the first message to the rank named by the scenario's debug.lose_message_to_rank.
    bool lose_message_to(int rank);
    /// Records a span when it has a duration.
    void record(int rank, Lane lane, const char* name, int iteration, int index, double start_s, double bytes = 0);

private:
    // A deque: actors keep a reference to their state while a node failure registers the next epoch's.
    std::deque<ActorState> states_;
    long long pair_key(int from, int to) const { return static_cast<long long>(from) * (workers + 1LL) + to; }
    std::unordered_map<long long, simgrid::s4u::Mailbox*> mailboxes_;
    std::unordered_map<long long, double> route_latencies_;
    bool message_lost_ = false;
    std::map<std::tuple<int, int, int, int, int, const std::vector<int>*>, CollectiveGroup> collective_groups_;
};

}  // namespace dtsim::sim

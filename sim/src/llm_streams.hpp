#pragma once
// The side streams of a rank in an LLM layout, fed by its compute stream (llm_actors.cpp): the gradient
// stream reduces buckets as backward produces them; the gather stream (ZeRO-3, FSDP full or hybrid)
// all-gathers each layer's parameters before the compute stream needs them, one layer ahead with
// prefetch. Flow fidelity starts and ends every ring collective with all of its group (run_together).
#include <simgrid/s4u/Barrier.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <deque>
#include <map>
#include <tuple>

#include "dtsim/parallel_layout.hpp"
#include "dtsim/sim/collectives.hpp"

namespace dtsim::sim {

/// A rank's communication streams, each with mailboxes of its own (Actor::stream).
enum class Stream { compute = 0, gradients = 1, gather = 2 };

inline RankGroup rank_group(const StridedGroup& group) { return RankGroup{group.first, group.stride, group.count, group.position}; }

/// Flow fidelity: one barrier per group and stream, with which its members run each collective together
/// (run_together); none in step. Where stage_nodes_alike holds, a ring collective of a group inside one node
/// sends its flows on the stage's first node only: the same group on the stage's other nodes shares that
/// group's barrier and waits with it for those flows, which stand for its own copies.
class FlowBarriers {
public:
    explicit FlowBarriers(const Scenario& scenario);
    /// Runs a collective of `group` on `stream`; `ring_passes`: whether it runs ring passes.
    template <class Collective>
    void run(const Actor& actor, Stream stream, const RankGroup& group, bool ring_passes, Collective&& collective) {
        const auto entry = barrier(stream, group, ring_passes);
        run_together(actor, entry.barrier, ring_passes, [&] {
            if (entry.sends) std::forward<Collective>(collective)();
        });
    }

private:
    struct Entry {
        simgrid::s4u::BarrierPtr barrier;  // none in step fidelity and for a single rank
        bool sends = true;                 // false on the stage's other nodes: the first node's flows stand for theirs
    };
    Entry barrier(Stream stream, const RankGroup& group, bool ring_passes);

    const bool flow_;
    const int gpus_per_node_;
    const int stage_nodes_;  // nodes per pipeline stage where stage_nodes_alike holds; 0 otherwise
    // Per stream, group (its first rank, stride and size) and whether the stage's copies share it.
    std::map<std::tuple<int, int, int, int, bool>, simgrid::s4u::BarrierPtr> barriers_;
};

enum class GradientOp { allreduce, reduce_scatter, hybrid };

/// One bucket of gradients for the gradient stream; `last` ends the iteration's work.
struct GradientJob {
    double bytes = 0;
    bool expert = false;  // reduced over the expert-data group
    GradientOp op = GradientOp::allreduce;
    int iteration = 0;
    int index = 0;
    bool last = false;
};

/// One layer's parameters for the gather stream; `end` ends the run.
struct GatherJob {
    double bytes = 0;
    bool expert = false;  // sharded over the expert-data group
    int iteration = 0;
    int index = 0;        // the microbatch
    bool end = false;
};

/// A queue between two actors of one rank: push never blocks, pop waits for an item.
template <typename Item>
class Handoff {
public:
    void push(Item item) {
        items_.push_back(std::move(item));
        ready_->release();
    }
    Item pop() {
        ready_->acquire();
        Item item = std::move(items_.front());
        items_.pop_front();
        return item;
    }

private:
    std::deque<Item> items_;
    simgrid::s4u::SemaphorePtr ready_ = simgrid::s4u::Semaphore::create(0);
};

/// What one modelled rank's actors share.
struct RankStreams {
    Handoff<GradientJob> gradients;
    simgrid::s4u::SemaphorePtr gradients_done = simgrid::s4u::Semaphore::create(0);
    Handoff<GatherJob> gathers;  // every layer's parameters, in the order compute uses them
    simgrid::s4u::SemaphorePtr gathered = simgrid::s4u::Semaphore::create(0);
    simgrid::s4u::SemaphorePtr gather_credit = simgrid::s4u::Semaphore::create(1);
};

/// The groups a rank's data-parallel traffic runs over.
struct DataGroups {
    RankGroup dense;   // cp × ep × dp
    RankGroup expert;  // dp only: the ranks holding the same experts
    RankGroup shard;   // hybrid FSDP: the part of `dense` that shards the parameters; `dense` otherwise
    RankGroup replica; // hybrid FSDP: the ranks holding the same shard
};
DataGroups data_groups(const SimulationContext& ctx, const ParallelLayout& layout, int rank);

/// The gradient stream of one rank: reduces each job's bucket over its group, records it, and releases
/// `gradients_done` at each iteration's last job.
void run_gradient_stream(const Actor& actor, RankStreams& streams, FlowBarriers& barriers, const DataGroups& groups);

/// The gather stream of one rank: all-gathers each layer's parameters over the sharding group.
void run_gather_stream(const Actor& actor, RankStreams& streams, FlowBarriers& barriers, const DataGroups& groups);

}  // namespace dtsim::sim

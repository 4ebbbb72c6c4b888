#pragma once
// Backup workers for synchronous all-reduce (training.strategy.backup_workers: b). What real systems do
// with backup workers is let a step go on with the first N - b gradients (Chen et al., "Revisiting
// Distributed Synchronous SGD", 2016, for parameter servers); for all-reduce we model partial collectives
// in the same spirit: each bucket of each step is all-reduced by the first N - b workers whose bucket is
// ready, as soon as the last of them is. A worker that comes later finds the group formed: its gradient
// for that bucket is dropped and it receives the reduced bucket from the group's first rank (one
// point-to-point transfer) so that all replicas stay equal. Late workers do not skip steps: they go on
// computing every step (so a persistent straggler is late every time and never holds the others up).
#include <map>
#include <utility>
#include <vector>

#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

class BackupGroups {
public:
    explicit BackupGroups(SimulationContext& ctx) : ctx_(ctx) {}

    /// The group `rank` is in for `bucket` of `iteration`, in rank order; `position` is -1 when it came
    /// too late. Blocks until the group is complete.
    struct Membership {
        const std::vector<int>* members = nullptr;
        int position = -1;
    };
    Membership join(int rank, int iteration, int bucket);

    /// The group's first rank sends the reduced bucket to every worker not in the group (without waiting).
    void send_result(const Membership& group, int iteration, int bucket, double bytes);
    /// A late worker receives the reduced bucket.
    void receive_result(int rank, int iteration, int bucket);

private:
    struct Group {
        std::vector<int> members;
        bool formed = false;
        simgrid::s4u::ConditionVariablePtr formed_changed = simgrid::s4u::ConditionVariable::create();
    };
    simgrid::s4u::Mailbox* result_mailbox(int rank, int iteration, int bucket) const;

    SimulationContext& ctx_;
    std::map<std::pair<int, int>, Group> groups_;  // by (iteration, bucket); never erased: rings point into them
    simgrid::s4u::MutexPtr mutex_ = simgrid::s4u::Mutex::create();
};

}  // namespace dtsim::sim

#pragma once
// Stale-synchronous reads (Ho et al., "More Effective Distributed ML via a Stale Synchronous Parallel
// Parameter Server", 2013): a worker at clock c (its iteration) reads parameters that hold every update
// of clocks <= c - s - 1. The reply to a worker's push of clock c is what it reads at clock c + 1, so a
// server holds that reply until every worker's push of clock c - s to the shard has been applied; with
// s = 0 that is a synchronous round. Without a bound (async) nothing is held. One per shard a server
// holds, in the simulator's servers and the measured runtime's alike (docs/architecture.md, "Parameter
// servers").
#include <optional>
#include <vector>

namespace dtsim {

class ShardClock {
public:
    /// `staleness`: the bound s, none for async. Clocks are iterations; the first is `first_clock`.
    ShardClock(std::optional<int> staleness, int workers, int first_clock);

    /// `worker`'s push of clock `clock` has been applied. Returns the workers whose replies may go now, in
    /// ascending order: those held until this push, and the pusher unless its own reply must wait.
    std::vector<int> applied(int worker, int clock);
    /// Every update of the clocks below this one has been applied.
    int complete() const { return complete_; }

private:
    struct Held {
        int worker;
        int needs;  // the complete() its reply waits for
    };

    std::optional<int> staleness_;
    std::vector<int> next_clock_;  // per worker: the clock of its next push
    int complete_;
    int at_complete_;  // workers whose next push is of clock complete_
    std::vector<Held> held_;
};

}  // namespace dtsim

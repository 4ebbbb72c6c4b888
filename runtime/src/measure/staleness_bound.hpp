#pragma once
// Stale-synchronous parallel's bound, for real: before iteration i a worker asks server 0 and waits until
// the slowest worker has completed at least i - staleness iterations. Server 0 keeps every worker's count
// of completed iterations from these requests (and from each worker's last word when it finishes).
#include <vector>

#include "measure_setup.hpp"

namespace dtsim::runtime {

/// Worker side: blocks until iteration `iteration` may start; records the wait.
void wait_for_staleness_bound(MeasureSetup& setup, int iteration);
/// Worker side, after its last iteration: lets the others run on.
void report_training_done(const MeasureSetup& setup);

/// Server 0's side.
class StalenessBound {
public:
    explicit StalenessBound(const MeasureSetup& setup);
    /// Takes a clock message {iterations completed, reply wanted} from `worker`, and lets go every worker
    /// the bound allows.
    void receive(int worker, const int message[2]);
    /// Every worker has said its last word and nobody waits.
    bool done() const { return finished_ == static_cast<int>(completed_.size()) && waiting_.empty(); }

private:
    const MeasureSetup& setup_;
    std::vector<int> completed_;  // per worker
    struct Waiting {
        int worker;
        int iteration;
    };
    std::vector<Waiting> waiting_;
    int finished_ = 0;
};

}  // namespace dtsim::runtime

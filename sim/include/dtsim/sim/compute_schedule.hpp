#pragma once
// A rank's compute in one iteration: forward, then backward bucket by bucket (with gradient accumulation,
// k forward + backward micro-batches of which only the last one's backward is bucketed). A GPU's compute does not
// contend with anything simulated here (communication runs on the network and on copy engines), so its
// timing is known when the iteration starts: the spans are recorded and the moments each gradient
// bucket becomes ready are returned for the rank's communication to wait on.
#include <vector>

#include "dtsim/sim/simulation_context.hpp"

namespace dtsim::sim {

struct IterationCompute {
    std::vector<double> bucket_ready_s;  // when each bucket's gradients are ready to send
    double compute_end_s = 0;            // when backward ends
};

/// Records the rank's compute spans of this iteration starting at `start_s`. Without overlap every
/// bucket is ready only when backward ends.
IterationCompute schedule_compute(SimulationContext& ctx, int rank, int iteration, double start_s);

/// Compression kernels run between a bucket's readiness and its communication, delaying it: the calling
/// communication actor takes `seconds` of one core, recorded on the compute lane of ranks first_rank .. +
/// ranks - 1. Where ranks time-share cores (Platform::cpu_pools) the work runs on their shared cores, unless
/// it is `between_transfers`: coded chunk by chunk between a ring's transfers (int8), it finds the cores
/// idle, so it is charged at one core's rate (see docs/fidelity.md, "Measurements behind the models").
void compute_on_comm_stream(SimulationContext& ctx, int first_rank, int ranks, const char* name, int iteration, int index,
                            double seconds, bool between_transfers);

/// Blocks the calling actor until simulated time `time_s` (no-op if it has passed).
void wait_until(double time_s);

}  // namespace dtsim::sim

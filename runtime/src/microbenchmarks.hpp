#pragma once
// Timing of one plan item on every rank, following nccl-tests and the OSU benchmarks (docs/hardware-sources.md
// §9):
//   throughput  ops started back to back with no barrier between them; per-op time = batch time / ops,
//               averaged over the taking-part ranks (nccl-tests' default `-a 1`);
//   latency     one op at a time between barriers; per-op time = the slowest rank's (OSU-style);
//   pingpong    one-way time = half a round trip, one message at a time (osu_latency);
//   loaded_pingpong  the same while the responder streams bulk messages to a third rank (loaded_pingpong.hpp);
//   sendrecv    nccl-tests' ring exchange: every member sends to the next and receives from the previous
//               at once, back to back (throughput mode);
//   compute     every rank runs its kernel at once (as in training); per-run time = the mean over ranks,
//               as nccl-tests' default: where ranks share cores (runtime/testbed), each run's
//               slowest rank is the one the scheduler preempted, while a training loop's kernels add up
//               to each rank's fair share. The codec kernels (gradient compression) are timed the same way,
//               except where ranks outnumber their machine's cores (machine_sharing.hpp): then one rank at a
//               time, the others asleep, and the simulator shares the cores among the ranks coding at once.
// The iteration count adapts so that each sample takes about `target_seconds`, with at least 15 timed
// iterations (7 batches in throughput mode) for a network sample. Ranks left out of an item (a 2-rank
// group or ping-pong on 4 ranks) wait asleep between polls, and the members meet at a barrier of their own before each
// timed start: on hosts that share cores idle ranks spinning in a barrier took the cores the timed exchange needed (see
// docs/fidelity.md, "Measurements behind the models"), and a barrier released through a sleeping rank would start the
// members up to a poll apart.
#include <mpi.h>

#include <functional>
#include <map>
#include <vector>

#include "backend.hpp"
#include "dtsim/calibrate/plan.hpp"
#include "mpi_context.hpp"

namespace dtsim::runtime {

struct Measurement {
    double time_s = 0;                      // the sample's headline time (see above)
    std::vector<double> iteration_times_s;  // raw: per iteration, or per batch in throughput mode
    int iterations = 0;
    int warmup = 0;
};

class Microbenchmarks {
public:
    /// `codecs_one_rank_at_a_time`: where ranks outnumber cores (see above).
    Microbenchmarks(const MpiContext& context, Backend& backend, double target_seconds, bool codecs_one_rank_at_a_time);
    ~Microbenchmarks();
    Microbenchmarks(const Microbenchmarks&) = delete;
    Microbenchmarks& operator=(const Microbenchmarks&) = delete;
    /// Collective over all ranks: every rank calls it with the same item; all get the same result.
    Measurement run(const calibrate::PlanItem& item);

private:
    Measurement group_operation(const calibrate::PlanItem& item);  // collectives and the ring exchange
    Measurement pingpong(const calibrate::PlanItem& item);
    Measurement loaded_pingpong(const calibrate::PlanItem& item);  // loaded_pingpong.hpp
    /// A ping-pong's round trips on one of its two ranks: `warmup` untimed, one that sets the count (timed on the
    /// initiator, whose count `agree` sends to the responder and returns on both), then that many timed ones, each
    /// recorded as half the round trip (one way). Returns this rank's times.
    std::vector<double> round_trips(bool initiator, int warmup, const std::function<void()>& round_trip,
                                    const std::function<int(int)>& agree) const;
    /// The measurement of a ping-pong: the initiator's times on every rank.
    Measurement initiator_times(const std::vector<double>& times, int initiator_rank, int warmup) const;
    Measurement compute(const calibrate::PlanItem& item);
    /// Each rank in turn runs `timed_run` (a warm-up, then `iterations` timed runs) while the others wait
    /// asleep; rank 0's run after its warm-up sets `iterations` for all. Returns this rank's times.
    std::vector<double> one_rank_at_a_time(const std::function<double()>& timed_run, int launches, int& iterations);
    int iterations_for(double estimate_s, int minimum, int maximum) const;
    /// Every rank, then the members once more among themselves: ranks left out wait asleep (IdleWaits),
    /// and a barrier released through a sleeping rank lets the members leave it up to a poll apart.
    void start_together(const std::vector<int>& members, bool member);

    const MpiContext& context_;
    Backend& backend_;
    double target_seconds_;
    bool codecs_one_rank_at_a_time_;
    std::map<std::vector<int>, MPI_Comm> member_comms_;  // by members, made the first time they are timed
};

}  // namespace dtsim::runtime

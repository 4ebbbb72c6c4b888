#pragma once
// A clock every rank reads alike: seconds since the run's start as rank 0's steady clock sees it.
// Each rank estimates its offset to rank 0 from a few ping-pongs (the one with the shortest round trip
// wins, its midpoint taken as rank 0's reading), so spans recorded on different hosts line up.
#include <mpi.h>

namespace dtsim::runtime {

/// The local steady clock, in seconds.
double steady_seconds();

class AlignedClock {
public:
    /// Collective over `comm`: estimates the offsets, then fixes the start at rank 0's present.
    explicit AlignedClock(MPI_Comm comm);
    /// Seconds since the run's start.
    double now() const { return steady_seconds() - local_start_s_; }
    /// The round trip of the best ping-pong: the offset is known to within half of it.
    double offset_uncertainty_s() const { return round_trip_s_ / 2; }

private:
    double local_start_s_ = 0;
    double round_trip_s_ = 0;
};

}  // namespace dtsim::runtime

#include "aligned_clock.hpp"

#include <chrono>
#include <limits>

namespace dtsim::runtime {
namespace {

constexpr int kPingPongs = 16;
constexpr int kTag = 7301;

}  // namespace

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

AlignedClock::AlignedClock(MPI_Comm comm) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double offset_s = 0;  // rank 0's clock minus mine
    for (int peer = 1; peer < size; ++peer) {
        MPI_Barrier(comm);
        if (rank != 0 && rank != peer) continue;
        double best = std::numeric_limits<double>::infinity();
        for (int i = 0; i < kPingPongs; ++i) {
            if (rank == 0) {
                double ignored = 0;
                MPI_Recv(&ignored, 1, MPI_DOUBLE, peer, kTag, comm, MPI_STATUS_IGNORE);
                const double root_now = steady_seconds();
                MPI_Send(&root_now, 1, MPI_DOUBLE, peer, kTag, comm);
            } else {
                const double sent = steady_seconds();
                double root_now = 0;
                MPI_Send(&sent, 1, MPI_DOUBLE, 0, kTag, comm);
                MPI_Recv(&root_now, 1, MPI_DOUBLE, 0, kTag, comm, MPI_STATUS_IGNORE);
                const double received = steady_seconds();
                if (received - sent < best) {
                    best = received - sent;
                    offset_s = root_now - (sent + received) / 2;
                }
            }
        }
        if (rank == peer) round_trip_s_ = best;
    }
    double root_start = steady_seconds();
    MPI_Bcast(&root_start, 1, MPI_DOUBLE, 0, comm);
    local_start_s_ = root_start - offset_s;
    MPI_Barrier(comm);
}

}  // namespace dtsim::runtime

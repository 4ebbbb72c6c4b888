#pragma once
// One rank's timeline during a measured run: spans recorded from the compute and communication threads
// (hence the lock), the moments the rank finishes each iteration, and (servers) the staleness of the
// gradients it applied. Gathered to rank 0 at the end.
#include <mpi.h>

#include <mutex>
#include <vector>

#include "dtsim/run.hpp"

namespace dtsim::runtime {

class SpanLog {
public:
    SpanLog(int rank, int iterations) : rank_(rank), iteration_end_s_(static_cast<size_t>(iterations), 0) {}

    void add(Lane lane, const char* name, int iteration, int index, double start_s, double end_s, double bytes = 0);
    void iteration_done(int iteration, double time_s) { iteration_end_s_[static_cast<size_t>(iteration)] = time_s; }
    /// A server applied a gradient computed on parameters `versions` updates and `clocks` iterations old
    /// (Observations::staleness_clocks).
    void staleness(double versions, double clocks) {
        staleness_.push_back(versions);
        staleness_clocks_.push_back(clocks);
    }

    struct Gathered {
        std::vector<Span> spans;                             // every rank's
        std::vector<std::vector<double>> iteration_end_s;    // [rank][iteration]
        std::vector<double> staleness;                       // every server's
        std::vector<double> staleness_clocks;                // the same gradients'
    };
    /// Collective over `comm`: rank 0 receives every rank's log (ranks numbered as in `comm`); the others
    /// get an empty result.
    Gathered gather(MPI_Comm comm) const;

private:
    int rank_;
    mutable std::mutex mutex_;
    std::vector<Span> spans_;
    std::vector<double> iteration_end_s_;
    std::vector<double> staleness_;  // written by a server's only thread
    std::vector<double> staleness_clocks_;
};

}  // namespace dtsim::runtime

#include "staleness_bound.hpp"

#include <algorithm>

#include "../mpi_waiting.hpp"
#include "parameter_server_messages.hpp"

namespace dtsim::runtime {

void wait_for_staleness_bound(MeasureSetup& setup, int iteration) {
    const double start = setup.clock.now();
    const int request[2] = {iteration, 1};  // iterations completed, and a reply wanted
    MPI_Send(request, 2, MPI_INT, setup.workers, kClockTag, setup.world);
    int go = 0;
    receive(&go, 1, MPI_INT, setup.workers, kClockTag, setup.world);
    setup.log.add(Lane::wait, "wait: staleness bound", iteration, 0, start, setup.clock.now());
}

void report_training_done(const MeasureSetup& setup) {
    const int last[2] = {setup.scenario.training.iterations, 0};
    MPI_Send(last, 2, MPI_INT, setup.workers, kClockTag, setup.world);
}

StalenessBound::StalenessBound(const MeasureSetup& setup) : setup_(setup), completed_(static_cast<size_t>(setup.workers), 0) {}

void StalenessBound::receive(int worker, const int message[2]) {
    completed_[static_cast<size_t>(worker)] = message[0];
    if (message[1]) waiting_.push_back({worker, message[0]});
    else ++finished_;
    const int slowest = *std::min_element(completed_.begin(), completed_.end());
    const int staleness = setup_.scenario.training.strategy.staleness;
    std::erase_if(waiting_, [&](const Waiting& w) {
        if (slowest < w.iteration - staleness) return false;
        const int go = 1;
        MPI_Send(&go, 1, MPI_INT, w.worker, kClockTag, setup_.world);
        return true;
    });
}

}  // namespace dtsim::runtime

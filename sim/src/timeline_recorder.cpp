#include "dtsim/sim/timeline_recorder.hpp"

#include <algorithm>

namespace dtsim::sim {

TimelineRecorder::TimelineRecorder(int workers, int iterations, std::function<void(int)> on_iteration)
    : workers_(workers),
      iterations_(iterations),
      on_iteration_(std::move(on_iteration)),
      ranks_done_(static_cast<size_t>(iterations), 0),
      iteration_end_(static_cast<size_t>(workers) * iterations, 0.0) {}

void TimelineRecorder::iteration_done(int rank, int iteration, double time_s) {
    iteration_end_[static_cast<size_t>(rank) * iterations_ + iteration] = time_s;
    if (++ranks_done_[static_cast<size_t>(iteration)] == workers_ && on_iteration_) on_iteration_(iteration);
}

std::vector<double> TimelineRecorder::iteration_ends() const {
    std::vector<double> ends(static_cast<size_t>(iterations_), 0.0);
    for (size_t i = 0; i < iteration_end_.size(); ++i) {
        auto& end = ends[i % static_cast<size_t>(iterations_)];
        end = std::max(end, iteration_end_[i]);
    }
    return ends;
}

std::vector<std::vector<double>> TimelineRecorder::rank_iteration_ends() const {
    std::vector<std::vector<double>> ends;
    for (int r = 0; r < workers_; ++r) {
        const auto first = iteration_end_.begin() + static_cast<long>(r) * iterations_;
        ends.emplace_back(first, first + iterations_);
    }
    return ends;
}

}  // namespace dtsim::sim

#include "dtsim/sim/timeline_recorder.hpp"

#include <algorithm>

namespace dtsim::sim {

TimelineRecorder::TimelineRecorder(int workers, int iterations, int quorum, std::function<void(int)> on_iteration)
    : workers_(workers),
      iterations_(iterations),
      on_iteration_(std::move(on_iteration)),
      ranks_done_(static_cast<size_t>(iterations), 0),
      quorum_(static_cast<size_t>(iterations), quorum),
      iteration_end_(static_cast<size_t>(workers) * iterations, kNotDone) {}

void TimelineRecorder::iteration_done(int rank, int iteration, double time_s) {
    iteration_end_[static_cast<size_t>(rank) * iterations_ + iteration] = time_s;
    if (++ranks_done_[static_cast<size_t>(iteration)] == quorum_[static_cast<size_t>(iteration)] && on_iteration_)
        on_iteration_(iteration);
}

void TimelineRecorder::rewind(int iteration, int quorum) {
    for (int i = iteration; i < iterations_; ++i) {
        ranks_done_[static_cast<size_t>(i)] = 0;
        quorum_[static_cast<size_t>(i)] = quorum;
        for (int r = 0; r < workers_; ++r) iteration_end_[static_cast<size_t>(r) * iterations_ + i] = kNotDone;
    }
}

void TimelineRecorder::mark_lost(int iteration, double failure_s) {
    // Compute spans are recorded when an iteration starts, so some end after the failure: cut them there.
    std::erase_if(spans_, [&](const Span& span) { return span.iteration >= iteration && span.start_s >= failure_s; });
    for (auto& span : spans_) {
        if (span.iteration < iteration) continue;
        span.iteration = -1;
        span.name = "lost: " + span.name;
        span.end_s = std::min(span.end_s, failure_s);
    }
}

std::vector<double> TimelineRecorder::iteration_ends() const {
    std::vector<double> ends(static_cast<size_t>(iterations_), 0.0);
    std::vector<double> finished;
    for (int i = 0; i < iterations_; ++i) {
        finished.clear();
        for (int r = 0; r < workers_; ++r)
            if (const double end = iteration_end_[static_cast<size_t>(r) * iterations_ + i]; end != kNotDone) finished.push_back(end);
        if (finished.empty()) continue;
        std::sort(finished.begin(), finished.end());
        const auto quorum = static_cast<size_t>(std::max(1, quorum_[static_cast<size_t>(i)]));
        ends[static_cast<size_t>(i)] = finished[std::min(finished.size(), quorum) - 1];
    }
    return ends;
}

std::vector<std::vector<double>> TimelineRecorder::rank_iteration_ends() const {
    std::vector<std::vector<double>> ends;
    for (int r = 0; r < workers_; ++r) {
        const auto first = iteration_end_.begin() + static_cast<long>(r) * iterations_;
        if (std::find(first, first + iterations_, kNotDone) == first + iterations_) ends.emplace_back(first, first + iterations_);
    }
    return ends;
}

}  // namespace dtsim::sim

#pragma once
// Collects the spans the simulated actors report and the moments each rank finishes an iteration.
// Actors run one at a time inside the simulation, so no locking is needed.
#include <functional>
#include <vector>

#include "dtsim/run.hpp"

namespace dtsim::sim {

class TimelineRecorder {
public:
    /// `on_iteration(i)` is called when the last worker finishes iteration i.
    TimelineRecorder(int workers, int iterations, std::function<void(int)> on_iteration = {});

    void add(Span span) { spans_.push_back(std::move(span)); }
    void iteration_done(int rank, int iteration, double time_s);

    std::vector<Span> take_spans() { return std::move(spans_); }
    /// When the slowest worker finished each iteration.
    std::vector<double> iteration_ends() const;
    /// When each worker finished each iteration: [worker][iteration].
    std::vector<std::vector<double>> rank_iteration_ends() const;

private:
    int workers_;
    int iterations_;
    std::function<void(int)> on_iteration_;
    std::vector<int> ranks_done_;        // per iteration
    std::vector<double> iteration_end_;  // [rank * iterations + iteration]
    std::vector<Span> spans_;
};

}  // namespace dtsim::sim

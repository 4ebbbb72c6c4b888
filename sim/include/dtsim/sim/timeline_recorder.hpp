#pragma once
// Collects the spans the simulated actors report and the moments each rank finishes an iteration.
// Actors run one at a time inside the simulation, so no locking is needed.
#include <algorithm>
#include <functional>
#include <vector>

#include "dtsim/run.hpp"

namespace dtsim::sim {

class TimelineRecorder {
public:
    /// `on_iteration(i)` is called when iteration i is done: when `quorum` workers have finished it
    /// (all of them unless backup workers let a step go on without the last ones).
    TimelineRecorder(int workers, int iterations, int quorum, std::function<void(int)> on_iteration = {});

    void add(Span span) { spans_.push_back(std::move(span)); }
    void iteration_done(int rank, int iteration, double time_s);

    /// After a failure: iterations from `iteration` on are done again, by `quorum` workers each.
    void rewind(int iteration, int quorum);
    /// The spans of iterations from `iteration` on, recorded so far, were lost at `failure_s`: they stay
    /// on the timeline, cut at the failure and renamed "lost: ...", but leave the summary (iteration -1).
    void mark_lost(int iteration, double failure_s);

    /// When `rank` finished `iteration` (0 before the first).
    double end_of(int rank, int iteration) const {
        return iteration < 0 ? 0 : std::max(0.0, iteration_end_[static_cast<size_t>(rank) * iterations_ + iteration]);
    }

    /// How many workers each iteration waits for (and whose gradients it applies).
    const std::vector<int>& quorums() const { return quorum_; }

    std::vector<Span> take_spans() { return std::move(spans_); }
    /// When each iteration was done: the quorum-th worker to finish it.
    std::vector<double> iteration_ends() const;
    /// When each worker that finished every iteration finished each: [worker][iteration].
    std::vector<std::vector<double>> rank_iteration_ends() const;

private:
    static constexpr double kNotDone = -1;
    int workers_;
    int iterations_;
    std::function<void(int)> on_iteration_;
    std::vector<int> ranks_done_;        // per iteration
    std::vector<int> quorum_;            // per iteration
    std::vector<double> iteration_end_;  // [rank * iterations + iteration]
    std::vector<Span> spans_;
};

}  // namespace dtsim::sim

#include "dtsim/shard_clock.hpp"

#include <algorithm>

namespace dtsim {

ShardClock::ShardClock(std::optional<int> staleness, int workers, int first_clock)
    : staleness_(staleness), next_clock_(static_cast<size_t>(workers), first_clock), complete_(first_clock), at_complete_(workers) {}

std::vector<int> ShardClock::applied(int worker, int clock) {
    auto& next = next_clock_[static_cast<size_t>(worker)];
    next = clock + 1;
    const bool moved = clock == complete_ && --at_complete_ == 0;
    if (moved) {
        // The slowest worker's push: the complete clock moves on to the lowest next push.
        complete_ = *std::min_element(next_clock_.begin(), next_clock_.end());
        at_complete_ = static_cast<int>(std::count(next_clock_.begin(), next_clock_.end(), complete_));
    }
    if (!staleness_) return {worker};
    held_.push_back({worker, clock + 1 - *staleness_});
    if (!moved && held_.back().needs <= complete_) {  // nobody else was let go by this push
        held_.pop_back();
        return {worker};
    }
    std::vector<int> go;
    std::erase_if(held_, [&](const Held& h) {
        if (h.needs > complete_) return false;
        go.push_back(h.worker);
        return true;
    });
    std::sort(go.begin(), go.end());
    return go;
}

}  // namespace dtsim

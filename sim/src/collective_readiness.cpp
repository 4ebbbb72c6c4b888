#include "dtsim/sim/collective_readiness.hpp"

#include <algorithm>

namespace dtsim::sim {

long long CollectiveReadiness::ready(int rank, double compute_s, double ready_s) {
    const long long number = next_[static_cast<std::size_t>(rank)]++;
    auto& entry = entries_[number];
    entry.last_ready_s = std::max(entry.last_ready_s, ready_s);
    entry.longest_compute_s = std::max(entry.longest_compute_s, compute_s);
    return number;
}

double CollectiveReadiness::waited_until(long long number, double compute_s, double start_s, double end_s) {
    const auto found = entries_.find(number);
    const auto& entry = found->second;
    const double slowest_extra_s = entry.longest_compute_s - compute_s;
    const double until = std::max(start_s, std::min({start_s + slowest_extra_s, entry.last_ready_s, end_s}));
    if (++found->second.asked == ranks_) entries_.erase(found);
    return until;
}

}  // namespace dtsim::sim

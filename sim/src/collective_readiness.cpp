#include "dtsim/sim/collective_readiness.hpp"

#include <algorithm>

namespace dtsim::sim {

long long CollectiveReadiness::ready(int rank, double ready_s) {
    const long long number = next_[static_cast<std::size_t>(rank)]++;
    auto& entry = entries_[number];
    entry.last_ready_s = std::max(entry.last_ready_s, ready_s);
    return number;
}

double CollectiveReadiness::waited_until(long long number, double end_s) {
    const auto found = entries_.find(number);
    const double until = std::min(found->second.last_ready_s, end_s);
    if (++found->second.asked == ranks_) entries_.erase(found);
    return until;
}

}  // namespace dtsim::sim

#include "dtsim/sim/collective_arrivals.hpp"

#include <algorithm>

namespace dtsim::sim {

long long CollectiveArrivals::arrive(int rank, double time_s) {
    const long long number = next_[static_cast<size_t>(rank)]++;
    auto& entry = entries_[number];
    entry.last_arrival_s = std::max(entry.last_arrival_s, time_s);
    return number;
}

double CollectiveArrivals::waited_until(long long number, double end_s) {
    const auto found = entries_.find(number);
    const double until = std::min(found->second.last_arrival_s, end_s);
    if (++found->second.asked == ranks_) entries_.erase(found);
    return until;
}

}  // namespace dtsim::sim

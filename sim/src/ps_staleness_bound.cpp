#include "ps_staleness_bound.hpp"

#include <algorithm>
#include <mutex>

namespace dtsim::sim {

StalenessBound::StalenessBound(SyncMode sync, int staleness, int endpoints, int first_iteration)
    : binds_(sync == SyncMode::ssp), staleness_(staleness), completed_(static_cast<size_t>(endpoints), first_iteration) {}

void StalenessBound::wait_for_bound(int iteration) {
    if (!binds_) return;
    std::unique_lock lock(*mutex_);
    bound_changed_->wait(lock, [&] { return slowest() >= iteration - staleness_; });
}

void StalenessBound::iteration_completed(int endpoint) {
    std::unique_lock lock(*mutex_);
    ++completed_[static_cast<size_t>(endpoint)];
    bound_changed_->notify_all();
}

int StalenessBound::slowest() const { return *std::min_element(completed_.begin(), completed_.end()); }

}  // namespace dtsim::sim

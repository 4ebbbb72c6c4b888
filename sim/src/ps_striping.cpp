#include "ps_striping.hpp"

namespace dtsim::sim {

StripedServerGroup::StripedServerGroup(const Platform& platform, const ServerSharding& sharding, size_t buckets)
    : ports_(platform.server_group_ports),
      endpoint_size_(sharding.endpoint_size()),
      buckets_(buckets),
      pulls_(static_cast<size_t>(sharding.endpoint_count()) * buckets) {}

simgrid::s4u::Host* StripedServerGroup::port(const Endpoint& endpoint) const {
    return ports_[static_cast<size_t>(endpoint.first_rank / endpoint_size_)];
}

void StripedServerGroup::pull_started(int endpoint, int bucket, ParameterSend reply) {
    auto& slot = pulls(endpoint, bucket);
    slot.replies.push_back(std::move(reply));
    slot.started->release();
}

ParameterSend StripedServerGroup::next_pull(int endpoint, int bucket) {
    auto& slot = pulls(endpoint, bucket);
    slot.started->acquire();
    auto reply = slot.replies.front();
    slot.replies.pop_front();
    return reply;
}

StripedServerGroup::Pulls& StripedServerGroup::pulls(int endpoint, int bucket) {
    return pulls_[static_cast<size_t>(endpoint) * buckets_ + static_cast<size_t>(bucket)];
}

}  // namespace dtsim::sim

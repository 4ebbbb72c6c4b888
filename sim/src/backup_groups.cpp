#include "dtsim/sim/backup_groups.hpp"

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include <algorithm>

namespace dtsim::sim {
namespace sg4 = simgrid::s4u;

namespace {
int g_result_token = 0;  // payload of result messages: only their simulated size matters
}  // namespace

BackupGroups::Membership BackupGroups::join(int rank, int iteration, int bucket) {
    std::unique_lock lock(*mutex_);
    auto& group = groups_[{iteration, bucket}];
    if (group.formed) return {&group.members, -1};
    group.members.push_back(rank);
    const auto quorum = ctx_.cohort.ranks.size() - static_cast<size_t>(ctx_.scenario.training.strategy.backup_workers);
    if (group.members.size() == quorum) {
        std::sort(group.members.begin(), group.members.end());  // ring neighbours in rank order, as without backups
        group.formed = true;
        group.formed_changed->notify_all();
    }
    group.formed_changed->wait(lock, [&] { return group.formed; });
    const auto at = std::find(group.members.begin(), group.members.end(), rank);
    return {&group.members, static_cast<int>(at - group.members.begin())};
}

void BackupGroups::send_result(const Membership& group, int iteration, int bucket, double bytes) {
    for (int rank : ctx_.cohort.ranks)
        if (!std::binary_search(group.members->begin(), group.members->end(), rank))
            result_mailbox(rank, iteration, bucket)->put_init(&g_result_token, static_cast<uint64_t>(bytes))->detach();
}

void BackupGroups::receive_result(int rank, int iteration, int bucket) {
    result_mailbox(rank, iteration, bucket)->get<int>();
}

sg4::Mailbox* BackupGroups::result_mailbox(int rank, int iteration, int bucket) const {
    return sg4::Mailbox::by_name(ctx_.epoch_name("result-" + std::to_string(iteration) + "-" + std::to_string(bucket) + ">" +
                                                 std::to_string(rank)));
}

}  // namespace dtsim::sim

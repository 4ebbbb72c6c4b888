#pragma once
// One thread's collectives in a measured run of an LLM layout: over the rank's tensor, context, expert,
// data-parallel (dense gradients) or expert-data (expert gradients) group. Every thread of the run that
// communicates has a channel of its own, with communicators of its own: NCCL communicators must not be
// used by two threads at once, and separate MPI communicators keep each thread's messages apart.
#include <cstddef>

namespace dtsim::runtime {

enum class LayoutGroup { tp, cp, ep, data, expert_data };
enum class GroupOp { allreduce, reduce_scatter, allgather, alltoall };

class LayoutChannel {
public:
    virtual ~LayoutChannel() = default;
    /// Ranks in this rank's group.
    virtual int size(LayoutGroup group) const = 0;
    /// One collective over the group, returning when it is done. `bytes` as nccl-tests count them: the
    /// buffer (all-reduce), the whole input (reduce-scatter), the whole gathered array (all-gather), each
    /// rank's total send (all-to-all).
    virtual void collective(LayoutGroup group, GroupOp op, std::size_t bytes) = 0;
};

}  // namespace dtsim::runtime

#pragma once
// NCCL's double binary tree over the positions of a group: the simulator's tree all-reduce
// (sim/collectives) and the measured runs' (runtime/src/measure) walk the same trees.
#include <vector>

namespace dtsim {

/// A position's links in a tree over the positions of a group: its parent (-1 at the root) and children.
struct TreeLinks {
    int parent = -1;
    std::vector<int> children;
};

/// Links of `position` in tree `which` (0 or 1) of NCCL's double binary tree over `count` positions.
/// Tree 0 is NCCL's binary tree: rooted at 0, whose one child is the largest power of two below
/// `count`, with the odd positions as leaves. Tree 1 mirrors it (even count) or shifts it by one (odd
/// count), so that a leaf of one tree is an interior node of the other.
TreeLinks double_binary_tree(int count, int position, int which);

}  // namespace dtsim

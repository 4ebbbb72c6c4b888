#include "dtsim/collective_trees.hpp"

namespace dtsim {
namespace {

// NCCL's binary tree (ncclGetBtree): position p's parent clears p's lowest set bit and sets the next
// one (or only clears it when that is out of range); its children are p ∓ half that bit, the upper
// one moved down by halving until it is in range.
TreeLinks binary_tree(int count, int p) {
    int bit = 1;
    while (bit < count && (p & bit) == 0) bit <<= 1;
    TreeLinks links;
    if (p == 0) {
        if (count > 1) links.children.push_back(bit >> 1);
        return links;
    }
    links.parent = (p ^ bit) | (bit << 1);
    if (links.parent >= count) links.parent = p ^ bit;
    int low = bit >> 1;
    if (low == 0) return links;
    links.children.push_back(p - low);
    while (low > 0 && p + low >= count) low >>= 1;
    if (low > 0) links.children.push_back(p + low);
    return links;
}

}  // namespace

TreeLinks double_binary_tree(int count, int position, int which) {
    if (which == 0) return binary_tree(count, position);
    const bool mirror = count % 2 == 0;
    auto to_tree1 = [&](int p) { return mirror ? count - 1 - p : (p + 1) % count; };
    auto links = binary_tree(count, mirror ? count - 1 - position : (position - 1 + count) % count);
    if (links.parent >= 0) links.parent = to_tree1(links.parent);
    for (int& child : links.children) child = to_tree1(child);
    return links;
}

}  // namespace dtsim

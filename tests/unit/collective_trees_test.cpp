// The shapes of NCCL's double binary tree, which the tree all-reduce sends along.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "dtsim/collective_trees.hpp"

namespace collective_trees_test {

using dtsim::double_binary_tree;
using dtsim::TreeLinks;

namespace {

std::vector<TreeLinks> tree(int count, int which) {
    std::vector<TreeLinks> links;
    for (int p = 0; p < count; ++p) links.push_back(double_binary_tree(count, p, which));
    return links;
}

bool has_child(const TreeLinks& links, int child) {
    for (int c : links.children) if (c == child) return true;
    return false;
}

int depth(const std::vector<TreeLinks>& links, int position) {
    int hops = 0;
    for (int p = links[static_cast<size_t>(position)].parent; p >= 0; p = links[static_cast<size_t>(p)].parent) ++hops;
    return hops;
}

}  // namespace

TEST_CASE("both trees span every position, with parents and children agreeing", "[unit][collectives]") {
    for (int count = 1; count <= 70; ++count)
        for (int which = 0; which < 2; ++which) {
            CAPTURE(count, which);
            const auto links = tree(count, which);
            int roots = 0, max_depth = 0;
            for (int p = 0; p < count; ++p) {
                const auto& node = links[static_cast<size_t>(p)];
                CHECK(node.children.size() <= 2);
                for (int c : node.children) CHECK(links[static_cast<size_t>(c)].parent == p);
                if (node.parent < 0)
                    ++roots;
                else
                    CHECK(has_child(links[static_cast<size_t>(node.parent)], p));
                max_depth = std::max(max_depth, depth(links, p));  // terminates: no cycles
            }
            CHECK(roots == 1);
            int ceil_log2 = 0;
            while ((1 << ceil_log2) < count) ++ceil_log2;
            CHECK(max_depth == ceil_log2);
        }
}

TEST_CASE("with an even count every position is a leaf in one of the trees", "[unit][collectives]") {
    for (int count = 2; count <= 70; count += 2) {
        CAPTURE(count);
        for (int p = 0; p < count; ++p) {
            CAPTURE(p);
            const bool leaf_in_first = double_binary_tree(count, p, 0).children.empty();
            CHECK((leaf_in_first || double_binary_tree(count, p, 1).children.empty()));
        }
    }
}

TEST_CASE("the trees are NCCL's", "[unit][collectives]") {
    // The figures in NCCL's src/graph/trees.cc: 14 ranks; 12 ranks mirrored; 13 ranks shifted by one.
    CHECK(double_binary_tree(14, 0, 0).children == std::vector<int>{8});
    CHECK(double_binary_tree(14, 8, 0).children == std::vector<int>{4, 12});
    CHECK(double_binary_tree(14, 12, 0).children == std::vector<int>{10, 13});
    CHECK(double_binary_tree(14, 13, 0).parent == 12);
    CHECK(double_binary_tree(12, 11, 1).children == std::vector<int>{3});
    CHECK(double_binary_tree(12, 3, 1).children == std::vector<int>{7, 1});
    CHECK(double_binary_tree(12, 9, 1).children == std::vector<int>{10, 8});
    CHECK(double_binary_tree(13, 1, 1).children == std::vector<int>{9});
    CHECK(double_binary_tree(13, 9, 1).children == std::vector<int>{5, 0});
    CHECK(double_binary_tree(13, 0, 1).children == std::vector<int>{11});
    CHECK(double_binary_tree(13, 12, 1).parent == 11);
}

}  // namespace collective_trees_test

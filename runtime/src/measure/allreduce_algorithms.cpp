#include "allreduce_algorithms.hpp"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "../mpi_waiting.hpp"
#include "receive_scratch.hpp"
#include "dtsim/collective_trees.hpp"

namespace dtsim::runtime {
namespace {

struct Range {
    std::size_t first = 0;
    std::size_t count = 0;
};

std::pair<int, int> rank_and_size(MPI_Comm comm) {
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    return {rank, size};
}

template <typename Element>
void send(const Element* data, std::size_t count, MPI_Datatype type, int to, int tag, MPI_Comm comm) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Isend(data, static_cast<int>(count), type, to, tag, comm, &request);
    wait_one(request);
}

// One rank's part in both trees. Its messages in the two trees are served in the order they complete,
// so that neither tree waits for the other, as the simulator's DoubleTreeRank does.
template <typename Element>
class DoubleTree {
public:
    DoubleTree(Element* data, std::size_t n, MPI_Datatype type, AddInto<Element> add, MPI_Comm comm, int tag)
        : data_(data), type_(type), add_(add), comm_(comm) {
        const auto [rank, size] = rank_and_size(comm);
        for (int t = 0; t < 2; ++t) {
            auto& tree = trees_[static_cast<size_t>(t)];
            tree.links = double_binary_tree(size, rank, t);
            tree.half = t == 0 ? Range{0, n / 2} : Range{n / 2, n - n / 2};
            tree.tag = 2 * tag + t;
        }
    }

    void run() {
        for (int t = 0; t < 2; ++t) {
            auto& tree = trees_[static_cast<size_t>(t)];
            tree.from_children.clear();
            for (size_t c = 0; c < tree.links.children.size(); ++c) {
                tree.from_children.push_back(receive_scratch<Element>(2 * static_cast<size_t>(t) + c, tree.half.count));
                post(t, Step::from_child, static_cast<int>(c), [&](MPI_Request* r) {
                    MPI_Irecv(tree.from_children[c], count(tree), type_, tree.links.children[c], tree.tag, comm_, r);
                });
            }
            if (tree.links.children.empty()) reduced(t);
        }
        while (pending_ > 0) {
            MPI_Status status;
            const auto done = static_cast<size_t>(wait_any(requests_, status));
            --pending_;
            const auto [t, step, child] = steps_[done];
            auto& tree = trees_[static_cast<size_t>(t)];
            if (step == Step::from_child) {
                add_(data_ + tree.half.first, tree.from_children[static_cast<size_t>(child)], tree.half.count);
                if (++tree.heard == tree.links.children.size()) reduced(t);
            } else if (step == Step::to_parent) {
                // Posted once the send is done: the parent's total then lands in the buffer just sent.
                post(t, Step::from_parent, -1, [&](MPI_Request* r) {
                    MPI_Irecv(data_ + tree.half.first, count(tree), type_, tree.links.parent, tree.tag, comm_, r);
                });
            } else if (step == Step::from_parent) {
                broadcast(t);
            }
        }
    }

private:
    enum class Step { from_child, to_parent, from_parent, to_child };
    struct Tree {
        TreeLinks links;
        Range half;
        int tag = 0;
        std::vector<Element*> from_children;  // receive_scratch slots 2t and 2t + 1
        std::size_t heard = 0;
    };

    static int count(const Tree& tree) { return static_cast<int>(tree.half.count); }

    template <typename Start>
    void post(int t, Step step, int child, Start start) {
        requests_.push_back(MPI_REQUEST_NULL);
        start(&requests_.back());
        steps_.push_back({t, step, child});
        ++pending_;
    }
    // Every child's half is in: pass the sum up, or (at the root) send the total down.
    void reduced(int t) {
        auto& tree = trees_[static_cast<size_t>(t)];
        if (tree.links.parent < 0) return broadcast(t);
        post(t, Step::to_parent, -1, [&](MPI_Request* r) {
            MPI_Isend(data_ + tree.half.first, count(tree), type_, tree.links.parent, tree.tag, comm_, r);
        });
    }
    void broadcast(int t) {
        auto& tree = trees_[static_cast<size_t>(t)];
        for (int child : tree.links.children)
            post(t, Step::to_child, -1, [&](MPI_Request* r) {
                MPI_Isend(data_ + tree.half.first, count(tree), type_, child, tree.tag, comm_, r);
            });
    }

    struct Posted {
        int tree;
        Step step;
        int child;
    };
    Element* data_;
    MPI_Datatype type_;
    AddInto<Element> add_;
    MPI_Comm comm_;
    std::array<Tree, 2> trees_;
    std::vector<MPI_Request> requests_;  // completed ones become MPI_REQUEST_NULL and stay, so indices hold
    std::vector<Posted> steps_;          // what each request is
    int pending_ = 0;
};

}  // namespace

template <typename Element>
void tree_allreduce(Element* data, std::size_t n, MPI_Datatype type, AddInto<Element> add, MPI_Comm comm, int tag) {
    if (rank_and_size(comm).second > 1) DoubleTree<Element>(data, n, type, add, comm, tag).run();
}

template <typename Element>
void halving_doubling_allreduce(Element* data, std::size_t n, MPI_Datatype type, AddInto<Element> add, MPI_Comm comm, int tag) {
    const auto [p, size] = rank_and_size(comm);
    if (size == 1) return;
    int pof2 = 1;
    while (pof2 * 2 <= size) pof2 *= 2;
    const int extra = size - pof2;
    if (p < 2 * extra && p % 2 == 0) {  // folded away: hand over the vector, get the result back
        send(data, n, type, p + 1, tag, comm);
        receive(data, static_cast<int>(n), type, p + 1, tag, comm);
        return;
    }
    const bool folds_in = p < 2 * extra;
    Element* const incoming = receive_scratch<Element>(0, n);
    if (folds_in) {
        receive(incoming, static_cast<int>(n), type, p - 1, tag, comm);
        add(data, incoming, n);
    }
    const int me = folds_in ? p / 2 : p - extra;  // position among the power-of-two ranks that remain
    auto partner = [&](int mask) {
        const int other = me ^ mask;
        return other < extra ? 2 * other + 1 : other + extra;
    };
    // Halving: keep the half of the current range on this side of `mask` and add the partner's copy of it.
    std::vector<Range> ranges{{0, n}};  // the range summed after each step, to double back through
    for (int mask = 1; mask < pof2; mask <<= 1) {
        const Range whole = ranges.back();
        const Range lower{whole.first, whole.count / 2}, upper{whole.first + whole.count / 2, whole.count - whole.count / 2};
        const bool keep_lower = (me & mask) == 0;
        const Range keep = keep_lower ? lower : upper, give = keep_lower ? upper : lower;
        sendrecv(data + give.first, static_cast<int>(give.count), type, partner(mask), tag, incoming,
                 static_cast<int>(keep.count), type, partner(mask), tag, comm);
        add(data + keep.first, incoming, keep.count);
        ranges.push_back(keep);
    }
    // Doubling: swap complete ranges with the same partners in reverse order.
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
        const Range mine = ranges.back();
        ranges.pop_back();
        const Range whole = ranges.back();
        const Range theirs = mine.first == whole.first ? Range{mine.first + mine.count, whole.count - mine.count}
                                                       : Range{whole.first, whole.count - mine.count};
        sendrecv(data + mine.first, static_cast<int>(mine.count), type, partner(mask), tag, data + theirs.first,
                 static_cast<int>(theirs.count), type, partner(mask), tag, comm);
    }
    if (folds_in) send(data, n, type, p - 1, tag, comm);
}

template <typename Element>
void direct_allreduce(Element* data, std::size_t n, MPI_Datatype type, AddInto<Element> add, MPI_Comm comm, int tag) {
    const auto [p, w] = rank_and_size(comm);
    if (w == 1) return;
    const auto width = static_cast<std::size_t>(w);
    auto chunk = [&](int c) {
        const auto k = static_cast<std::size_t>(c);
        return Range{k * n / width, (k + 1) * n / width - k * n / width};
    };
    auto peer = [&](int step) { return (p + step) % w; };
    auto source = [&](int step) { return (p - step + w) % w; };
    const Range own = chunk(p);
    // Reduce-scatter: chunk j goes to rank j; this rank sums every copy of its own chunk.
    Element* const incoming = receive_scratch<Element>(0, own.count * (width - 1));
    std::vector<MPI_Request> requests(2 * (width - 1), MPI_REQUEST_NULL);
    for (int step = 1; step < w; ++step) {
        const auto s = static_cast<std::size_t>(step - 1);
        MPI_Irecv(incoming + s * own.count, static_cast<int>(own.count), type, source(step), tag, comm, &requests[s]);
        const Range theirs = chunk(peer(step));
        MPI_Isend(data + theirs.first, static_cast<int>(theirs.count), type, peer(step), tag, comm, &requests[width - 1 + s]);
    }
    wait_all(requests);
    for (std::size_t s = 0; s + 1 < width; ++s) add(data + own.first, incoming + s * own.count, own.count);
    // All-gather: the complete chunk to every rank, each rank's complete chunk from it.
    for (int step = 1; step < w; ++step) {
        const auto s = static_cast<std::size_t>(step - 1);
        const Range theirs = chunk(source(step));
        MPI_Irecv(data + theirs.first, static_cast<int>(theirs.count), type, source(step), tag, comm, &requests[s]);
        MPI_Isend(data + own.first, static_cast<int>(own.count), type, peer(step), tag, comm, &requests[width - 1 + s]);
    }
    wait_all(requests);
}

#define DTSIM_ALLREDUCE_ALGORITHMS(Element)                                                                                   \
    template void tree_allreduce<Element>(Element*, std::size_t, MPI_Datatype, AddInto<Element>, MPI_Comm, int);             \
    template void halving_doubling_allreduce<Element>(Element*, std::size_t, MPI_Datatype, AddInto<Element>, MPI_Comm, int); \
    template void direct_allreduce<Element>(Element*, std::size_t, MPI_Datatype, AddInto<Element>, MPI_Comm, int);
DTSIM_ALLREDUCE_ALGORITHMS(float)
DTSIM_ALLREDUCE_ALGORITHMS(std::uint16_t)
#undef DTSIM_ALLREDUCE_ALGORITHMS

}  // namespace dtsim::runtime

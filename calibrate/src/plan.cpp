#include "dtsim/calibrate/plan.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <stdexcept>

#include "dtsim/calibrate/samples.hpp"

namespace dtsim::calibrate {
namespace {

// Default sweep ends: nccl-tests-like on GPUs (8 B to 1 GB); host memory and TCP are slower, so the
// CPU/MPI sweep stops at 64 MiB; --quick keeps a 4-rank calibration here within a few minutes.
constexpr double kGpuMaxBytes = 1e9;
constexpr double kCpuMaxBytes = 64.0 * 1024 * 1024;
constexpr double kQuickGpuMaxBytes = 256.0 * 1024 * 1024;
constexpr double kQuickCpuMaxBytes = 4.0 * 1024 * 1024;
constexpr double kElementBytes = 4;  // float32, nccl-tests' default type
// The loaded ping-pong's sizes: small messages, whose round trip is the queue's delay; few, since each is timed
// behind a queue of up to 100 ms on the testbed (docs/calibration.md).
constexpr std::array<double, 4> kLoadedPingpongBytes = {8, 1024, 16 * 1024, 64 * 1024};

std::vector<double> sizes(const PlanOptions& options) {
    double max = options.max_bytes;
    if (max <= 0)
        max = options.quick ? (options.gpu ? kQuickGpuMaxBytes : kQuickCpuMaxBytes)
                            : (options.gpu ? kGpuMaxBytes : kCpuMaxBytes);
    const double factor = options.quick && options.factor == 2 ? 4 : options.factor;
    std::vector<double> out;
    for (double b = options.min_bytes; b <= max * (1 + 1e-12); b *= factor) out.push_back(std::round(b));
    return out;
}

bool wanted(const PlanOptions& options, CalibrationOp op) {
    return options.ops.empty() || std::find(options.ops.begin(), options.ops.end(), op) != options.ops.end();
}

// Bytes each rank contributes: collectives whose size is the whole array need at least one element each.
bool size_fits(NetworkOp op, double bytes, int ranks) {
    const bool divided = op == NetworkOp::allgather || op == NetworkOp::reducescatter || op == NetworkOp::alltoall;
    return (divided ? bytes / ranks : bytes) >= kElementBytes;
}

// Collective group sizes: the whole world; a full calibration adds every power of two below it, so
// that fits exist per rank count.
std::vector<int> group_sizes(const PlanOptions& options, int world) {
    std::set<int> out{world};
    if (!options.quick)
        for (int n = 2; n < world; n *= 2) out.insert(n);
    return {out.begin(), out.end()};
}

// How many of a link class's ring members each smaller collective group holds (its first k ranks), where
// that is at least two and fewer than the whole ring.
std::set<int> sub_ring_sizes(const PlanOptions& options, int world, const std::vector<int>& ring) {
    std::set<int> out;
    for (int ranks : group_sizes(options, world)) {
        const auto inside = std::count_if(ring.begin(), ring.end(), [&](int r) { return r < ranks; });
        if (inside >= 2 && inside < static_cast<long>(ring.size())) out.insert(static_cast<int>(inside));
    }
    return out;
}

PlanItem network_item(ItemKind kind, NetworkOp op, TimingMode mode, double bytes, LinkClass link_class,
                      int ranks, std::vector<int> members) {
    PlanItem item;
    item.kind = kind;
    item.op = op;
    item.mode = mode;
    item.bytes = bytes;
    item.link_class = link_class;
    item.ranks = ranks;
    item.members = std::move(members);
    return item;
}

void add_network_items(const PlanOptions& options, const std::vector<int>& node_of_rank, std::vector<PlanItem>& plan) {
    const int world = static_cast<int>(node_of_rank.size());
    const auto byte_sizes = sizes(options);
    if (world >= 2)
        for (int ranks : group_sizes(options, world))
            for (const auto& [op, name] : kNetworkOpNames.entries) {
                if (is_point_to_point(op) || !wanted(options, op)) continue;
                for (auto mode : {TimingMode::throughput, TimingMode::latency})
                    for (double bytes : byte_sizes)
                        if (size_fits(op, bytes, ranks))
                            plan.push_back(network_item(ItemKind::collective, op, mode, bytes, link_class_of(node_of_rank, ranks),
                                                        ranks, {}));
            }
    // Per link class: a ping-pong between rank 0 and one other rank, and a ring exchange among every rank
    // of the class: the ranks of rank 0's node (intra_node), or the first rank of each node (inter_node).
    std::vector<std::pair<LinkClass, std::vector<int>>> classes;
    std::vector<int> same_node, one_per_node;
    for (int r = 0; r < world; ++r) {
        if (node_of_rank[r] == node_of_rank[0]) same_node.push_back(r);
        if (std::none_of(one_per_node.begin(), one_per_node.end(), [&](int m) { return node_of_rank[m] == node_of_rank[r]; }))
            one_per_node.push_back(r);
    }
    if (same_node.size() >= 2) classes.emplace_back(LinkClass::intra_node, same_node);
    if (one_per_node.size() >= 2) classes.emplace_back(LinkClass::inter_node, one_per_node);
    // Where the ring has more than two members, also two-way exchanges among them in pairs (an `exchange`:
    // each sends to and receives from its partner at once, every pair at the same time, as
    // halving-doubling's steps do), one at a time: what it costs beyond a ring step is what the simulator
    // adds to such exchanges.
    for (const auto& [link_class, ring] : classes) {
        for (const auto& [op, mode] : {std::pair{NetworkOp::pingpong, TimingMode::latency}, {NetworkOp::sendrecv, TimingMode::throughput},
                                       {NetworkOp::sendrecv, TimingMode::latency}, {NetworkOp::exchange, TimingMode::latency}}) {
            if (!wanted(options, op)) continue;
            if (op == NetworkOp::exchange && ring.size() < 3) continue;
            const auto members = op == NetworkOp::pingpong ? std::vector<int>{ring[0], ring[1]} : ring;
            for (double bytes : byte_sizes)
                plan.push_back(network_item(ItemKind::point_to_point, op, mode, bytes, link_class,
                                            static_cast<int>(members.size()), members));
        }
        // Between nodes, with a third node: the ping-pong of the same two ranks while the second streams bulk messages
        // to the third, so that each reply waits behind the second's full queue (the loaded round trip).
        if (link_class == LinkClass::inter_node && ring.size() >= 3 && wanted(options, NetworkOp::loaded_pingpong) &&
            !loaded_pingpong_skipped(options))
            for (double bytes : kLoadedPingpongBytes)
                plan.push_back(network_item(ItemKind::point_to_point, NetworkOp::loaded_pingpong, TimingMode::latency, bytes,
                                            link_class, 3, {ring[0], ring[1], ring[2]}));
        // The ring steps of the smaller collective groups too (the class's ranks among the first k): with
        // fewer ranks busy, a step can run faster on shared hosts and switches, and the simulator takes the
        // step timed with as many ranks as the ring it replays (Profile::point_to_point).
        if (!wanted(options, NetworkOp::sendrecv)) continue;
        for (int members_count : sub_ring_sizes(options, world, ring))
            for (auto mode : {TimingMode::throughput, TimingMode::latency})
                for (double bytes : byte_sizes) {
                    plan.push_back(network_item(ItemKind::point_to_point, NetworkOp::sendrecv, mode, bytes, link_class, members_count,
                                                {ring.begin(), ring.begin() + members_count}));
                    plan.back().sub_ring = true;
                }
    }
}

void add_compute_items(const PlanOptions& options, std::vector<PlanItem>& plan) {
    if (wanted(options, ComputeOp::gemm)) {
        // A CPU multiplies fp32 only; a GPU each precision a scenario can train in.
        std::vector<Precision> precisions{Precision::fp32};
        if (options.gpu) precisions = {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16};
        const long long max_square = options.gpu ? (options.quick ? 8192 : 16384) : (options.quick ? 1024 : 2048);
        std::vector<std::array<long long, 3>> shapes;
        for (long long s = 64; s <= max_square; s *= 2) shapes.push_back({s, s, s});
        // Training-like shapes: a tall activation matrix times a square weight (a linear layer's forward
        // for a batch of tokens), and the weight-gradient GEMM with the long dimension as k.
        const long long tokens = options.gpu ? 16384 : 2048;
        const long long hidden = options.gpu ? 4096 : 512;
        shapes.push_back({tokens, hidden, hidden});
        shapes.push_back({hidden, hidden, tokens});
        for (const auto precision : precisions)
            for (const auto& [m, n, k] : shapes) {
                PlanItem item;
                item.kind = ItemKind::gemm;
                item.op = ComputeOp::gemm;
                item.dtype = kGemmDtypeNames.name(precision);
                item.m = m;
                item.n = n;
                item.k = k;
                plan.push_back(item);
            }
    }
    if (wanted(options, ComputeOp::memory_bandwidth)) {
        const double first = 1 << 20;
        const double last = options.gpu ? 2e9 : (options.quick ? 64 : 512) * double(1 << 20);
        for (double bytes = first; bytes <= last; bytes *= options.quick ? 8 : 4) {
            PlanItem item;
            item.kind = ItemKind::memory_bandwidth;
            item.op = ComputeOp::memory_bandwidth;
            item.bytes = bytes;
            plan.push_back(item);
        }
    }
    if (wanted(options, ComputeOp::launch_latency)) {
        PlanItem item;
        item.kind = ItemKind::launch_latency;
        item.op = ComputeOp::launch_latency;
        plan.push_back(item);
    }
    if (options.gpu)
        for (auto op : {ComputeOp::host_to_device, ComputeOp::device_to_host}) {
            if (!wanted(options, op)) continue;
            for (double bytes = 4096; bytes <= (options.quick ? 64e6 : 1e9); bytes *= 8) {
                PlanItem item;
                item.kind = ItemKind::copy;
                item.op = op;
                item.bytes = bytes;
                plan.push_back(item);
            }
        }
}

// Codec kernels over buckets of 64 KiB to 64 MiB of fp32 gradients (DDP's 25 MB default in between);
// --quick stops at 4 MiB.
void add_codec_items(const PlanOptions& options, std::vector<PlanItem>& plan) {
    if (!wanted(options, ComputeOp::codec) || codec_skipped(options)) return;
    const double last = (options.quick ? 4.0 : 64.0) * 1024 * 1024;
    for (const auto& [kernel, name] : kCodecKernelNames.entries) {
        const std::vector<int> ranks = is_powersgd(kernel) ? std::vector<int>(kCodecPowersgdRanks.begin(), kCodecPowersgdRanks.end())
                                                           : std::vector<int>{0};
        for (int rank : ranks)
            for (double bytes = 64 * 1024; bytes <= last; bytes *= 4) {
                PlanItem item;
                item.kind = ItemKind::codec;
                item.op = ComputeOp::codec;
                item.kernel = kernel;
                item.rank = rank;
                item.bytes = bytes;
                plan.push_back(item);
            }
    }
}

std::string bytes_text(double bytes) { return std::to_string(static_cast<long long>(bytes)); }

}  // namespace

bool codec_skipped(const PlanOptions& options) { return options.gpu && wanted(options, ComputeOp::codec); }

bool loaded_pingpong_skipped(const PlanOptions& options) { return options.gpu && wanted(options, NetworkOp::loaded_pingpong); }

std::vector<std::string> left_out_of_plan(const PlanOptions& options) {
    std::vector<std::string> out;
    if (codec_skipped(options)) out.emplace_back("no GPU codec kernels yet: the plan leaves out the codec samples");
    if (loaded_pingpong_skipped(options))
        out.emplace_back("the loaded ping-pong times MPI messages behind an MPI stream, not NCCL's: the plan leaves out the "
                         "loaded_pingpong samples");
    return out;
}

std::string PlanItem::key() const {
    const std::string name(to_string(op));
    switch (kind) {
        case ItemKind::collective:
            return name + "/" + std::string(to_string(mode)) + "/" + std::to_string(ranks) + "r/" + bytes_text(bytes);
        case ItemKind::point_to_point:
            // A ring of part of the class names its size; the whole class's keeps the older key.
            return name + "/" + std::string(to_string(mode)) + "/" + std::string(to_string(link_class)) + "/" +
                   (sub_ring ? std::to_string(ranks) + "r/" : "") + bytes_text(bytes);
        case ItemKind::gemm:
            return name + "/" + dtype + "/" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
        case ItemKind::memory_bandwidth:
        case ItemKind::copy:
            return name + "/" + bytes_text(bytes);
        case ItemKind::launch_latency:
            return name;
        case ItemKind::codec:
            return name + "/" + std::string(to_string(kernel)) + "/" +
                   (is_powersgd(kernel) && rank != kCodecPowersgdFirstRank ? "rank" + std::to_string(rank) + "/" : "") +
                   bytes_text(bytes);
    }
    return name;
}

LinkClass link_class_of(const std::vector<int>& node_of_rank, int ranks) {
    std::set<int> nodes(node_of_rank.begin(), node_of_rank.begin() + ranks);
    if (nodes.size() == 1) return LinkClass::intra_node;
    if (static_cast<int>(nodes.size()) == ranks) return LinkClass::inter_node;
    return LinkClass::mixed;
}

std::vector<PlanItem> make_plan(const PlanOptions& options, const std::vector<int>& node_of_rank) {
    if (node_of_rank.empty()) throw std::invalid_argument("a calibration plan needs at least one rank");
    std::vector<PlanItem> plan;
    add_network_items(options, node_of_rank, plan);
    add_compute_items(options, plan);
    add_codec_items(options, plan);
    return plan;
}

double max_buffer_bytes(const std::vector<PlanItem>& plan) {
    double out = kElementBytes;
    for (const auto& item : plan)
        if (item.kind == ItemKind::collective || item.kind == ItemKind::point_to_point) out = std::max(out, item.bytes);
    return out;
}

double bus_bandwidth_factor(NetworkOp op, int ranks) {
    const double n = ranks;
    if (op == NetworkOp::allreduce) return 2 * (n - 1) / n;
    if (op == NetworkOp::allgather || op == NetworkOp::reducescatter || op == NetworkOp::alltoall) return (n - 1) / n;
    return 1;  // broadcast, sendrecv, exchange, pingpong, loaded_pingpong
}

}  // namespace dtsim::calibrate

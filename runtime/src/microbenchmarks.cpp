#include "microbenchmarks.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dtsim/median.hpp"

namespace dtsim::runtime {
namespace {

using calibrate::ItemKind;
using calibrate::PlanItem;

constexpr int kAckBytes = 4;
constexpr double kStreamWindowBytes = 8.0 * 1024 * 1024;  // osu_bw's window is 64 messages; cap its bytes
constexpr int kMaxWindow = 64;
constexpr int kLaunchesPerIteration = 100;


double now() { return MPI_Wtime(); }

}  // namespace

Microbenchmarks::Microbenchmarks(const MpiContext& context, Backend& backend, double target_seconds)
    : context_(context), backend_(backend), target_seconds_(target_seconds) {}

int Microbenchmarks::iterations_for(double estimate_s, int minimum, int maximum) const {
    if (estimate_s <= 0) return maximum;
    return static_cast<int>(std::clamp(std::round(target_seconds_ / estimate_s), double(minimum), double(maximum)));
}

Measurement Microbenchmarks::run(const PlanItem& item) {
    switch (item.kind) {
        case ItemKind::collective: return collective(item);
        case ItemKind::point_to_point: return point_to_point(item);
        default: return compute(item);
    }
}

Measurement Microbenchmarks::collective(const PlanItem& item) {
    auto& comm = *backend_.communicator;
    const auto bytes = static_cast<std::size_t>(item.bytes);
    const bool taking_part = context_.rank() < item.ranks;
    auto one_op = [&] {
        comm.start_collective(item.op, bytes, item.ranks);
        comm.synchronize();
    };
    Measurement out;
    out.warmup = 1;
    one_op();  // warm-up, as nccl-tests' default -w 1
    context_.barrier();
    const double start = now();
    one_op();
    const double estimate = context_.max_over_ranks(now() - start);
    out.iterations = iterations_for(estimate, 5, 1000);

    if (item.mode == "throughput") {
        const int batches = std::min(3, out.iterations);
        const int per_batch = std::max(1, out.iterations / batches);
        out.iterations = batches * per_batch;
        for (int b = 0; b < batches; ++b) {
            context_.barrier();
            const double t0 = now();
            for (int i = 0; i < per_batch; ++i) comm.start_collective(item.op, bytes, item.ranks);
            comm.synchronize();
            const double mine = taking_part ? (now() - t0) / per_batch : 0;
            out.iteration_times_s.push_back(context_.mean_over_ranks(mine) * context_.size() / item.ranks);
        }
        out.time_s = median(out.iteration_times_s);
        return out;
    }
    std::vector<double> times;
    for (int i = 0; i < out.iterations; ++i) {
        context_.barrier();
        const double t0 = now();
        one_op();
        times.push_back(taking_part ? now() - t0 : 0);
    }
    out.iteration_times_s = context_.max_over_ranks(times);
    out.time_s = median(out.iteration_times_s);
    return out;
}

Measurement Microbenchmarks::point_to_point(const PlanItem& item) {
    auto& comm = *backend_.communicator;
    const auto bytes = static_cast<std::size_t>(item.bytes);
    const int me = context_.rank();
    const bool pingpong = item.op == "pingpong";
    const int window = pingpong ? 1 : std::clamp(static_cast<int>(kStreamWindowBytes / item.bytes), 1, kMaxWindow);
    // One timed exchange; only the pair's first rank (the initiator) times it.
    auto exchange = [&](int peer, bool initiator) {
        if (initiator) {
            comm.start_send(peer, bytes, window);
            comm.synchronize();
            comm.start_recv(peer, pingpong ? bytes : kAckBytes, 1);
        } else {
            comm.start_recv(peer, bytes, window);
            comm.synchronize();
            comm.start_send(peer, pingpong ? bytes : kAckBytes, 1);
        }
        comm.synchronize();
    };
    // Per message: half a round trip for pingpong; the window's time over its messages for sendrecv.
    const double per_message = pingpong ? 2.0 : window;

    Measurement out;
    out.warmup = 2;
    std::vector<double> times;
    if (me == item.peer_a || me == item.peer_b) {
        const bool initiator = me == item.peer_a;
        const int peer = initiator ? item.peer_b : item.peer_a;
        for (int i = 0; i < out.warmup; ++i) exchange(peer, initiator);
        int iterations = 0;
        if (initiator) {
            const double t0 = now();
            exchange(peer, true);
            iterations = iterations_for(now() - t0, 5, 2000);
            MPI_Send(&iterations, 1, MPI_INT, peer, 0, context_.world());
        } else {
            exchange(peer, false);
            MPI_Recv(&iterations, 1, MPI_INT, peer, 0, context_.world(), MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < iterations; ++i) {
            const double t0 = now();
            exchange(peer, initiator);
            times.push_back((now() - t0) / per_message);
        }
    }
    out.iteration_times_s = context_.broadcast(times, item.peer_a);
    out.iterations = static_cast<int>(out.iteration_times_s.size());
    out.time_s = median(out.iteration_times_s);
    return out;
}

Measurement Microbenchmarks::compute(const PlanItem& item) {
    auto& device = *backend_.device;
    std::unique_ptr<Kernel> kernel;
    int launches = 1;
    switch (item.kind) {
        case ItemKind::gemm: kernel = device.gemm(item.m, item.n, item.k, item.dtype); break;
        case ItemKind::memory_bandwidth: kernel = device.triad(static_cast<std::size_t>(item.bytes)); break;
        case ItemKind::launch_latency:
            kernel = device.empty_launch();
            launches = kLaunchesPerIteration;
            break;
        case ItemKind::copy: kernel = device.copy(item.op, static_cast<std::size_t>(item.bytes)); break;
        default: throw std::logic_error("not a compute item");
    }
    if (!kernel) throw std::invalid_argument("the " + device.kind() + " device cannot run " + item.op);
    auto timed_run = [&] {
        const double t0 = now();
        for (int l = 0; l < launches; ++l) kernel->start();
        device.synchronize();
        return (now() - t0) / launches;
    };
    Measurement out;
    out.warmup = 1;
    timed_run();
    out.iterations = iterations_for(context_.max_over_ranks(timed_run()) * launches, 3, 200);
    context_.barrier();
    std::vector<double> times;
    for (int i = 0; i < out.iterations; ++i) times.push_back(timed_run());
    out.iteration_times_s = context_.max_over_ranks(times);
    out.time_s = median(out.iteration_times_s);
    return out;
}

}  // namespace dtsim::runtime

#include "microbenchmarks.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "dtsim/median.hpp"
#include "loaded_pingpong.hpp"
#include "mpi_waiting.hpp"

namespace dtsim::runtime {
namespace {

using calibrate::ItemKind;
using calibrate::PlanItem;

constexpr int kLaunchesPerIteration = 100;
// Timed iterations (batches in throughput mode) of a network sample, however long each takes: the median
// of 15 stays put with up to 7 stalls, and the sample's spread is estimated from enough of them
// (docs/calibration.md, "Estimators").
constexpr int kMinNetworkIterations = 15;
constexpr int kThroughputBatches = 7;
constexpr double kIdlePollS = 100e-6;  // how long ranks left out of a timed operation sleep between polls

double now() { return MPI_Wtime(); }

}  // namespace

Microbenchmarks::Microbenchmarks(const MpiContext& context, Backend& backend, double target_seconds,
                                 bool codecs_one_rank_at_a_time)
    : context_(context), backend_(backend), target_seconds_(target_seconds), codecs_one_rank_at_a_time_(codecs_one_rank_at_a_time) {}

Microbenchmarks::~Microbenchmarks() {
    for (auto& [members, comm] : member_comms_)
        if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}

void Microbenchmarks::start_together(const std::vector<int>& members, bool member) {
    context_.barrier();
    if (static_cast<int>(members.size()) == context_.size()) return;
    auto found = member_comms_.find(members);
    if (found == member_comms_.end()) {
        MPI_Comm comm = MPI_COMM_NULL;
        MPI_Comm_split(context_.world(), member ? 0 : MPI_UNDEFINED, context_.rank(), &comm);
        found = member_comms_.emplace(members, comm).first;
    }
    if (member) MPI_Barrier(found->second);
}

int Microbenchmarks::iterations_for(double estimate_s, int minimum, int maximum) const {
    if (estimate_s <= 0) return maximum;
    return static_cast<int>(std::clamp(std::round(target_seconds_ / estimate_s), double(minimum), double(maximum)));
}

Measurement Microbenchmarks::run(const PlanItem& item) {
    switch (item.kind) {
        case ItemKind::collective: return group_operation(item);
        case ItemKind::point_to_point:
            switch (item.network_op()) {
                case NetworkOp::pingpong: return pingpong(item);
                case NetworkOp::loaded_pingpong: return loaded_pingpong(item);
                default: return group_operation(item);
            }
        default: return compute(item);
    }
}

Measurement Microbenchmarks::group_operation(const PlanItem& item) {
    auto& comm = *backend_.communicator;
    const auto bytes = static_cast<std::size_t>(item.bytes);
    const int me = context_.rank();
    const NetworkOp op = item.network_op();
    std::function<void()> start_op;
    std::vector<int> members = item.members;  // the ranks taking part: a collective's are the first `ranks`
    if (members.empty())
        for (int r = 0; r < item.ranks; ++r) members.push_back(r);
    // An exchange pairs its members up (first and second, third and fourth, ...): an odd one out waits.
    if (op == NetworkOp::exchange && members.size() % 2 == 1) members.pop_back();
    const auto position = std::find(members.begin(), members.end(), me) - members.begin();
    const auto n = static_cast<long>(members.size());
    const bool taking_part = position < n;
    const int taking_part_count = static_cast<int>(n);
    if (op == NetworkOp::sendrecv || op == NetworkOp::exchange) {
        // sendrecv: a ring step among the members, each sending to the next and receiving from the previous.
        // exchange: each pair both ways at once, as halving-doubling's steps.
        const long to = op == NetworkOp::exchange ? position ^ 1 : (position + 1) % n;
        const long from = op == NetworkOp::exchange ? position ^ 1 : (position + n - 1) % n;
        const int to_rank = taking_part ? members[static_cast<size_t>(to)] : -1;
        const int from_rank = taking_part ? members[static_cast<size_t>(from)] : -1;
        start_op = [&comm, taking_part, to_rank, from_rank, bytes] {
            if (taking_part) comm.start_sendrecv(to_rank, from_rank, bytes);
        };
    } else {
        start_op = [&comm, &item, op, bytes] { comm.start_collective(op, bytes, item.ranks); };
    }
    const IdleWaits idle(!taking_part, kIdlePollS);
    auto one_op = [&] {
        start_op();
        comm.synchronize();
    };
    Measurement out;
    out.warmup = 1;
    one_op();  // warm-up, as nccl-tests' default -w 1
    start_together(members, taking_part);
    const double start = now();
    one_op();
    const double estimate = context_.max_over_ranks(now() - start);
    out.iterations = iterations_for(estimate, kMinNetworkIterations, 1000);

    if (item.mode == TimingMode::throughput) {
        const int batches = std::min(kThroughputBatches, out.iterations);
        const int per_batch = std::max(1, out.iterations / batches);
        out.iterations = batches * per_batch;
        for (int b = 0; b < batches; ++b) {
            start_together(members, taking_part);
            const double t0 = now();
            for (int i = 0; i < per_batch; ++i) start_op();
            comm.synchronize();
            const double mine = taking_part ? (now() - t0) / per_batch : 0;
            out.iteration_times_s.push_back(context_.mean_over_ranks(mine) * context_.size() / taking_part_count);
        }
        out.time_s = median(out.iteration_times_s);
        return out;
    }
    std::vector<double> times;
    for (int i = 0; i < out.iterations; ++i) {
        start_together(members, taking_part);
        const double t0 = now();
        one_op();
        times.push_back(taking_part ? now() - t0 : 0);
    }
    out.iteration_times_s = context_.max_over_ranks(times);
    out.time_s = median(out.iteration_times_s);
    return out;
}

std::vector<double> Microbenchmarks::round_trips(bool initiator, int warmup, const std::function<void()>& round_trip,
                                                 const std::function<int(int)>& agree) const {
    for (int i = 0; i < warmup; ++i) round_trip();
    const double t0 = now();
    round_trip();
    const int iterations = agree(initiator ? iterations_for(now() - t0, kMinNetworkIterations, 2000) : 0);
    std::vector<double> times;
    for (int i = 0; i < iterations; ++i) {
        const double start = now();
        round_trip();
        times.push_back((now() - start) / 2);  // one way: half the round trip
    }
    return times;
}

Measurement Microbenchmarks::initiator_times(const std::vector<double>& times, int initiator_rank, int warmup) const {
    Measurement out;
    out.warmup = warmup;
    out.iteration_times_s = context_.broadcast(times, initiator_rank);
    out.iterations = static_cast<int>(out.iteration_times_s.size());
    out.time_s = median(out.iteration_times_s);
    return out;
}

Measurement Microbenchmarks::pingpong(const PlanItem& item) {
    auto& comm = *backend_.communicator;
    const auto bytes = static_cast<std::size_t>(item.bytes);
    const int me = context_.rank();
    const int initiator_rank = item.members.at(0);
    const int responder_rank = item.members.at(1);
    constexpr int warmup = 2;
    std::vector<double> times;
    const IdleWaits idle(me != initiator_rank && me != responder_rank, kIdlePollS);
    if (me == initiator_rank || me == responder_rank) {
        const bool initiator = me == initiator_rank;
        const int peer = initiator ? responder_rank : initiator_rank;
        auto round_trip = [&] {
            if (initiator) {
                comm.start_send(peer, bytes);
                comm.synchronize();
                comm.start_recv(peer, bytes);
            } else {
                comm.start_recv(peer, bytes);
                comm.synchronize();
                comm.start_send(peer, bytes);
            }
            comm.synchronize();
        };
        auto agree = [&](int iterations) {
            if (initiator)
                MPI_Send(&iterations, 1, MPI_INT, peer, 0, context_.world());
            else
                MPI_Recv(&iterations, 1, MPI_INT, peer, 0, context_.world(), MPI_STATUS_IGNORE);
            return iterations;
        };
        times = round_trips(initiator, warmup, round_trip, agree);
    }
    return initiator_times(times, initiator_rank, warmup);
}

Measurement Microbenchmarks::loaded_pingpong(const PlanItem& item) {
    const int bytes = static_cast<int>(item.bytes);
    const int me = context_.rank();
    const int initiator_rank = item.members.at(0);
    const int responder_rank = item.members.at(1);
    const int sink_rank = item.members.at(2);
    const MPI_Comm world = context_.world();
    constexpr int warmup = 3;
    std::vector<char> message(static_cast<size_t>(bytes)), reply(static_cast<size_t>(bytes));
    std::vector<double> times;
    // The sink only takes the stream in (socket buffers hold far more than a poll's worth of it): it leaves the
    // cores to the timed ranks, as ranks left out do.
    const IdleWaits idle(me != initiator_rank && me != responder_rank, kIdlePollS);
    if (me == sink_rank) {
        sink_bulk(responder_rank, world);
    } else if (me == initiator_rank) {
        auto round_trip = [&] {
            sendrecv(message.data(), bytes, MPI_BYTE, responder_rank, kLoadedPingTag, reply.data(), bytes, MPI_BYTE, responder_rank,
                     kLoadedPingTag, world);
        };
        auto agree = [&](int iterations) {
            MPI_Send(&iterations, 1, MPI_INT, responder_rank, kLoadedCountTag, world);
            return iterations;
        };
        times = round_trips(true, warmup, round_trip, agree);
    } else if (me == responder_rank) {
        BulkSender stream(sink_rank, world);
        stream.wait_for_sent(2);  // the queue is full before the first ping is answered
        auto round_trip = [&] {
            stream.receive(message.data(), bytes, MPI_BYTE, initiator_rank, kLoadedPingTag);
            stream.send(message.data(), bytes, MPI_BYTE, initiator_rank, kLoadedPingTag);
        };
        auto agree = [&](int) {
            int iterations = 0;
            stream.receive(&iterations, 1, MPI_INT, initiator_rank, kLoadedCountTag);
            return iterations;
        };
        times = round_trips(false, warmup, round_trip, agree);
        stream.finish();
    }
    return initiator_times(times, initiator_rank, warmup);
}

std::vector<double> Microbenchmarks::one_rank_at_a_time(const std::function<double()>& timed_run, int launches, int& iterations) {
    std::vector<double> times;
    for (int turn = 0; turn < context_.size(); ++turn) {
        const bool mine = turn == context_.rank();
        const IdleWaits idle(!mine, kIdlePollS);
        context_.barrier();
        double estimate = 0;
        if (mine) {
            timed_run();  // warm-up
            if (turn == 0) estimate = timed_run();
        }
        if (turn == 0) iterations = iterations_for(context_.broadcast(std::vector<double>{estimate}, 0).front() * launches, 3, 200);
        if (mine)
            for (int i = 0; i < iterations; ++i) times.push_back(timed_run());
    }
    return times;
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
        case ItemKind::copy: kernel = device.copy(std::get<calibrate::ComputeOp>(item.op), static_cast<std::size_t>(item.bytes)); break;
        case ItemKind::codec: kernel = device.codec(item.kernel, static_cast<std::size_t>(item.bytes), item.rank); break;
        default: throw std::logic_error("not a compute item");
    }
    if (!kernel) throw std::invalid_argument("the " + device.kind() + " device cannot run " + item.key());
    auto timed_run = [&] {
        const double t0 = now();
        for (int l = 0; l < launches; ++l) kernel->start();
        device.synchronize();
        return (now() - t0) / launches;
    };
    Measurement out;
    out.warmup = 1;
    std::vector<double> times;
    if (item.kind == ItemKind::codec && codecs_one_rank_at_a_time_) {
        times = one_rank_at_a_time(timed_run, launches, out.iterations);
    } else {
        timed_run();
        out.iterations = iterations_for(context_.max_over_ranks(timed_run()) * launches, 3, 200);
        context_.barrier();
        for (int i = 0; i < out.iterations; ++i) times.push_back(timed_run());
    }
    out.iteration_times_s = context_.mean_over_ranks(times);
    out.time_s = median(out.iteration_times_s);
    return out;
}

}  // namespace dtsim::runtime

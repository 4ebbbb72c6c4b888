#pragma once
// The network operations a calibration times and a profile fits, and how they are timed.
#include <optional>
#include <string_view>

#include "dtsim/name_table.hpp"

namespace dtsim {

/// Collectives (allreduce .. alltoall) over a group of ranks, and point-to-point operations between two
/// ranks of one link class: sendrecv (nccl-tests' ring exchange: every rank sends to the next and receives
/// from the previous at once, time per exchange), exchange (pairs of ranks, each sends to and receives from
/// the other at once), pingpong (one-way time: half a round trip) and loaded_pingpong: a ping-pong between
/// the first and second of three inter_node ranks while the second streams bulk messages to the third, so
/// that each reply leaves behind the full queue of the second's link (one-way time: half the round trip).
/// A flow that joins a busy link grows its window per such loaded round trip; the loaded ping-pong is never
/// a link's cost (Profile::point_to_point), only its queueing delay (Profile::loaded_round_trip_s).
enum class NetworkOp { allreduce, allgather, reducescatter, broadcast, alltoall, sendrecv, exchange, pingpong, loaded_pingpong };

inline constexpr auto kNetworkOpNames = make_name_table(
    std::pair{NetworkOp::allreduce, "allreduce"}, std::pair{NetworkOp::allgather, "allgather"},
    std::pair{NetworkOp::reducescatter, "reducescatter"}, std::pair{NetworkOp::broadcast, "broadcast"},
    std::pair{NetworkOp::alltoall, "alltoall"}, std::pair{NetworkOp::sendrecv, "sendrecv"},
    std::pair{NetworkOp::exchange, "exchange"}, std::pair{NetworkOp::pingpong, "pingpong"},
    std::pair{NetworkOp::loaded_pingpong, "loaded_pingpong"});

constexpr std::string_view to_string(NetworkOp op) { return kNetworkOpNames.name(op); }
constexpr bool is_point_to_point(NetworkOp op) {
    return op == NetworkOp::sendrecv || op == NetworkOp::exchange || op == NetworkOp::pingpong || op == NetworkOp::loaded_pingpong;
}

/// throughput: back to back (nccl-tests' default); latency: one at a time after a barrier.
enum class TimingMode { throughput, latency };

inline constexpr auto kTimingModeNames =
    make_name_table(std::pair{TimingMode::throughput, "throughput"}, std::pair{TimingMode::latency, "latency"});

constexpr std::string_view to_string(TimingMode mode) { return kTimingModeNames.name(mode); }

}  // namespace dtsim

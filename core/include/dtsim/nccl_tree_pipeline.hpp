#pragma once
// How a tree all-reduce of algorithm: nccl fills its pipeline (docs/collectives.md, "The tree's first chunk"): NCCL's
// chunk for the call, what a rank holds before it forwards it, and the first chunk's passage up and down the tree,
// which neither the flows (the steady state) nor NCCL's latency model charge.
#include <optional>

#include "dtsim/nccl_model.hpp"

namespace dtsim {

/// NCCL's chunk for a tree all-reduce of `call` run as `pipelines` trees at once (NCCL's tree channels, each with
/// call.bytes / pipelines): the protocol's step payload, for LL128 halved while each tree would hold too few chunks
/// (NVIDIA/nccl v2.30.7-1 src/enqueue.cc, calcCollChunking), or `forced`; at most one tree's bytes.
double nccl_tree_chunk_bytes(const NcclParameters& parameters, const NcclCall& call, NcclProtocol protocol, int pipelines,
                             std::optional<double> forced);

/// The payload a rank holds before it forwards it to the next GPU of its node: one pass of a channel's threads over
/// the lines they poll, for LL (512 threads, a 16-byte line of 8 payload bytes each; src/device/prims_ll.h) and
/// LL128 (20 warps, 32 x 8 words each, 15 of every 16 words payload; prims_ll128.h, DataEltPerSlice); Simple waits
/// for the whole step (prims_simple.h): 0.
double nccl_forward_bytes(NcclProtocol protocol);

/// The first chunk's passage through a tree all-reduce, beyond its latency and its steady state. A rank forwards a
/// chunk only once it holds it, so before every link is busy the first chunk crosses every hop: 2(k-1) inside a
/// node, each after nccl_forward_bytes of it, and 2 log2(N) between nodes (NCCL's latency counts the same hops),
/// each after the whole chunk (NCCL's proxy posts whole steps to the NIC), at `intra_rate` and `net_rate` payload
/// bytes per second. The slowest hop's passage is the steady state's own and is not counted twice.
double nccl_tree_fill_s(const NcclParameters& parameters, const NcclCall& call, NcclProtocol protocol, int pipelines,
                        std::optional<double> forced_chunk, double intra_rate, double net_rate);

/// NCCL's chunk for an NVLSTree all-reduce of `call` (NVIDIA/nccl v2.30.7-1 src/enqueue.cc, calcCollChunking):
/// NCCL_NVLS_CHUNKSIZE, capped from 4 nodes on, and cut where the call holds few chunks per operation in flight
/// (each compute channel runs every head's chunk at once), or `forced`; at most one operation's bytes.
double nccl_nvls_tree_chunk_bytes(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced);

/// The first wave of chunks' passage through an NVLSTree all-reduce, beyond its latency and its steady state. Every
/// operation in flight (compute channel x head) starts with one chunk, which is reduced in the switch, climbs
/// log2(N) network hops, comes down them and is multicast back, each stage waiting for the whole chunk (Simple).
/// The switch passes are shared by every operation (each reads from and writes to every GPU), a head's network hops
/// by its compute channels. The slowest stage's passage is the steady state's own and is not counted twice.
double nccl_nvls_tree_fill_s(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced_chunk);

/// NCCL's chunk for an NVLS all-reduce within one node (src/enqueue.cc, calcCollChunking): NCCL_NVLS_CHUNKSIZE, cut
/// to 64, 32 and 16 KiB below 64, 8 and 2 chunks per operation in flight (each compute channel runs every head's
/// chunk at once; a node's heads are its GPUs in the call), or `forced`; at most one operation's bytes.
double nccl_nvls_chunk_bytes(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced);

/// The first wave of chunks' passage through an NVLS all-reduce, beyond its latency and its steady state: every
/// operation in flight starts with one chunk, reduced in the switch and multicast back, each pass after the whole
/// chunk (Simple), every pass sharing the GPUs' ports with every operation; one pass is the steady state's own.
double nccl_nvls_fill_s(const NcclParameters& parameters, const NcclCall& call, std::optional<double> forced_chunk);

}  // namespace dtsim

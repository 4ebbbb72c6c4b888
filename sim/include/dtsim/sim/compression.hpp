#pragma once
// What gradient compression does to one bucket: the bytes each rank communicates, how they are
// communicated, and the encode/decode time on the worker's GPU. Memory-bound passes run at the model's
// achieved memory bandwidth, PowerSGD's products at its achieved FLOP rate (docs/hardware-sources.md
// §7: a roofline with achieved rates).
//   fp16   dense, all-reduced: N elements of 2 bytes; cast in and out (read + write each);
//   int8   dense, all-reduced: N bytes plus one fp32 scale; a max-abs pass, then quantize; dequantize.
//          Sums cannot stay int8, so an all-reduce codes inside, chunk by chunk (compress_bucket);
//   topk   sparse: k = ratio·N (value, int32 index) pairs, which cannot be summed in place: all-gathered;
//          selection ~ two passes; decode scatter-adds every rank's pairs;
//   powersgd  the bucket as an m×m matrix (m = ⌈√N⌉): P = M·Q and Q = Mᵀ·P, each all-reduced (m·R elements),
//          an orthogonalisation in between; decode M ≈ P·Qᵀ.
// Error feedback (topk, powersgd) adds its memory traffic: read the gradient and the residual, write both.
// With a profile whose compute section has codec fits (calibrated kernels), fp16, int8 and topk encode and
// decode cost the fit's t = fixed + fp32 bytes / rate for the bucket's N fp32 elements instead; top-k
// decode scales to this scenario's rank count and ratio (see compression.cpp). PowerSGD stays FLOP-based.
#include "dtsim/cost_model.hpp"
#include "dtsim/scenario.hpp"

namespace dtsim::sim {

struct CompressedBucket {
    double first_bytes = 0;   // per rank: all-reduced (dense), all-gathered contribution (topk), P (powersgd)
    double second_bytes = 0;  // powersgd: Q, all-reduced after P
    bool sparse = false;      // all-gathered rather than all-reduced
    bool coded_in_ring = false;  // int8: coded chunk by chunk between the ring's transfers (see compression.cpp)
    double encode_s = 0;
    double decode_s = 0;
};

CompressedBucket compress_bucket(const Scenario& scenario, const CostModel& costs, double bucket_bytes);

/// What compression does to a bucket a worker exchanges with parameter servers. The push carries the
/// compressed gradient (dense fp16/int8 values, or top-k pairs with their indices); the pull carries the
/// parameters dense: cast to fp16 or int8 by the server, or, for top-k, at full precision, since the sum of
/// every worker's sparse gradients touches most parameters. The worker encodes before pushing and decodes
/// the casts it pulls; the server decodes as it sums, which its aggregation bandwidth on the uncompressed
/// shard already costs. PowerSGD needs the servers' sum of P before Q can be computed and is refused with
/// a parameter server (scenario loading).
struct ServerExchange {
    double push_fraction = 1;  // bytes pushed / uncompressed bytes
    double pull_fraction = 1;  // bytes pulled / uncompressed bytes
    double encode_s = 0;
    double decode_s = 0;
};

ServerExchange compress_for_servers(const Scenario& scenario, const CostModel& costs, double bucket_bytes);

}  // namespace dtsim::sim

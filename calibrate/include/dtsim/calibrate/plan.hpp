#pragma once
// The calibration plan: which microbenchmarks `dtsim-runtime calibrate` runs, in which order, with
// which sizes. It is a pure function of the options and of the rank layout, so every rank computes the
// same plan, and a resumed run skips exactly the items whose keys are already in samples.jsonl.
#include <array>
#include <string>
#include <vector>

#include "dtsim/calibrate/calibration_ops.hpp"
#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

enum class ItemKind { collective, point_to_point, gemm, memory_bandwidth, launch_latency, copy, codec };

/// One sample to take.
struct PlanItem {
    ItemKind kind = ItemKind::collective;
    CalibrationOp op = NetworkOp::allreduce;
    TimingMode mode = TimingMode::throughput;  // network ops
    std::string dtype = "float32";
    double bytes = 0;  // nccl-tests size semantics for collectives; message size for point-to-point
    int ranks = 0;     // collective: the first `ranks` ranks take part
    LinkClass link_class = LinkClass::intra_node;
    std::vector<int> members;  // point-to-point: the ping-pong pair (and the loaded one's sink), the ring of
                               // sendrecv, the ranks exchange pairs
    bool sub_ring = false;     // sendrecv among part of the class: a smaller collective group's ring
    long long m = 0, n = 0, k = 0;  // gemm
    CodecKernel kernel = CodecKernel::fp16_encode;  // codec
    int rank = 0;                                   // powersgd codec kernels: the factors' rank
    /// The network op of a collective or point-to-point item.
    NetworkOp network_op() const { return std::get<NetworkOp>(op); }
    std::string key() const;
};

struct PlanOptions {
    double min_bytes = 8;
    double max_bytes = 0;  // 0: the backend's default
    double factor = 2;
    bool quick = false;
    bool gpu = false;                         // the cuda device: fp16/bf16 GEMMs and host<->device copies
    std::vector<CalibrationOp> ops;           // empty: all; else a subset
};

/// node_of_rank[r] is the node index (0-based, dense) of rank r.
std::vector<PlanItem> make_plan(const PlanOptions& options, const std::vector<int>& node_of_rank);

/// The largest buffer, in bytes, one rank needs for the plan's network items.
double max_buffer_bytes(const std::vector<PlanItem>& plan);

/// nccl-tests' bus-bandwidth factor (docs/hardware-sources.md §5): busbw = algbw × factor.
double bus_bandwidth_factor(NetworkOp op, int ranks);

/// Link class of a group of ranks: intra_node on one node, inter_node with one rank per node, else mixed.
LinkClass link_class_of(const std::vector<int>& node_of_rank, int ranks);

/// The codec kernels' settings: top-k keeps this fraction (error feedback off), and its decode sums this
/// many blocks of k pairs, as a rank does after an all-gather among 8 ranks. Fixed rather than the
/// calibration's rank count, so that profiles from different layouts measure the same kernel.
inline constexpr double kCodecTopkRatio = 0.01;
inline constexpr int kCodecTopkDecodeBlocks = 8;
/// The ranks of the PowerSGD factors the codec samples are taken at, spanning the usual 1-8: the kernels' time
/// is not proportional to the rank (each product reads the whole m×m matrix whatever the rank), so the
/// simulator interpolates between ranks (docs/calibration.md, "Codecs").
inline constexpr std::array<int, 3> kCodecPowersgdRanks = {1, 4, 8};
/// The one rank older calibrations timed: its samples keep their keys, so that `--resume` completes them.
inline constexpr int kCodecPowersgdFirstRank = 4;

/// Whether the plan leaves out the codec samples it was asked for: no GPU codec kernels exist yet.
bool codec_skipped(const PlanOptions& options);
/// Whether the plan leaves out the loaded ping-pong it was asked for: on GPUs, whose collectives are NCCL's, the
/// loaded ping-pong's MPI messages would cross another transport's queues.
bool loaded_pingpong_skipped(const PlanOptions& options);
/// What the plan leaves out of what it was asked for, one line each, for the calibration to say.
std::vector<std::string> left_out_of_plan(const PlanOptions& options);

}  // namespace dtsim::calibrate

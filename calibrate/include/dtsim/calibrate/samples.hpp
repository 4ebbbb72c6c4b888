#pragma once
// Calibration samples: one JSON object per line of DIR/samples.jsonl, appended by `dtsim-runtime
// calibrate` the moment each is taken. This is the contract between the runtime and `dtsim fit`: it is
// written and read here, and nowhere else.
//
// Fields every line has:   key (unique per sample; --resume skips keys already present), op, time_s,
//                          ranks, nodes, iteration_times_s (raw per-iteration seconds), backend, iterations,
//                          warmup, timestamp; with iteration times, stalls and spread (sample_estimate.hpp:
//                          written for whoever reads the file, derived again from iteration_times_s when
//                          read, so that files written before them read alike).
// Network ops (network_ops.hpp) add:
//                          mode, link_class, bytes (nccl-tests' size semantics), count, dtype, algbw_GBps,
//                          busbw_GBps.
// Compute ops add:         device; gemm: dtype, m, n, k, flops, flops_per_s; memory_bandwidth, host_to_device,
//                          device_to_host, codec: bytes (moved; codec: the uncompressed fp32 input),
//                          bytes_per_s; launch_latency: nothing more; codec: kernel (codec_kernel.hpp), ratio
//                          (topk kernels), blocks (topk_decode), rank (powersgd kernels).
#include <optional>
#include <string>
#include <vector>

#include "dtsim/calibrate/calibration_ops.hpp"
#include "dtsim/precision.hpp"
#include "dtsim/profile.hpp"

namespace dtsim::calibrate {

/// A GEMM sample's `dtype`: its operands' type, and for `tfloat32` fp32 operands multiplied on tensor cores
/// in TF32 (the precision a scenario's `tf32` trains in).
inline constexpr auto kGemmDtypeNames =
    make_name_table(std::pair{Precision::fp32, "float32"}, std::pair{Precision::tf32, "tfloat32"},
                    std::pair{Precision::fp16, "float16"}, std::pair{Precision::bf16, "bfloat16"});

struct Sample {
    std::string key;
    CalibrationOp op = NetworkOp::allreduce;
    TimingMode mode = TimingMode::throughput;  // network ops only
    std::string dtype;     // gemm: kGemmDtypeNames; collectives: their element type; else empty
    std::string device;    // compute ops only
    std::string backend;   // mpi | nccl; empty in hand-written samples
    std::optional<LinkClass> link_class;  // network ops only
    int ranks = 1;
    int nodes = 1;
    double bytes = 0;
    long long m = 0, n = 0, k = 0;  // gemm only, where the shape was written
    double flops = 0;      // gemm only: 2·m·n·k
    CodecKernel kernel = CodecKernel::fp16_encode;  // codec only
    double ratio = 0;      // codec topk kernels only
    int blocks = 0;        // codec topk_decode only
    int rank = 0;          // codec powersgd kernels only
    double time_s = 0;
    std::vector<double> iteration_times_s;
    int iterations = 0;    // timed iterations and untimed warm-up ones (0: not written)
    int warmup = 0;
    std::string timestamp;  // UTC, ISO 8601; empty: not written
};

/// nccl-tests' algorithm and bus bandwidths of a network sample, in GB/s (GB = 1e9 B).
double algorithm_bandwidth_gbps(const Sample& sample);
double bus_bandwidth_gbps(const Sample& sample);
/// nccl-tests' element count of a network sample: float32 elements.
long long element_count(const Sample& sample);

/// One line of samples.jsonl, without its newline.
std::string sample_to_json_line(const Sample& sample);

/// Reads samples.jsonl. A malformed line is an InputError naming the file, the line and the key; a
/// last line cut short by a crash (no trailing newline, not valid JSON) is skipped and counted.
struct SampleFile {
    std::vector<Sample> samples;
    int truncated_lines = 0;
};
SampleFile read_samples_file(const std::string& path);
/// One line read as line `line_number` of `file` says.
Sample sample_from_json_line(const std::string& line, const std::string& file, int line_number);

}  // namespace dtsim::calibrate
